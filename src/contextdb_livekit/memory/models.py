"""Boundary types of the memory layer.

Both backends return the `contextdb_cloud_client` dataclasses (Memory, ActionDecision,
ExecutionReceiptResponse) so the worker sees one shape whichever backend is active.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from contextdb_cloud_client import (
    ActionDecision,
    ExecutionReceipt,
    ExecutionReceiptResponse,
    Memory,
    RecallResult,
)

__all__ = [
    "ACTION_NAME_PATTERN",
    "ERROR_CODE_PATTERN",
    "ActionDecision",
    "ActionSlot",
    "EpistemicSource",
    "ExecutionReceipt",
    "ExecutionReceiptResponse",
    "FactToRemember",
    "Memory",
    "MemorySnapshot",
    "RecallResult",
    "ReceiptStatus",
    "Turn",
    "is_current",
    "receipt_idempotency_key",
]

EpistemicSource = Literal["user_stated", "agent_inferred", "third_party"]
ReceiptStatus = Literal["succeeded", "failed", "skipped"]

# Same rules as the Cloud receipts contract, so a name accepted locally is accepted by Cloud.
ACTION_NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9._:\-]{0,127}$")
ERROR_CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_.:\-]{0,63}$")


def is_current(memory: Memory) -> bool:
    """Superseded or expired memories are history: never evidence, never shown."""
    return memory.superseded_by is None and memory.valid_until is None


@dataclass(frozen=True)
class Turn:
    """One message of the conversation, as fact extraction reads it."""

    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True)
class ActionSlot:
    """The one memory slot an action may rely on.

    Scoping a decision to a slot is what keeps unrelated trusted memories ("allergic to
    latex") from authorising an unrelated action. Consequential actions use a slot per
    request and call (the domain's fact model names it), so the slot itself says what is
    asked for; `value` is kept for the Cloud contract and for logs.
    """

    entity: str
    attribute: str
    value: str = "requested"

    def is_evidence(self, memory: Memory) -> bool:
        """A memory counts for this action only in its own slot, current and unflagged."""
        if memory.injection_suspect:
            return False
        if not is_current(memory):
            return False
        return (memory.entity_key, memory.attribute_key) == (self.entity, self.attribute)


@dataclass(frozen=True)
class FactToRemember:
    """One durable fact with its provenance. `source` says who vouches for it."""

    content: str
    source: EpistemicSource
    confidence: float
    action_relevant: bool = False
    entity: str | None = None
    attribute: str | None = None

    def __post_init__(self) -> None:
        if not self.content.strip():
            raise ValueError("fact content must not be empty")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError("confidence must be between 0 and 1")
        if (self.entity is None) != (self.attribute is None):
            raise ValueError("entity and attribute go together")

    def to_write(self) -> FactToRemember:
        """Already the fact to write: a gated action's `remember` may return one as the
        host's record of what it did (`kit.context.HostRecord`)."""
        return self

    def as_item(self) -> dict[str, object]:
        item: dict[str, object] = {
            "content": self.content,
            "source": self.source,
            "confidence": self.confidence,
            "action_relevant": self.action_relevant,
        }
        if self.entity is not None:
            item["entity"] = self.entity
            item["attribute"] = self.attribute
        return item


@dataclass(frozen=True)
class MemorySnapshot:
    """What the worker knows about the caller at the start of a call (or a turn)."""

    context: str
    memories: list[Memory] = field(default_factory=list)
    available: bool = True
    reason: str | None = None
    elapsed_ms: float = 0.0
    # Current facts left out because the caller is not verified (memory.snapshot).
    withheld: int = 0

    @classmethod
    def unavailable(cls, reason: str, elapsed_ms: float) -> MemorySnapshot:
        return cls(context="", memories=[], available=False, reason=reason, elapsed_ms=elapsed_ms)


def receipt_idempotency_key(decision_id: str) -> str:
    """Derived from the decision so every retry of one receipt carries the same key."""
    return f"receipt:{decision_id}"
