"""The decision/receipt ledger contract: what the engine asks of the store that keeps its
decisions, receipts and idempotent-write records, plus the value types and rules both stores
share (`stores.sqlite.ledger`, one engine process's file; `stores.postgres.ledger`, every
host's database). `tests/stores/test_ledger_contract.py` runs one suite against both.

pycontextdb decides but keeps no decision ids or receipts; the Cloud data plane does.
The ledger gives the local engines the same contract: a uuid per decision bound to the
caller's partition, and exactly one terminal receipt per decision with idempotent replay.

Every decision is closed, including one whose answer never reached the worker (the engine
killed, or timed out, between recording it and replying):

- A decision may carry the host's `request_key` (the gate sends one per evaluation): asking
  again with the same key returns the decision already recorded, not a second one, so a
  retry after a lost answer learns the decision and closes it.
- `sweep_open` closes what is still open after `older_than_s` with a receipt of its own:
  `failed`, `error_code` `decision_never_closed`, action `decision_sweeper`. Nothing was
  executed on such a decision by the sweeper, so its receipt is `aligned` whatever the
  outcome (a `failed` receipt from an action would count as a violation on a non-`act`).
- A sweeper never closes a decision that may still be running: one whose receipt is queued
  in the outbox (`receipt:<decision id>`, the intent written before a side effect
  included) is left alone, and age is never a stamp from one clock read by another (the
  SQLite sweeper counts how long it has itself seen a decision open, on a monotonic clock;
  the Postgres one stamps and reads on the database's clock alone).
  `tests/stores/test_ledger_contract.py` pins both, a sweeper process an hour ahead included.
- A receipt refused because another closed the decision (409) is not "already recorded":
  the gate parks it in the outbox with the conflict (`kit.gate`), never drops it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from contextdb_livekit.memory.errors import MemoryConflict, MemoryRejected
from contextdb_livekit.memory.models import (
    ACTION_NAME_PATTERN,
    ERROR_CODE_PATTERN,
    ActionDecision,
    ExecutionReceipt,
    ExecutionReceiptResponse,
    ReceiptStatus,
)

_TERMINAL_STATUSES = frozenset({"succeeded", "failed", "skipped"})
# What the sweeper writes on a decision nobody closed.
SWEEP_ACTION = "decision_sweeper"
SWEEP_ERROR = "decision_never_closed"


def sweep_key(decision_id: str) -> str:
    return f"sweep:{decision_id}"


@dataclass(frozen=True)
class ReceiptRequest:
    user_id: str
    decision_id: str
    action_name: str
    status: ReceiptStatus
    idempotency_key: str
    external_ref: str | None = None
    error_code: str | None = None

    def validate(self) -> None:
        if ACTION_NAME_PATTERN.fullmatch(self.action_name) is None:
            raise MemoryRejected("action_name has an invalid format", code="invalid_action_name")
        if self.status not in _TERMINAL_STATUSES:
            raise MemoryRejected("status must be succeeded, failed or skipped", code="invalid")
        if self.error_code is not None and self.status != "failed":
            raise MemoryRejected("error_code is allowed only with status failed", code="invalid")
        if self.error_code is not None and ERROR_CODE_PATTERN.fullmatch(self.error_code) is None:
            raise MemoryRejected("error_code has an invalid format", code="invalid_error_code")
        if not 8 <= len(self.idempotency_key) <= 128:
            raise MemoryRejected("idempotency key must be 8-128 characters", code="invalid")

    def payload_hash(self) -> str:
        payload = [
            self.user_id,
            self.decision_id,
            self.action_name,
            self.status,
            self.external_ref,
            self.error_code,
        ]
        return hashlib.sha256(json.dumps(payload).encode()).hexdigest()


@dataclass(frozen=True)
class WriteRecord:
    """An idempotent write's record: `new` (just created), `in_progress` or `done`."""

    state: str
    ids: list[str]


@dataclass(frozen=True)
class RecordedDecision:
    """A decision found by its request key: what the ledger keeps of it."""

    decision_id: str
    outcome: str
    memory_ids: list[str]
    pending_ids: list[str]


@dataclass(frozen=True)
class DecisionRecord:
    decision_id: str
    outcome: str
    status: str | None
    policy_alignment: str | None
    error_code: str | None
    external_ref: str | None


def policy_alignment(outcome: str, status: str) -> str:
    """Executing (succeeded or failed) anything but an `act` decision violates the policy."""
    executed = status in {"succeeded", "failed"}
    return "violated" if executed and outcome != "act" else "aligned"


def new_decision(outcome: str, memories: list, pending_ids: list[str]) -> ActionDecision:
    """A fresh decision: a uuid the receipt will be keyed by (both ledgers)."""
    return ActionDecision(
        decision_id=str(uuid.uuid4()),
        outcome=outcome,
        memories=memories,
        pending_confirmation_ids=pending_ids,
    )


def key_reused() -> MemoryConflict:
    return MemoryConflict(
        "idempotency key reused with a different payload", code="idempotency_conflict", status=409
    )


def receipt_response(
    decision_id: str, outcome: str, row: Sequence[Any]
) -> ExecutionReceiptResponse:
    """(receipt_id, action_name, status, policy_alignment, external_ref, error_code,
    created_at) → the Cloud contract's receipt response (both ledgers select that order)."""
    created_at = row[6] if isinstance(row[6], str) else row[6].isoformat()
    receipt = ExecutionReceipt(
        id=row[0],
        decision_id=decision_id,
        action_name=row[1],
        status=row[2],
        policy_alignment=row[3],
        external_ref=row[4],
        error_code=row[5],
        request_id="local",
        created_at=created_at,
    )
    return ExecutionReceiptResponse(decision_id=decision_id, outcome=outcome, receipt=receipt)


@runtime_checkable
class DecisionLedger(Protocol):
    """Decisions, their receipts and idempotent-write records. Every method raises
    `MemoryUnavailable` (code `ledger_unavailable`) when the store cannot be used."""

    async def record_decision(
        self,
        *,
        user_id: str,
        query: str,
        outcome: str,
        memories: list[Any],
        pending_ids: list[str],
        request_key: str | None = None,
    ) -> ActionDecision | RecordedDecision:
        """A new decision; or, when `request_key` was seen before for this caller, the
        decision recorded then (ids only: the engine loads its memories)."""
        ...

    async def find_request(self, user_id: str, request_key: str) -> RecordedDecision | None:
        """The decision recorded under this caller's request key, if any."""
        ...

    async def sweep_open(self, older_than_s: float, *, limit: int = 500) -> list[str]:
        """Close every decision still without a receipt `older_than_s` after it was made
        (see the module docstring); the ids closed."""
        ...

    async def report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        """The decision's one terminal receipt; the same key and payload replays it, another
        payload under the key or a second receipt is a `MemoryConflict`, a decision of
        another caller is `MemoryNotFound`."""
        ...

    async def receipt_for(
        self, user_id: str, decision_id: str
    ) -> ExecutionReceiptResponse | None: ...

    async def trail(self, user_id: str) -> list[DecisionRecord]:
        """Every decision for one caller with its receipt (if any), oldest first."""
        ...

    def write_guard(self, idempotency_key: str) -> contextlib.AbstractAsyncContextManager[None]:
        """One write per key at a time: a second send with the key waits, then finds the
        first one's record."""
        ...

    async def begin_write(
        self, idempotency_key: str, payload_hash: str, user_id: str
    ) -> WriteRecord:
        """The key's record, created `in_progress` when new (then `WriteRecord("new")`).
        Call under `write_guard`. `done`: replay the ids; `in_progress`: an earlier attempt
        stopped part-way. Another payload under the key is a conflict in either state."""
        ...

    async def complete_write(self, idempotency_key: str, ids: list[str]) -> None: ...

    async def write_state(self, idempotency_key: str) -> str | None:
        """`in_progress`, `done`, or None; for operators and tests."""
        ...

    def close(self) -> None: ...
