"""The outbox on the shared Postgres (DATABASE_URL): one queue for every worker host.

Same contract as the SQLite `memory.outbox.Outbox` — leases, owner holds, intents, parking,
re-drive — so the flusher, the gate and the drain use either unchanged. What changes is who
can deliver a row: any host. A host killed mid-call leaves its rows leased to it; once the
lease runs out, another host's flusher or drain claims and delivers them. Claims use
`FOR UPDATE SKIP LOCKED`, so hosts draining together never block on (or double-claim) a row.

A database that does not answer raises `OutboxUnavailable`, as an unwritable file does, and
the callers deliver directly instead.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory.errors import Failure, OutboxUnavailable, classify_failure
from memory.outbox import (
    PARKED_STATES,
    Backoff,
    Outbox,
    OutboxItem,
    OutboxKind,
    OutboxState,
    config_fingerprint,
    item_from_row,
    log,
    resolved_item,
)
from memory.postgres import SharedDatabase, SharedStateUnavailable
from memory.settings import MemorySettings

_COLUMNS = (
    "idempotency_key, kind, user_id, payload::text, state, attempts, created_at, last_error,"
    " version, next_attempt_at, lease_until, lease_owner"
)
_RETURNED = ", ".join(f"o.{column.strip()}" for column in _COLUMNS.split(","))
_DUE = "state IN ('pending', 'intent') AND lease_until <= $1 AND next_attempt_at <= $1"
_LABEL = Path("postgres:host_outbox")


class PgOutbox(Outbox):
    """`Outbox` with its rows in `host_outbox`; inherits only the policy (backoff, attempts,
    lease lengths, parking rule), none of the SQLite file handling."""

    def __init__(
        self,
        database: SharedDatabase,
        *,
        intent_grace_s: float = 120.0,
        owner_lease_s: float = 30.0,
        max_attempts: int = 20,
        config_fingerprint: str | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(
            _LABEL,
            intent_grace_s=intent_grace_s,
            owner_lease_s=owner_lease_s,
            max_attempts=max_attempts,
            config_fingerprint=config_fingerprint,
            backoff=backoff,
        )
        self.database = database

    @classmethod
    def for_database(
        cls, database: SharedDatabase, settings: MemorySettings, **kwargs: Any
    ) -> PgOutbox:
        return cls(database, config_fingerprint=config_fingerprint(settings), **kwargs)

    async def _query(self, method: str, sql: str, *args: Any) -> Any:
        try:
            async with self.database.connection() as conn:
                return await getattr(conn, method)(sql, *args)
        except SharedStateUnavailable as exc:
            raise OutboxUnavailable(self.path, str(exc)) from exc

    async def _count(self, sql: str, *args: Any) -> int:
        status = await self._query("execute", sql, *args)
        return int(str(status).split()[-1])

    async def check(self) -> None:
        await self._query("fetchval", "SELECT count(*) FROM host_outbox WHERE false")

    # -- writes by a row's owner -----------------------------------------------------------

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        now = time.time()
        await self._query(
            "execute",
            "INSERT INTO host_outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at)"
            " VALUES ($1, $2, $3, $4::jsonb, 'intent', $5, $6, $7, $5)"
            " ON CONFLICT (idempotency_key) DO NOTHING",
            key, kind, user_id, json.dumps(payload), now, now + self._intent_grace_s, self.owner,
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
        lease_until = now + self.owner_lease_s if hold else 0.0
        owner = self.owner if hold else None
        row = await self._query(
            "fetchrow",
            "INSERT INTO host_outbox AS o (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at)"
            " VALUES ($1, $2, $3, $4::jsonb, 'pending', $5, $6, $7, $5)"
            " ON CONFLICT (idempotency_key) DO UPDATE SET"
            "  payload = excluded.payload, state = 'pending',"
            "  next_attempt_at = excluded.next_attempt_at, version = o.version + 1,"
            # Never steal a live lease from another sender: it is sending right now.
            "  lease_owner = CASE WHEN o.lease_until > $5 AND o.lease_owner IS DISTINCT FROM $8"
            "   THEN o.lease_owner ELSE excluded.lease_owner END,"
            "  lease_until = CASE WHEN o.lease_until > $5 AND o.lease_owner IS DISTINCT FROM $8"
            "   THEN o.lease_until ELSE excluded.lease_until END"
            " WHERE o.state IN ('intent', 'pending')"
            " RETURNING state, lease_owner",
            key, kind, user_id, json.dumps(payload), now, lease_until, owner, self.owner,
        )  # fmt: skip
        # No row returned: the key exists and is parked (the WHERE refused the update).
        return hold and row is not None and tuple(row) == ("pending", self.owner)

    async def mark_done(self, key: str, *, version: int | None = None) -> None:
        if version is None:
            await self._query("execute", "DELETE FROM host_outbox WHERE idempotency_key = $1", key)
            return
        deleted = await self._count(
            "DELETE FROM host_outbox WHERE idempotency_key = $1 AND version = $2", key, version
        )
        if not deleted:
            # Rewritten while in flight: release it so the newer payload goes out next.
            await self._query(
                "execute",
                "UPDATE host_outbox SET lease_until = 0, lease_owner = NULL, next_attempt_at = $2"
                " WHERE idempotency_key = $1",
                key,
                time.time(),
            )

    async def settle(
        self,
        key: str,
        error: BaseException | Failure,
        *,
        delay_s: float | None = None,
    ) -> OutboxState | None:
        failure = error if isinstance(error, Failure) else classify_failure(error)
        try:
            async with self.database.connection() as conn, conn.transaction():
                row = await conn.fetchrow(
                    "SELECT attempts, state FROM host_outbox WHERE idempotency_key = $1 FOR UPDATE",
                    key,
                )
                if row is None:
                    return None
                attempts = row[0] + 1
                state, reason, wait = self._settlement(failure, attempts, row[1], delay_s)
                await conn.execute(
                    "UPDATE host_outbox SET attempts = $2, state = $3, last_error = $4,"
                    " next_attempt_at = $5, lease_until = 0, lease_owner = NULL,"
                    " config_fingerprint = $6, parked_from = $7 WHERE idempotency_key = $1",
                    key, attempts, state, reason[:500], time.time() + wait,
                    self.config_fingerprint, row[1] if state in PARKED_STATES else None,
                )  # fmt: skip
        except SharedStateUnavailable as exc:
            raise OutboxUnavailable(self.path, str(exc)) from exc
        if state in PARKED_STATES:
            log.error("outbox row %s parked as %s: %s", key, state, reason)
        return state

    async def mark_dead(self, key: str, error: str) -> None:
        await self._query(
            "execute",
            "UPDATE host_outbox SET parked_from = CASE WHEN state IN ('intent', 'pending')"
            " THEN state ELSE parked_from END, state = 'dead', last_error = $2,"
            " lease_until = 0, lease_owner = NULL WHERE idempotency_key = $1",
            key,
            error[:500],
        )

    async def reschedule(self, key: str, delay_s: float, error: str) -> None:
        await self._query(
            "execute",
            "UPDATE host_outbox SET attempts = attempts + 1, next_attempt_at = $2,"
            " lease_until = 0, lease_owner = NULL, last_error = $3 WHERE idempotency_key = $1",
            key,
            time.time() + delay_s,
            error[:500],
        )

    # -- flusher side ----------------------------------------------------------------------

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        token = f"claim:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        now = time.time()
        rows = await self._query(
            "fetch",
            "UPDATE host_outbox AS o SET lease_until = $2, lease_owner = $3"
            " FROM (SELECT idempotency_key FROM host_outbox"
            f"  WHERE {_DUE} ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED) AS due"
            f" WHERE o.idempotency_key = due.idempotency_key RETURNING {_RETURNED}",
            now, now + lease_s, token, limit,
        )  # fmt: skip
        return sorted((item_from_row(row) for row in rows), key=lambda item: item.created_at)

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        renewed = await self._count(
            "UPDATE host_outbox SET lease_until = $1 WHERE idempotency_key = $2"
            " AND lease_owner = $3 AND version = $4 AND state IN ('pending', 'intent')",
            time.time() + lease_s,
            item.idempotency_key,
            item.lease_owner,
            item.version,
        )
        return renewed == 1

    async def resolve_intent(self, item: OutboxItem, payload: dict[str, Any]) -> OutboxItem | None:
        upgraded = await self._count(
            "UPDATE host_outbox SET payload = $1::jsonb, state = 'pending', version = version + 1"
            " WHERE idempotency_key = $2 AND lease_owner = $3 AND state = 'intent'"
            " AND version = $4",
            json.dumps(payload),
            item.idempotency_key,
            item.lease_owner,
            item.version,
        )
        if upgraded != 1:
            return None
        return resolved_item(item, payload)

    async def redrive_config(self, fingerprint: str | None = None) -> int:
        current = fingerprint if fingerprint is not None else self.config_fingerprint
        if current is None:
            return 0
        count = await self._count(
            "UPDATE host_outbox SET state = COALESCE(parked_from, 'pending'), attempts = 0,"
            " next_attempt_at = $1,"
            " last_error = 'redriven after a configuration change: ' || COALESCE(last_error, '')"
            " WHERE state = 'needs_config' AND config_fingerprint IS DISTINCT FROM $2",
            time.time(),
            current,
        )
        if count:
            log.info("outbox: %d rows parked for configuration re-driven (key changed)", count)
        return count

    async def redrive(self, keys: Sequence[str] | None = None) -> int:
        sql = (
            "UPDATE host_outbox SET state = COALESCE(parked_from, 'pending'), attempts = 0,"
            " next_attempt_at = $1, lease_until = 0, lease_owner = NULL"
            " WHERE state IN ('needs_config', 'dead')"
        )
        if keys is None:
            return await self._count(sql, time.time())
        return await self._count(sql + " AND idempotency_key = ANY($2)", time.time(), list(keys))

    # -- reads -----------------------------------------------------------------------------

    async def items(self, *, states: Sequence[str] | None = None) -> list[OutboxItem]:
        if states is None:
            rows = await self._query(
                "fetch", f"SELECT {_COLUMNS} FROM host_outbox ORDER BY created_at"
            )
        else:
            rows = await self._query(
                "fetch",
                f"SELECT {_COLUMNS} FROM host_outbox WHERE state = ANY($1) ORDER BY created_at",
                list(states),
            )
        return [item_from_row(row) for row in rows]

    async def has_due(self) -> bool:
        found = await self._query(
            "fetchval", f"SELECT 1 FROM host_outbox WHERE {_DUE} LIMIT 1", time.time()
        )
        return found is not None
