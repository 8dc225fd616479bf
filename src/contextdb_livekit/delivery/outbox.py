"""Durable outbox: receipts and fact writes that could not reach ContextDB yet.

Rows live in a local SQLite file shared by the worker's job processes. A row is written
before the network call it stands for may be lost; it is deleted only after the backend
accepted it. Idempotency keys travel with each row, so a replay after a crash is
exactly-once in effect.

Every row is leased from the moment it is written: the owner that is about to send it
directly holds it (`put(..., hold=True)`), so no flusher can send it at the same time; a
flusher renews a row's lease right before sending it and sends only inside that lease.

An `intent` row is written before a side effect (a calendar booking) and upgraded to a
sendable row once the outcome is known. If the process dies in between, the flusher later
resolves the intent through a per-action resolver that asks the host system what happened
(by the attempt's own idempotency key, see `contextdb_livekit.kit.actions.GatedAction.resolve`).

The flusher is `delivery.flusher.OutboxFlusher`; the command line is `delivery.outbox_cli`.

Failures are classified by what to do (`memory.errors.classify_failure`): retry later with
backoff (or the backend's Retry-After when the error carries one), park as `needs_config`
until the configured key changes (401/403), or park as `dead` (422, 404, 409, or after
`max_attempts`). Parked rows keep their reason;
`python -m contextdb_livekit.delivery.outbox` lists and re-drives them.

Times are this host's clock. Every write that sets a deadline (a lease, a next attempt) also
stamps the row with the time it was written (`stamped_at`); a reader that finds a stamp in its
future knows the clock went back, and re-bases the row's deadlines on its own clock, keeping
only the wait that was left. A jump back by minutes therefore delays a row by at most the
wait it already had (a lease, a backoff), never by the size of the jump. (The shared Postgres
outbox uses the database's clock instead, `contextdb_livekit.stores.postgres.outbox`.)

A damaged outbox file (garbage bytes, a deleted file) is moved aside with a log line and
recreated; a file that cannot be written at all raises `OutboxUnavailable`, so callers
deliver directly instead.

    python -m contextdb_livekit.delivery.outbox list | parked | redrive KEY... | redrive --all
        [--path FILE]
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import os
import random
import sqlite3
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from contextdb_livekit.memory.errors import Failure, OutboxUnavailable, classify_failure
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.private_files import private_dir
from contextdb_livekit.stores.sqlite.connection import (
    damage_of,
    file_repair_lock,
    immediate_transaction,
    is_damaged,
    is_missing_schema,
    is_unwritable,
    quarantine,
    shared_sqlite,
)

log = logging.getLogger("contextdb_livekit.delivery.outbox")

OutboxKind = Literal["receipt", "remember_many"]
OutboxState = Literal["intent", "pending", "needs_config", "dead"]
# Called with the intent's payload plus its "idempotency_key"; returns the receipt fields
# ({"status": ..., "external_ref"/"error_code": ...}). May raise: the row is retried.
IntentResolver = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

PARKED_STATES: tuple[OutboxState, ...] = ("needs_config", "dead")
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    idempotency_key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL,
    lease_until REAL NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    last_error TEXT,
    lease_owner TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    config_fingerprint TEXT,
    parked_from TEXT,
    stamped_at REAL
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(state, next_attempt_at);
"""
# Columns added after the first release; older files get them on open.
_ADDED_COLUMNS = {
    "lease_owner": "TEXT",
    "version": "INTEGER NOT NULL DEFAULT 1",
    "config_fingerprint": "TEXT",
    "parked_from": "TEXT",
    "stamped_at": "REAL",
}
_COLUMNS = (
    "idempotency_key, kind, user_id, payload, state, attempts, created_at, last_error,"
    " version, next_attempt_at, lease_until, lease_owner"
)
_DUE = "state IN ('pending', 'intent') AND lease_until <= :now AND next_attempt_at <= :now"
# What a spill hands over to the shared outbox: any row nobody holds, parked ones included.
_MOVABLE = (
    "(state IN ('pending', 'intent') AND lease_until <= :now) OR state IN ('needs_config', 'dead')"
)
# A clock is trusted to this much disagreement between two processes' reads before a row
# stamped in the future counts as written before a jump back.
_CLOCK_SLACK_S = 1.0
# Rows written "in the future" (the clock went back since): deadlines re-based on now.
_REBASE = (
    "UPDATE outbox SET next_attempt_at = :now + MAX(0, next_attempt_at - stamped_at),"
    " lease_until = CASE WHEN lease_until > 0 THEN :now + MAX(0, lease_until - stamped_at)"
    " ELSE 0 END, stamped_at = :now WHERE stamped_at > :now + :slack"
)


def rebase_after_clock_jump(conn: sqlite3.Connection, now: float) -> int:
    """Call inside the transaction that reads due rows; returns how many were re-based."""
    count = conn.execute(_REBASE, {"now": now, "slack": _CLOCK_SLACK_S}).rowcount
    if count:
        log.warning("outbox: clock went back; %d row(s) re-based on the current clock", count)
    return count


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


def item_from_row(row: Sequence[Any]) -> OutboxItem:
    """One row in `_COLUMNS` order (both stores select that order; payload as JSON text)."""
    try:
        payload = json.loads(row[3])
    except ValueError:
        payload = {"unreadable_payload": str(row[3])[:200]}
    return OutboxItem(row[0], row[1], row[2], payload, row[4], row[5], row[6], row[7], *row[8:12])


def resolved_item(intent: OutboxItem, payload: dict[str, Any]) -> OutboxItem:
    """A claimed intent after `resolve_intent`: sendable, one version on, same claim."""
    return dataclasses.replace(intent, payload=payload, state="pending", version=intent.version + 1)


def config_fingerprint(settings: MemorySettings) -> str:
    """Identifies the configured backend and key without revealing the key: rows parked as
    `needs_config` under one fingerprint are re-driven once it changes."""
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    material = f"{settings.backend_name}|{settings.base_url}|{key}|{settings.local_path}"
    return hashlib.sha256(material.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Backoff:
    base_s: float = 1.0
    max_s: float = 300.0

    def delay(self, attempts: int, retry_after_s: float | None = None) -> float:
        if retry_after_s is not None and retry_after_s >= 0:
            # The backend said when; capped so a bogus hint cannot park a row for a day.
            return min(retry_after_s, self.max_s * 4)
        delay = min(self.max_s, self.base_s * 2 ** min(attempts, 30))
        return delay * random.uniform(0.5, 1.0)


class Outbox:
    """SQLite outbox shared by the job processes of one host.

    Constructing one does no I/O; the file is opened (checked, repaired, migrated) on first
    use in a worker thread. Every method raises `OutboxUnavailable` when the file cannot be
    written, and nothing else from SQLite.
    """

    def __init__(
        self,
        path: Path,
        *,
        intent_grace_s: float = 120.0,
        owner_lease_s: float = 30.0,
        max_attempts: int = 20,
        config_fingerprint: str | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self.path = Path(path)
        # An intent younger than this belongs to a live call that is still booking.
        self._intent_grace_s = intent_grace_s
        # How long a direct sender holds its row; far above the gate/shutdown budgets.
        self.owner_lease_s = owner_lease_s
        self.max_attempts = max_attempts
        self.config_fingerprint = config_fingerprint
        self.backoff = backoff or Backoff()
        self.owner = f"owner:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._ready = False

    @classmethod
    def for_settings(cls, settings: MemorySettings, **kwargs: Any) -> Outbox:
        return cls(settings.outbox_path, config_fingerprint=config_fingerprint(settings), **kwargs)

    # -- file handling -------------------------------------------------------------------

    def _open(self) -> None:
        """First use: check the file, move it aside if damaged, create/migrate the schema."""
        private_dir(self.path.parent)
        with file_repair_lock(self.path):
            problem = damage_of(self.path)
            if problem is not None:
                quarantine(self.path, problem, label="outbox")
            with shared_sqlite(self.path) as conn:
                self._create_schema(conn)
        self._ready = True

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        conn.executescript(_SCHEMA)
        present = {row[1] for row in conn.execute("PRAGMA table_info(outbox)")}
        for column, ddl in _ADDED_COLUMNS.items():
            if column not in present:
                conn.execute(f"ALTER TABLE outbox ADD COLUMN {column} {ddl}")
        if "version" not in present:
            # Old intents were claimable after created_at + grace; keep that as their lease.
            conn.execute(
                "UPDATE outbox SET lease_until = MAX(lease_until, created_at + ?)"
                " WHERE state = 'intent'",
                (self._intent_grace_s,),
            )

    def _repair(self, exc: sqlite3.Error) -> None:
        """Called after a use failed with damage or a missing table; another process may
        already have repaired the file, so look again under the lock before moving it."""
        with file_repair_lock(self.path):
            problem = damage_of(self.path)
            if problem is not None:
                quarantine(self.path, problem, label="outbox")
            elif is_missing_schema(exc):
                log.error(
                    "outbox file %s had no outbox table (deleted while in use?); recreated it",
                    self.path,
                )
            with shared_sqlite(self.path) as conn:
                self._create_schema(conn)

    def _execute(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        for attempt in (1, 2):
            try:
                if not self._ready:
                    self._open()
                with shared_sqlite(self.path) as conn:
                    return work(conn)
            except (sqlite3.Error, OSError) as exc:
                if attempt == 1 and (is_damaged(exc) or is_missing_schema(exc)):
                    try:
                        self._repair(exc)  # type: ignore[arg-type]
                    except (sqlite3.Error, OSError) as repair_exc:
                        raise OutboxUnavailable(self.path, str(repair_exc)) from repair_exc
                    continue
                if is_unwritable(exc):
                    raise OutboxUnavailable(self.path, str(exc)) from exc
                raise OutboxUnavailable(self.path, f"{type(exc).__name__}: {exc}") from exc
        raise AssertionError("unreachable")

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        return await asyncio.to_thread(self._execute, work)

    async def _sql(self, sql: str, params: tuple[Any, ...]) -> int:
        return await self._run(lambda conn: conn.execute(sql, params).rowcount)

    async def check(self) -> None:
        """Open the file now (checks, repairs, migrates); `OutboxUnavailable` if it can't be."""
        await self._run(lambda conn: conn.execute("SELECT 1 FROM outbox LIMIT 1").fetchall())

    # -- writes by a row's owner -----------------------------------------------------------

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        """Before a side effect: leased to this owner for the intent grace period."""
        now = time.time()
        await self._sql(
            "INSERT OR IGNORE INTO outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at, stamped_at)"
            " VALUES (?, ?, ?, ?, 'intent', ?, ?, ?, ?, ?)",
            (key, kind, user_id, json.dumps(payload), now, now + self._intent_grace_s,
             self.owner, now, now),
        )  # fmt: skip

    async def put(
        self,
        key: str,
        kind: OutboxKind,
        user_id: str,
        payload: dict[str, Any],
        *,
        hold: bool = True,
    ) -> bool:
        """Make a row sendable (replacing an intent's or earlier provisional payload).

        `hold=True` (the default): this owner is about to send it directly and holds its
        lease for `owner_lease_s`; follow with `mark_done` or `settle`. `hold=False`: due
        now for any flusher. Returns True when this owner holds the row and should send it;
        False when another sender holds a live lease on it (it will be delivered by them and
        then, if the payload changed, again) or the row is parked.
        """
        now = time.time()
        lease_until = now + self.owner_lease_s if hold else 0.0
        owner = self.owner if hold else None

        def upsert(conn: sqlite3.Connection) -> bool:
            with immediate_transaction(conn):
                conn.execute(
                    "INSERT INTO outbox (idempotency_key, kind, user_id, payload, state,"
                    " next_attempt_at, lease_until, lease_owner, created_at, stamped_at)"
                    " VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)"
                    " ON CONFLICT(idempotency_key) DO UPDATE SET"
                    "  payload = excluded.payload, state = 'pending',"
                    "  next_attempt_at = excluded.next_attempt_at,"
                    "  stamped_at = excluded.stamped_at,"
                    "  version = outbox.version + 1,"
                    # Never steal a live lease from another sender: it is sending right now.
                    "  lease_owner = CASE WHEN outbox.lease_until > ?"
                    "   AND outbox.lease_owner IS NOT ? THEN outbox.lease_owner"
                    "   ELSE excluded.lease_owner END,"
                    "  lease_until = CASE WHEN outbox.lease_until > ?"
                    "   AND outbox.lease_owner IS NOT ? THEN outbox.lease_until"
                    "   ELSE excluded.lease_until END"
                    " WHERE outbox.state IN ('intent', 'pending')",
                    (key, kind, user_id, json.dumps(payload), now, lease_until, owner, now,
                     now, now, self.owner, now, self.owner),
                )  # fmt: skip
                row = conn.execute(
                    "SELECT state, lease_owner FROM outbox WHERE idempotency_key = ?", (key,)
                ).fetchone()
            return hold and row == ("pending", self.owner)

        return await self._run(upsert)

    async def mark_done(self, key: str, *, version: int | None = None) -> None:
        """Delivered. With `version`, only that payload: a newer one written meanwhile stays."""
        if version is None:
            await self._sql("DELETE FROM outbox WHERE idempotency_key = ?", (key,))
            return
        deleted = await self._sql(
            "DELETE FROM outbox WHERE idempotency_key = ? AND version = ?", (key, version)
        )
        if not deleted:
            # Rewritten while in flight: release it so the newer payload goes out next.
            await self._sql(
                "UPDATE outbox SET lease_until = 0, lease_owner = NULL, next_attempt_at = ?,"
                " stamped_at = ? WHERE idempotency_key = ?",
                (now := time.time(), now, key),
            )

    async def settle(
        self,
        key: str,
        error: BaseException | Failure,
        *,
        delay_s: float | None = None,
    ) -> OutboxState | None:
        """One delivery failed: retry later, park `needs_config`, or park `dead` — by the
        error's class, and `dead` once `max_attempts` is reached. Returns the new state
        (None when the row is gone: delivered by another sender meanwhile)."""
        failure = error if isinstance(error, Failure) else classify_failure(error)

        def apply(conn: sqlite3.Connection) -> OutboxState | None:
            with immediate_transaction(conn):
                row = conn.execute(
                    "SELECT attempts, state FROM outbox WHERE idempotency_key = ?", (key,)
                ).fetchone()
                if row is None:
                    return None
                attempts = row[0] + 1
                state, reason, wait = self._settlement(failure, attempts, row[1], delay_s)
                now = time.time()
                conn.execute(
                    "UPDATE outbox SET attempts = ?, state = ?, last_error = ?,"
                    " next_attempt_at = ?, lease_until = 0, lease_owner = NULL,"
                    " config_fingerprint = ?, parked_from = ?, stamped_at = ?"
                    " WHERE idempotency_key = ?",
                    (attempts, state, reason[:500], now + wait, self.config_fingerprint,
                     row[1] if state in PARKED_STATES else None, now, key),
                )  # fmt: skip
            if state in PARKED_STATES:
                log.error("outbox row %s parked as %s: %s", key, state, reason)
            return state

        return await self._run(apply)

    def _settlement(
        self, failure: Failure, attempts: int, current: str, delay_s: float | None
    ) -> tuple[OutboxState, str, float]:
        """A failed row's next state, its recorded reason and the wait before the next try
        (shared by both stores: the policy does not depend on where rows live)."""
        state = self._next_state(failure, attempts, current)
        reason = failure.reason
        if failure.disposition == "retry" and state == "dead":
            reason = f"gave up after {attempts} attempts: {reason}"
        wait = delay_s if delay_s is not None else self.backoff.delay(
            attempts - 1, failure.retry_after_s
        )  # fmt: skip
        return state, reason, wait

    def _next_state(self, failure: Failure, attempts: int, current: str) -> OutboxState:
        if failure.disposition == "needs_config":
            return "needs_config"
        if failure.disposition == "dead" or attempts >= self.max_attempts:
            return "dead"
        return "intent" if current == "intent" else "pending"

    async def mark_dead(self, key: str, error: str) -> None:
        """Kept, not deleted: a permanent rejection needs a human, not silence."""
        await self._sql(
            "UPDATE outbox SET parked_from = CASE WHEN state IN ('intent', 'pending')"
            " THEN state ELSE parked_from END, state = 'dead', last_error = ?,"
            " lease_until = 0, lease_owner = NULL WHERE idempotency_key = ?",
            (error[:500], key),
        )

    async def reschedule(self, key: str, delay_s: float, error: str) -> None:
        await self._sql(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, lease_until = 0,"
            " lease_owner = NULL, last_error = ?, stamped_at = ? WHERE idempotency_key = ?",
            ((now := time.time()) + delay_s, error[:500], now, key),
        )

    # -- flusher side ----------------------------------------------------------------------

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        """Lease due rows under one claim token; renew each (`renew`) right before sending."""
        return await self._claim(_DUE, limit, lease_s)

    async def claim_movable(self, *, limit: int = 100, lease_s: float = 30.0) -> list[OutboxItem]:
        """Lease every row nobody holds, due or not, parked or not (a spill handing its rows
        to the shared outbox, `delivery.spill`); `mark_done(key, version=...)` each once moved."""
        return await self._claim(_MOVABLE, limit, lease_s)

    async def _claim(self, where: str, limit: int, lease_s: float) -> list[OutboxItem]:
        token = f"claim:{os.getpid()}:{uuid.uuid4().hex[:12]}"

        def claim(conn: sqlite3.Connection) -> list[OutboxItem]:
            with immediate_transaction(conn):
                now = time.time()
                rebase_after_clock_jump(conn, now)
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM outbox WHERE {where} ORDER BY created_at LIMIT :limit",
                    {"now": now, "limit": limit},
                ).fetchall()
                conn.executemany(
                    "UPDATE outbox SET lease_until = ?, lease_owner = ?, stamped_at = ?"
                    " WHERE idempotency_key = ?",
                    [(now + lease_s, token, now, row[0]) for row in rows],
                )
            return [item_from_row((*row[:10], now + lease_s, token)) for row in rows]

        return await self._run(claim)

    async def release(self, item: OutboxItem) -> None:
        """Give back a claimed row untouched (a move that stopped part-way)."""
        await self._sql(
            "UPDATE outbox SET lease_until = 0, lease_owner = NULL"
            " WHERE idempotency_key = ? AND lease_owner = ?",
            (item.idempotency_key, item.lease_owner),
        )

    async def finish_claim(self, item: OutboxItem) -> None:
        """A claimed row was delivered (the flusher's `mark_done`)."""
        await self.mark_done(item.idempotency_key, version=item.version)

    async def settle_claim(
        self, item: OutboxItem, failure: Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        """A claimed row's delivery failed (the flusher's `settle`)."""
        return await self.settle(item.idempotency_key, failure, delay_s=delay_s)

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        """Extend this claim's lease on one row; False when it was lost (another sender has
        it now, or it was delivered or changed meanwhile) — then do not send it."""
        renewed = await self._sql(
            "UPDATE outbox SET lease_until = ?, stamped_at = ? WHERE idempotency_key = ?"
            " AND lease_owner = ? AND version = ? AND state IN ('pending', 'intent')",
            (
                (now := time.time()) + lease_s,
                now,
                item.idempotency_key,
                item.lease_owner,
                item.version,
            ),
        )
        return renewed == 1

    async def resolve_intent(self, item: OutboxItem, payload: dict[str, Any]) -> OutboxItem | None:
        """Turn a claimed intent into a sendable row, still under the same claim."""

        def upgrade(conn: sqlite3.Connection) -> int:
            return conn.execute(
                "UPDATE outbox SET payload = ?, state = 'pending', version = version + 1"
                " WHERE idempotency_key = ? AND lease_owner = ? AND state = 'intent'"
                " AND version = ?",
                (json.dumps(payload), item.idempotency_key, item.lease_owner, item.version),
            ).rowcount

        if await self._run(upgrade) != 1:
            return None
        return resolved_item(item, payload)

    async def redrive_config(self, fingerprint: str | None = None) -> int:
        """Rows parked for configuration under another key become due now."""
        current = fingerprint if fingerprint is not None else self.config_fingerprint
        if current is None:
            return 0
        count = await self._sql(
            "UPDATE outbox SET state = COALESCE(parked_from, 'pending'), attempts = 0,"
            " next_attempt_at = ?, stamped_at = ?,"
            " last_error = 'redriven after a configuration change: ' || COALESCE(last_error, '')"
            " WHERE state = 'needs_config' AND config_fingerprint IS NOT ?",
            (now := time.time(), now, current),
        )
        if count:
            log.info("outbox: %d rows parked for configuration re-driven (key changed)", count)
        return count

    async def redrive(self, keys: Sequence[str] | None = None) -> int:
        """Parked rows (all, or these keys) become due now with a fresh attempt count.
        An intent that was parked goes back to being an intent: it is resolved again."""
        now = time.time()
        base = (
            "UPDATE outbox SET state = COALESCE(parked_from, 'pending'), attempts = 0,"
            " next_attempt_at = ?, stamped_at = ?, lease_until = 0, lease_owner = NULL"
            " WHERE state IN ('needs_config', 'dead')"
        )
        if keys is None:
            return await self._sql(base, (now, now))

        def each(conn: sqlite3.Connection) -> int:
            return sum(
                conn.execute(base + " AND idempotency_key = ?", (now, now, key)).rowcount
                for key in keys
            )

        return await self._run(each)

    # -- reads -----------------------------------------------------------------------------

    async def items(self, *, states: Sequence[str] | None = None) -> list[OutboxItem]:
        def load(conn: sqlite3.Connection) -> list[OutboxItem]:
            sql = f"SELECT {_COLUMNS} FROM outbox"
            params: tuple[Any, ...] = ()
            if states is not None:
                sql += f" WHERE state IN ({', '.join('?' for _ in states)})"
                params = tuple(states)
            return [
                item_from_row(row) for row in conn.execute(sql + " ORDER BY created_at", params)
            ]

        return await self._run(load)

    async def parked(self) -> list[OutboxItem]:
        return await self.items(states=PARKED_STATES)

    async def has_due(self) -> bool:
        return await self._exists(_DUE)

    async def has_movable(self) -> bool:
        return await self._exists(_MOVABLE)

    async def _exists(self, where: str) -> bool:
        def found(conn: sqlite3.Connection) -> bool:
            with immediate_transaction(conn):
                now = time.time()
                rebase_after_clock_jump(conn, now)
                row = conn.execute(f"SELECT 1 FROM outbox WHERE {where} LIMIT 1", {"now": now})
                return row.fetchone() is not None

        return await self._run(found)


def __getattr__(name: str) -> Any:
    # The flusher lives in contextdb_livekit.delivery.flusher; older imports from here keep working.
    if name in ("OutboxFlusher", "deliver"):
        from contextdb_livekit.delivery import flusher

        return getattr(flusher, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    from contextdb_livekit.delivery.outbox_cli import main

    sys.exit(main())
