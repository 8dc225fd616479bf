"""The outbox in one host's SQLite file, shared by the worker's job processes
(the `stores.outbox.Outbox` contract; the shared Postgres one is `stores.postgres.outbox`).

Times are this host's clock. Every write that sets a deadline (a lease, a next attempt) also
stamps the row with the time it was written (`stamped_at`); a reader that finds a stamp in its
future knows the clock went back, and re-bases the row's deadlines on its own clock, keeping
only the wait that was left. A jump back by minutes therefore delays a row by at most the
wait it already had (a lease, a backoff), never by the size of the jump.

A damaged outbox file (garbage bytes, a deleted file) is moved aside with a log line and
recreated; a file that cannot be written at all raises `OutboxUnavailable`, so callers
deliver directly instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, Unpack

from contextdb_livekit.memory.errors import Failure, OutboxUnavailable, classify_failure
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import (
    ITEM_COLUMNS,
    PARKED_STATES,
    OutboxItem,
    OutboxKind,
    OutboxState,
    item_from_row,
    resolved_item,
)
from contextdb_livekit.stores.outbox_policy import (
    OutboxPolicy,
    PolicyOptions,
    claim_token,
    config_fingerprint,
    owner_token,
)
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
_COLUMNS = ", ".join(ITEM_COLUMNS)
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


class SqliteOutbox:
    """The outbox in a SQLite file shared by the job processes of one host.

    Constructing one does no I/O; the file is opened (checked, repaired, created) on first
    use in a worker thread. Every method raises `OutboxUnavailable` when the file cannot be
    written, and nothing else from SQLite.
    """

    def __init__(self, path: Path, **policy: Unpack[PolicyOptions]) -> None:
        self.path = Path(path)
        self.policy = OutboxPolicy(**policy)
        self.config_fingerprint = self.policy.config_fingerprint
        self.owner = owner_token()
        self._ready = False

    @classmethod
    def for_settings(
        cls, settings: MemorySettings, **policy: Unpack[PolicyOptions]
    ) -> SqliteOutbox:
        policy.setdefault("config_fingerprint", config_fingerprint(settings))
        return cls(settings.outbox_path, **policy)

    # -- file handling -------------------------------------------------------------------

    def _open(self) -> None:
        """First use: check the file, move it aside if damaged, create the schema."""
        private_dir(self.path.parent)
        with file_repair_lock(self.path):
            problem = damage_of(self.path)
            if problem is not None:
                quarantine(self.path, problem, label="outbox")
            with shared_sqlite(self.path) as conn:
                conn.executescript(_SCHEMA)
        self._ready = True

    def _repair(self, exc: sqlite3.Error | OSError) -> None:
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
                conn.executescript(_SCHEMA)

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
                        self._repair(exc)
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
        """Open the file now (checks, repairs); `OutboxUnavailable` if it can't be."""
        await self._run(lambda conn: conn.execute("SELECT 1 FROM outbox LIMIT 1").fetchall())

    # -- writes by a row's owner -----------------------------------------------------------

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        now = time.time()
        await self._sql(
            "INSERT OR IGNORE INTO outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at, stamped_at)"
            " VALUES (?, ?, ?, ?, 'intent', ?, ?, ?, ?, ?)",
            (key, kind, user_id, json.dumps(payload), now, now + self.policy.intent_grace_s,
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
        now = time.time()
        lease_until = now + self.policy.owner_lease_s if hold else 0.0
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
        failure = error if isinstance(error, Failure) else classify_failure(error)

        def apply(conn: sqlite3.Connection) -> OutboxState | None:
            with immediate_transaction(conn):
                row = conn.execute(
                    "SELECT attempts, state FROM outbox WHERE idempotency_key = ?", (key,)
                ).fetchone()
                if row is None:
                    return None
                attempts = row[0] + 1
                outcome = self.policy.settle(failure, attempts, row[1], delay_s)
                now = time.time()
                conn.execute(
                    "UPDATE outbox SET attempts = ?, state = ?, last_error = ?,"
                    " next_attempt_at = ?, lease_until = 0, lease_owner = NULL,"
                    " config_fingerprint = ?, parked_from = ?, stamped_at = ?"
                    " WHERE idempotency_key = ?",
                    (attempts, outcome.state, outcome.reason, now + outcome.wait_s,
                     self.config_fingerprint, outcome.parked_from, now, key),
                )  # fmt: skip
            if outcome.state in PARKED_STATES:
                log.error("outbox row %s parked as %s: %s", key, outcome.state, outcome.reason)
            return outcome.state

        return await self._run(apply)

    async def mark_dead(self, key: str, error: str) -> None:
        await self._sql(
            "UPDATE outbox SET parked_from = CASE WHEN state IN ('intent', 'pending')"
            " THEN state ELSE parked_from END, state = 'dead', last_error = ?,"
            " lease_until = 0, lease_owner = NULL WHERE idempotency_key = ?",
            (error[:500], key),
        )

    # -- flusher side ----------------------------------------------------------------------

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        return await self._claim(_DUE, limit, lease_s)

    async def claim_movable(self, *, limit: int = 100, lease_s: float = 30.0) -> list[OutboxItem]:
        """Lease every row nobody holds, due or not, parked or not (a spill handing its rows
        to the shared outbox, `delivery.spill`); `mark_done(key, version=...)` each once moved."""
        return await self._claim(_MOVABLE, limit, lease_s)

    async def _claim(self, where: str, limit: int, lease_s: float) -> list[OutboxItem]:
        token = claim_token()

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
        await self.mark_done(item.idempotency_key, version=item.version)

    async def settle_claim(
        self, item: OutboxItem, failure: Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        return await self.settle(item.idempotency_key, failure, delay_s=delay_s)

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
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
        upgraded = await self._sql(
            "UPDATE outbox SET payload = ?, state = 'pending', version = version + 1"
            " WHERE idempotency_key = ? AND lease_owner = ? AND state = 'intent'"
            " AND version = ?",
            (json.dumps(payload), item.idempotency_key, item.lease_owner, item.version),
        )
        return resolved_item(item, payload) if upgraded == 1 else None

    async def redrive_config(self, fingerprint: str | None = None) -> int:
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
