"""What the shared Postgres holds about a caller in the host's own tables, and forgetting it
(`stores.caller_data`; the SQLite siblings are `stores.sqlite.caller_data`).

Rows are deleted or rewritten, never flagged. Each erase runs in one transaction per table,
so a crash leaves a table either untouched or done, and a rerun finishes the rest. After a
change the table is `VACUUM`ed so the dead row versions are reclaimed.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from contextdb_livekit.stores.caller_data import (
    ERASED_PREFIX,
    ErasedCount,
    HeldItem,
    RetentionPolicy,
    pseudonym,
)
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.sqlite.caller_data import outbox_item, stripped_receipt


async def _vacuum(database: SharedDatabase, *tables: str) -> None:
    # Outside a transaction (VACUUM refuses to run in one); reclaims dead row versions.
    async with database.connection() as conn:
        for table in tables:
            await conn.execute(f"VACUUM {table}")


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else value.isoformat()


class PgAttestationData:
    name = "attestations"

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        async with self.database.connection() as conn:
            rows = await conn.fetch(
                "SELECT attestation_id, actor_id, channel, room_name, memory_ids::text, turn_id,"
                " turn_text, attested_at, question_turn_id, question_text FROM host_attestations"
                " WHERE customer_id = $1 ORDER BY attested_at",
                customer_id,
            )
        return [
            HeldItem(
                self.name,
                "host_attestations",
                "attestation",
                r[0],
                r[7],
                {
                    "actor_id": r[1],
                    "channel": r[2],
                    "room_name": r[3],
                    "memory_ids": json.loads(r[4]),
                    "turn_id": r[5],
                    "answer": r[6],
                    "question_turn_id": r[8],
                    "question": r[9],
                },
            )
            for r in rows
        ]

    async def erase(self, customer_id: str) -> ErasedCount:
        return ErasedCount(await self._strip("customer_id = $2", customer_id))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        async with self.database.connection() as conn:
            status = await conn.execute(
                "UPDATE host_attestations SET turn_text = '', question_text = ''"
                " WHERE attested_at < $1 AND (turn_text != '' OR question_text != '')",
                policy.evidence_text_cutoff(now).isoformat(),
            )
        words = int(status.split()[-1])
        if words:
            await _vacuum(self.database, "host_attestations")
        return words + await self._strip(
            "attested_at < $2 AND customer_id NOT LIKE $3",
            policy.audit_cutoff(now).isoformat(),
            f"{ERASED_PREFIX}%",
        )

    async def _strip(self, where: str, *params: Any) -> int:
        async with self.database.connection() as conn:
            status = await conn.execute(
                "UPDATE host_attestations SET customer_id = $1 || attestation_id, actor_id = '',"
                f" room_name = '', turn_text = '', question_text = '' WHERE {where}",
                ERASED_PREFIX,
                *params,
            )
        changed = int(status.split()[-1])
        if changed:
            await _vacuum(self.database, "host_attestations")
        return changed


class PgDirectoryData:
    name = "directory"

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        async with self.database.connection() as conn:
            rows = await conn.fetch(
                "SELECT phone FROM host_customers WHERE customer_id = $1 ORDER BY phone",
                customer_id,
            )
        return [
            HeldItem(self.name, "host_customers", "phone_number", r[0], None, {"phone": r[0]})
            for r in rows
        ]

    async def erase(self, customer_id: str) -> ErasedCount:
        async with self.database.connection() as conn:
            status = await conn.execute(
                "DELETE FROM host_customers WHERE customer_id = $1", customer_id
            )
        changed = int(status.split()[-1])
        if changed:
            await _vacuum(self.database, "host_customers")
        return ErasedCount(changed)

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        return 0


class PgOutboxData:
    """`host_outbox`: the rules of `stores.sqlite.caller_data.SqliteOutboxData`."""

    name = "outbox"

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        async with self.database.connection() as conn:
            rows = await conn.fetch(
                "SELECT idempotency_key, kind, state, payload::text, created_at FROM host_outbox"
                " WHERE user_id = $1 ORDER BY created_at, idempotency_key",
                customer_id,
            )
        return [outbox_item(self.name, "host_outbox", tuple(r)) for r in rows]

    async def erase(self, customer_id: str) -> ErasedCount:
        async with self.database.connection() as conn, conn.transaction():
            status = await conn.execute(
                "DELETE FROM host_outbox WHERE user_id = $1 AND kind = 'remember_many'",
                customer_id,
            )
            changed = int(status.split()[-1])
            rows = await conn.fetch(
                "SELECT idempotency_key, payload::text FROM host_outbox WHERE user_id = $1"
                " AND kind = 'receipt' AND state = 'dead' FOR UPDATE",
                customer_id,
            )
            for key, payload_text in rows:
                payload = json.loads(payload_text)
                await conn.execute(
                    "UPDATE host_outbox SET user_id = $1, payload = $2::jsonb"
                    " WHERE idempotency_key = $3",
                    pseudonym(str(payload.get("decision_id", key))),
                    json.dumps(stripped_receipt(payload)),
                    key,
                )
                changed += 1
            deferred = await conn.fetchval(
                "SELECT COUNT(*) FROM host_outbox WHERE user_id = $1", customer_id
            )
        if changed:
            await _vacuum(self.database, "host_outbox")
        return ErasedCount(changed, int(deferred))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        async with self.database.connection() as conn:
            status = await conn.execute(
                "DELETE FROM host_outbox WHERE kind = 'remember_many' AND state = 'dead'"
                " AND created_at < $1",
                (now - policy.parked).timestamp(),
            )
        return int(status.split()[-1])


class PgLedgerData:
    """`host_decisions`, `host_receipts`, `host_writes` (the Postgres engine's ledger)."""

    name = "ledger"

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        async with self.database.connection() as conn:
            rows = await conn.fetch(
                "SELECT d.decision_id, d.query, d.outcome, d.memory_ids::text, d.created_at,"
                " r.receipt_id, r.idempotency_key, r.action_name, r.status, r.external_ref,"
                " r.error_code, r.created_at FROM host_decisions d LEFT JOIN host_receipts r"
                " ON r.decision_id = d.decision_id WHERE d.user_id = $1 ORDER BY d.seq",
                customer_id,
            )
            writes = await conn.fetch(
                "SELECT idempotency_key, state, started_at FROM host_writes WHERE user_id = $1"
                " ORDER BY started_at",
                customer_id,
            )
        items: list[HeldItem] = []
        for r in rows:
            items.append(
                HeldItem(
                    "decision",
                    "host_decisions",
                    "decision",
                    r[0],
                    _iso(r[4]),
                    {"query": r[1], "outcome": r[2], "memory_ids": json.loads(r[3])},
                )
            )
            if r[5] is not None:
                items.append(
                    HeldItem(
                        "receipt",
                        "host_receipts",
                        "receipt",
                        r[5],
                        _iso(r[11]),
                        {
                            "decision_id": r[0],
                            "idempotency_key": r[6],
                            "action_name": r[7],
                            "status": r[8],
                            "external_ref": r[9],
                            "error_code": r[10],
                        },
                    )
                )
        items.extend(
            HeldItem(
                "write_record", "host_writes", "write_record", w[0], _iso(w[2]), {"state": w[1]}
            )
            for w in writes
        )
        return items

    async def erase(self, customer_id: str) -> ErasedCount:
        changed, deferred = await self._strip("d.user_id = $2", customer_id)
        async with self.database.connection() as conn:
            status = await conn.execute(
                "UPDATE host_writes SET user_id = $1 || idempotency_key WHERE user_id = $2",
                ERASED_PREFIX,
                customer_id,
            )
        changed += int(status.split()[-1])
        if changed:
            await _vacuum(self.database, "host_decisions", "host_writes")
        return ErasedCount(changed, deferred)

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        cutoff = policy.audit_cutoff(now)
        changed, _ = await self._strip(
            "d.created_at < $2 AND d.user_id NOT LIKE $3", cutoff, f"{ERASED_PREFIX}%"
        )
        async with self.database.connection() as conn:
            status = await conn.execute(
                "UPDATE host_writes SET user_id = $1 || idempotency_key WHERE state = 'done'"
                " AND started_at < $2 AND user_id NOT LIKE $3",
                ERASED_PREFIX,
                cutoff,
                f"{ERASED_PREFIX}%",
            )
        return changed + int(status.split()[-1])

    async def _strip(self, where: str, *params: Any) -> tuple[int, int]:
        """Closed decisions matching `where` (placeholders from $2) lose the customer id and
        the request's words; open ones are counted and left for the call that may still
        close them."""
        async with self.database.connection() as conn, conn.transaction():
            status = await conn.execute(
                "UPDATE host_decisions d SET user_id = $1 || d.decision_id, query = ''"
                f" FROM host_receipts r WHERE r.decision_id = d.decision_id AND {where}",
                ERASED_PREFIX,
                *params,
            )
            open_count = await conn.fetchval(
                "SELECT COUNT(*) FROM host_decisions d LEFT JOIN host_receipts r"
                " ON r.decision_id = d.decision_id WHERE r.decision_id IS NULL AND "
                + _renumber(where, -1),
                *params,
            )
        return int(status.split()[-1]), int(open_count)


def _renumber(sql: str, shift: int) -> str:
    """`$2` → `$1` etc.: the same condition bound without the leading prefix parameter."""
    return re.sub(r"\$(\d+)", lambda m: f"${int(m.group(1)) + shift}", sql)
