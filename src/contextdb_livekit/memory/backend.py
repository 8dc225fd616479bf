"""The one surface the worker needs from ContextDB, whichever backend serves it."""

from __future__ import annotations

from typing import Protocol

from contextdb_livekit.memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    FactToRemember,
    Memory,
    RecallResult,
    ReceiptStatus,
)


class MemoryBackend(Protocol):
    """Implemented by `CloudMemory` (ContextDB Cloud) and `LocalEngine` (in-process,
    used by tests) and `connect_local_engine` (the same `CloudMemory` over the engine process).

    Every method is scoped to one user partition; errors are `memory.errors` types.
    """

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult: ...

    async def evaluate_action(
        self,
        user_id: str,
        query: str,
        *,
        slot: ActionSlot,
        top_k: int = 5,
        request_key: str | None = None,
    ) -> ActionDecision: ...

    async def report_execution(
        self,
        user_id: str,
        decision_id: str,
        action_name: str,
        status: ReceiptStatus,
        *,
        idempotency_key: str,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> ExecutionReceiptResponse: ...

    async def pending_confirmations(self, user_id: str) -> list[Memory]: ...

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory: ...

    async def forget(self, user_id: str, memory_id: str) -> int: ...

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]: ...

    async def close(self) -> None: ...
