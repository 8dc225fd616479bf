"""The attestation store: the host's evidence of a caller's spoken yes.

ContextDB's `confirm` records that a memory was confirmed; the host keeps the evidence: who
said yes, to which memories, when, on which channel, and the question and answer turns.

What every implementation (stores.sqlite.attestations, stores.postgres.attestations)
promises:

- `record(...)` keeps one `Attestation` built by `new_attestation` and returns it; once it
  returns, `for_customer` on any handle to the same store (another job process, another
  host on the shared database) reads it back equal, field for field.
- The texts kept are evidence, not a transcript: whitespace folded, control characters
  (NUL included) dropped, secrets redacted, at most `MAX_TURN_CHARS` characters. Ids are
  kept as given.
- `for_customer(customer_id)` returns that customer's attestations only, oldest first.
- A store that cannot keep or read the evidence raises `MemoryUnavailable` (code
  `attestations_unavailable`), so a confirmation fails closed: nothing is confirmed.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NotRequired, Protocol, TypedDict, Unpack

from contextdb_livekit.memory.secrets import redact_bounded

MAX_TURN_CHARS = 500
UNAVAILABLE_CODE = "attestations_unavailable"
# C0 and C1 controls and DEL: never evidence, and Postgres text cannot hold NUL at all.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Attestation:
    attestation_id: str
    customer_id: str
    actor_id: str
    channel: str
    room_name: str
    memory_ids: tuple[str, ...]
    turn_id: str
    turn_text: str
    attested_at: str
    question_turn_id: str = ""
    question_text: str = ""


class AttestationFields(TypedDict):
    """What the kit knows when a caller says yes; the store adds the id and the time."""

    customer_id: str
    actor_id: str
    channel: str
    room_name: str
    memory_ids: Sequence[str]
    turn_id: str
    turn_text: str
    question_turn_id: NotRequired[str]
    question_text: NotRequired[str]


def evidence_text(text: str) -> str:
    """Caller or host words as kept: controls become spaces, whitespace is folded, secrets
    are redacted, and at most `MAX_TURN_CHARS` characters remain."""
    return redact_bounded(_CONTROL.sub(" ", text), MAX_TURN_CHARS)


def new_attestation(**fields: Unpack[AttestationFields]) -> Attestation:
    """The record to keep: ids as given, spoken text as `evidence_text` keeps it."""
    return Attestation(
        attestation_id=f"att_{uuid.uuid4().hex}",
        customer_id=fields["customer_id"],
        actor_id=fields["actor_id"],
        channel=fields["channel"],
        room_name=fields["room_name"],
        memory_ids=tuple(fields["memory_ids"]),
        turn_id=fields["turn_id"],
        turn_text=evidence_text(fields["turn_text"]),
        attested_at=datetime.now(UTC).isoformat(),
        question_turn_id=fields.get("question_turn_id", ""),
        question_text=evidence_text(fields.get("question_text", "")),
    )


class AttestationStore(Protocol):
    async def record(self, **fields: Unpack[AttestationFields]) -> Attestation:
        """Keep one attestation (`new_attestation` of `fields`) and return it."""
        ...

    async def for_customer(self, customer_id: str) -> list[Attestation]:
        """Every attestation kept for `customer_id`, oldest first."""
        ...
