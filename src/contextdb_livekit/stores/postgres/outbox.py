"""The outbox on the shared Postgres (DATABASE_URL): one queue for every worker host.

The `stores.outbox.Outbox` contract — leases, owner holds, intents, parking, re-drive — as
`stores.sqlite.outbox.SqliteOutbox` keeps it on one host, so the flusher, the gate and the
drain use either unchanged. What changes is who
can deliver a row: any host. A host killed mid-call leaves its rows leased to it; once the
lease runs out, another host's flusher or drain claims and delivers them. Claims use
`FOR UPDATE SKIP LOCKED`, so hosts draining together never block on (or double-claim) a row.

Every time in the table (leases, next attempts, creation) is the database's clock
(`now()`), never a host's: hosts whose clocks disagree, or a host whose clock jumps by
minutes, still agree on when a lease runs out and when a row is due.

A database that does not answer raises `OutboxUnavailable`, as an unwritable file does; the
worker's `delivery.spill.SpillingOutbox` then keeps the row in a local spill file until the
database is back.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Unpack

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
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable

log = logging.getLogger("contextdb_livekit.delivery.outbox")

_COLUMNS = ", ".join("payload::text" if c == "payload" else c for c in ITEM_COLUMNS)
_RETURNED = ", ".join(f"o.{c}::text" if c == "payload" else f"o.{c}" for c in ITEM_COLUMNS)
# The database's clock in epoch seconds, the unit of every time column in host_outbox.
NOW = "extract(epoch FROM now())::double precision"
_DUE = f"state IN ('pending', 'intent') AND lease_until <= {NOW} AND next_attempt_at <= {NOW}"
# What `OutboxUnavailable` names as the outbox that could not be used.
LABEL = Path("postgres:host_outbox")


class PostgresOutbox:
    """The outbox in `host_outbox` on the shared database; every host reads and writes it."""

    def __init__(self, database: SharedDatabase, **policy: Unpack[PolicyOptions]) -> None:
        self.database = database
        self.path = LABEL
        self.policy = OutboxPolicy(**policy)
        self.config_fingerprint = self.policy.config_fingerprint
        self.owner = owner_token()

    @classmethod
    def for_settings(
        cls, settings: MemorySettings, database: SharedDatabase, **policy: Unpack[PolicyOptions]
    ) -> PostgresOutbox:
        """The shared outbox for these settings (their key's fingerprint) on `database`."""
        policy.setdefault("config_fingerprint", config_fingerprint(settings))
        return cls(database, **policy)

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
        await self._query(
            "execute",
            "INSERT INTO host_outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at)"
            f" SELECT $1::text, $2::text, $3::text, $4::jsonb, 'intent', {NOW},"
            f"  {NOW} + $5::double precision, $6::text, {NOW}"
            " ON CONFLICT (idempotency_key) DO NOTHING",
            key, kind, user_id, json.dumps(payload), self.policy.intent_grace_s, self.owner,
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
        owner = self.owner if hold else None
        # A lease is live while it runs past now (next_attempt_at is set to now on write).
        live = "o.lease_until > excluded.next_attempt_at AND o.lease_owner IS DISTINCT FROM $7"
        row = await self._query(
            "fetchrow",
            "INSERT INTO host_outbox AS o (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, lease_until, lease_owner, created_at)"
            f" SELECT $1::text, $2::text, $3::text, $4::jsonb, 'pending', {NOW},"
            f"  CASE WHEN $6::text IS NULL THEN 0 ELSE {NOW} + $5::double precision END,"
            f"  $6::text, {NOW}"
            " ON CONFLICT (idempotency_key) DO UPDATE SET"
            "  payload = excluded.payload, state = 'pending',"
            "  next_attempt_at = excluded.next_attempt_at, version = o.version + 1,"
            # Never steal a live lease from another sender: it is sending right now.
            f"  lease_owner = CASE WHEN {live} THEN o.lease_owner ELSE excluded.lease_owner END,"
            f"  lease_until = CASE WHEN {live} THEN o.lease_until ELSE excluded.lease_until END"
            " WHERE o.state IN ('intent', 'pending')"
            " RETURNING state, lease_owner",
            key, kind, user_id, json.dumps(payload), self.policy.owner_lease_s, owner, self.owner,
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
                "UPDATE host_outbox SET lease_until = 0, lease_owner = NULL,"
                f" next_attempt_at = {NOW} WHERE idempotency_key = $1",
                key,
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
                outcome = self.policy.settle(failure, attempts, row[1], delay_s)
                await conn.execute(
                    "UPDATE host_outbox SET attempts = $2, state = $3, last_error = $4,"
                    f" next_attempt_at = {NOW} + $5, lease_until = 0, lease_owner = NULL,"
                    " config_fingerprint = $6, parked_from = $7 WHERE idempotency_key = $1",
                    key, attempts, outcome.state, outcome.reason, outcome.wait_s,
                    self.config_fingerprint, outcome.parked_from,
                )  # fmt: skip
        except SharedStateUnavailable as exc:
            raise OutboxUnavailable(self.path, str(exc)) from exc
        if outcome.state in PARKED_STATES:
            log.error("outbox row %s parked as %s: %s", key, outcome.state, outcome.reason)
        return outcome.state

    async def mark_dead(self, key: str, error: str) -> None:
        await self._query(
            "execute",
            "UPDATE host_outbox SET parked_from = CASE WHEN state IN ('intent', 'pending')"
            " THEN state ELSE parked_from END, state = 'dead', last_error = $2,"
            " lease_until = 0, lease_owner = NULL WHERE idempotency_key = $1",
            key,
            error[:500],
        )

    async def adopt(self, item: OutboxItem, *, wait_s: float = 0.0) -> None:
        """Take over a row from a host's local spill (`delivery.spill`), under its own key.

        A row already here under that key (written before the database went away, or left
        by an earlier move that was interrupted) is kept, unless the spilled row is a newer
        sendable payload: that replaces it as `put` would, without taking a live lease. The
        row's attempts, last error and parked state come along; it is due after `wait_s`.
        Spilled rows are parked only by their sender (from `pending`), never mid-intent.
        """
        parked = item.state in PARKED_STATES
        await self._query(
            "execute",
            "INSERT INTO host_outbox AS o (idempotency_key, kind, user_id, payload, state,"
            " attempts, next_attempt_at, lease_until, created_at, last_error,"
            " config_fingerprint, parked_from)"
            f" SELECT $1::text, $2::text, $3::text, $4::jsonb, $5::text, $6::integer,"
            f"  {NOW} + $7::double precision, 0, {NOW}, $8::text, $9::text, $10::text"
            " ON CONFLICT (idempotency_key) DO UPDATE SET payload = excluded.payload,"
            "  state = 'pending', version = o.version + 1,"
            "  next_attempt_at = excluded.next_attempt_at"
            " WHERE excluded.state = 'pending' AND o.state IN ('intent', 'pending')"
            "  AND o.payload IS DISTINCT FROM excluded.payload",
            item.idempotency_key, item.kind, item.user_id, json.dumps(item.payload), item.state,
            item.attempts, wait_s, item.last_error, self.config_fingerprint,
            "pending" if parked else None,
        )  # fmt: skip

    # -- flusher side ----------------------------------------------------------------------

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        token = claim_token()
        rows = await self._query(
            "fetch",
            f"UPDATE host_outbox AS o SET lease_until = {NOW} + $1, lease_owner = $2"
            " FROM (SELECT idempotency_key FROM host_outbox"
            f"  WHERE {_DUE} ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED) AS due"
            f" WHERE o.idempotency_key = due.idempotency_key RETURNING {_RETURNED}",
            lease_s, token, limit,
        )  # fmt: skip
        return sorted((item_from_row(row) for row in rows), key=lambda item: item.created_at)

    async def finish_claim(self, item: OutboxItem) -> None:
        await self.mark_done(item.idempotency_key, version=item.version)

    async def settle_claim(
        self, item: OutboxItem, failure: Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        return await self.settle(item.idempotency_key, failure, delay_s=delay_s)

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        renewed = await self._count(
            f"UPDATE host_outbox SET lease_until = {NOW} + $1 WHERE idempotency_key = $2"
            " AND lease_owner = $3 AND version = $4 AND state IN ('pending', 'intent')",
            lease_s,
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
            f" next_attempt_at = {NOW},"
            " last_error = 'redriven after a configuration change: ' || COALESCE(last_error, '')"
            " WHERE state = 'needs_config' AND config_fingerprint IS DISTINCT FROM $1",
            current,
        )
        if count:
            log.info("outbox: %d rows parked for configuration re-driven (key changed)", count)
        return count

    async def redrive(self, keys: Sequence[str] | None = None) -> int:
        sql = (
            "UPDATE host_outbox SET state = COALESCE(parked_from, 'pending'), attempts = 0,"
            f" next_attempt_at = {NOW}, lease_until = 0, lease_owner = NULL"
            " WHERE state IN ('needs_config', 'dead')"
        )
        if keys is None:
            return await self._count(sql)
        return await self._count(sql + " AND idempotency_key = ANY($1)", list(keys))

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
        found = await self._query("fetchval", f"SELECT 1 FROM host_outbox WHERE {_DUE} LIMIT 1")
        return found is not None

    async def parked(self) -> list[OutboxItem]:
        return await self.items(states=PARKED_STATES)
