"""The outbox contract: what the gate, the caller's memory, the flusher, the spill, the drain
and the command line ask of a durable outbox, whichever store keeps its rows.

Two stores implement it, side by side: `stores.sqlite.outbox.SqliteOutbox` (one host's file)
and `stores.postgres.outbox.PostgresOutbox` (one table every host shares). The rules they
share and that depend on no store (backoff, when a failed row parks, the configuration
fingerprint) are `stores.outbox_policy`'s. `tests/stores/test_outbox_contract.py` runs one suite
against both.

A row is leased from the moment it is written: the owner about to send it holds it
(`put(..., hold=True)`); a flusher claims due rows (`claim_due`) and renews a row's lease
(`renew`) right before sending it. An `intent` row stands for a side effect whose outcome is
not known yet; a flusher resolves it (`resolve_intent`) before sending it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from contextdb_livekit.memory.errors import Failure

OutboxKind = Literal["receipt", "remember_many"]
OutboxState = Literal["intent", "pending", "needs_config", "dead"]
PARKED_STATES: tuple[OutboxState, ...] = ("needs_config", "dead")
# Called with the intent's payload plus its "idempotency_key"; returns the receipt fields
# ({"status": ..., "external_ref"/"error_code": ...}). May raise: the row is retried.
IntentResolver = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class OutboxItem:
    idempotency_key: str
    kind: OutboxKind
    user_id: str
    payload: dict[str, Any]
    state: str
    attempts: int
    created_at: float
    last_error: str | None
    version: int = 1
    next_attempt_at: float = 0.0
    lease_until: float = 0.0
    # The lease holder's token: an owner's, or one flusher claim's.
    lease_owner: str | None = None


# The column order both stores select rows in (`item_from_row`).
ITEM_COLUMNS = (
    "idempotency_key",
    "kind",
    "user_id",
    "payload",
    "state",
    "attempts",
    "created_at",
    "last_error",
    "version",
    "next_attempt_at",
    "lease_until",
    "lease_owner",
)


def item_from_row(row: Sequence[Any]) -> OutboxItem:
    """One row in `ITEM_COLUMNS` order, its payload as JSON text."""
    try:
        payload = json.loads(row[3])
    except ValueError:
        payload = {"unreadable_payload": str(row[3])[:200]}
    return OutboxItem(row[0], row[1], row[2], payload, row[4], row[5], row[6], row[7], *row[8:12])


def resolved_item(intent: OutboxItem, payload: dict[str, Any]) -> OutboxItem:
    """A claimed intent after `resolve_intent`: sendable, one version on, same claim."""
    return dataclasses.replace(intent, payload=payload, state="pending", version=intent.version + 1)


@runtime_checkable
class Outbox(Protocol):
    """A durable outbox. Every method raises `OutboxUnavailable` when the store cannot be
    used (an unwritable file, a database that does not answer), and nothing else."""

    # This owner's lease token: rows it holds (`put(hold=True)`) carry it.
    owner: str
    # Identifies the configured backend and key; rows parked `needs_config` under another
    # one are re-driven (`redrive_config`).
    config_fingerprint: str | None

    async def check(self) -> None:
        """Open the store now; `OutboxUnavailable` if it cannot be used."""
        ...

    # -- writes by a row's owner -----------------------------------------------------------

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        """Before a side effect: an intent leased to this owner for the intent grace."""
        ...

    async def put(
        self,
        key: str,
        kind: OutboxKind,
        user_id: str,
        payload: dict[str, Any],
        *,
        hold: bool = True,
    ) -> bool:
        """Make a row sendable (replacing an intent's or an earlier payload).

        `hold=True`: this owner is about to send it and holds its lease; follow with
        `mark_done` or `settle`. `hold=False`: due now for any flusher. True when this owner
        holds the row and should send it; False when another sender holds a live lease on
        it, or the row is parked.
        """
        ...

    async def mark_done(self, key: str, *, version: int | None = None) -> None:
        """Delivered. With `version`, only that payload: a newer one written meanwhile stays
        and is released to go out next."""
        ...

    async def settle(
        self, key: str, error: BaseException | Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        """One delivery failed: retry later or park, by the error's class
        (`stores.outbox_policy.OutboxPolicy`). The new state; None when the row is gone."""
        ...

    async def mark_dead(self, key: str, error: str) -> None:
        """Park as `dead`, kept with its reason: a permanent rejection needs a human."""
        ...

    # -- flusher side ----------------------------------------------------------------------

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        """Lease due rows under one claim token, oldest first."""
        ...

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        """Extend this claim's lease on one row; False when it was lost (another sender has
        it, or it was delivered or rewritten meanwhile): then do not send it."""
        ...

    async def resolve_intent(self, item: OutboxItem, payload: dict[str, Any]) -> OutboxItem | None:
        """Turn a claimed intent into a sendable row under the same claim; None if stale."""
        ...

    async def finish_claim(self, item: OutboxItem) -> None:
        """A claimed row was delivered."""
        ...

    async def settle_claim(
        self, item: OutboxItem, failure: Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        """A claimed row's delivery failed."""
        ...

    async def redrive_config(self, fingerprint: str | None = None) -> int:
        """Rows parked for configuration under another key become due now; how many."""
        ...

    async def redrive(self, keys: Sequence[str] | None = None) -> int:
        """Parked rows (all, or these keys) become due now with a fresh attempt count; an
        intent that was parked goes back to being an intent. How many."""
        ...

    # -- reads -----------------------------------------------------------------------------

    async def items(self, *, states: Sequence[str] | None = None) -> list[OutboxItem]:
        """Rows (all, or in these states), oldest first."""
        ...

    async def parked(self) -> list[OutboxItem]:
        """Rows parked as `needs_config` or `dead`, with their reasons."""
        ...

    async def has_due(self) -> bool:
        """Whether a flusher would find something to do now."""
        ...
