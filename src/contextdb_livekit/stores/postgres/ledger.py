"""The decision/receipt ledger on the shared Postgres: the `stores.ledger.DecisionLedger`
contract for many hosts at once (one host's file is `stores.sqlite.ledger`).

What one engine process used to serialise in memory is serialised by the database here:
a receipt is reported under a row lock on its decision (`FOR UPDATE`), and one idempotent
fact write per key runs at a time across hosts under a session advisory lock, which the
database releases by itself if the host holding it dies.

Request keys and the sweeper work as the contract says (`stores.ledger`); here the sweeper
also leaves alone a decision whose receipt is still queued in the shared outbox
(`receipt:<decision id>`), and it runs on the database's clock, so hosts whose clocks
disagree sweep alike.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg

from contextdb_livekit.memory.errors import MemoryConflict, MemoryNotFound, MemoryUnavailable
from contextdb_livekit.memory.models import (
    ActionDecision,
    ExecutionReceiptResponse,
    receipt_idempotency_key,
)
from contextdb_livekit.stores.ledger import (
    SWEEP_ACTION,
    SWEEP_ERROR,
    DecisionRecord,
    ReceiptRequest,
    RecordedDecision,
    WriteRecord,
    key_reused,
    new_decision,
    policy_alignment,
    receipt_response,
    sweep_key,
)
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable


class PostgresDecisionLedger:
    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        try:
            async with self.database.connection() as conn:
                yield conn
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code="ledger_unavailable") from exc

    def close(self) -> None:
        """The pool belongs to the host (`SharedDatabase`), which closes it."""

    async def record_decision(
        self,
        *,
        user_id: str,
        query: str,
        outcome: str,
        memories: list,
        pending_ids: list[str],
        request_key: str | None = None,
    ) -> ActionDecision | RecordedDecision:
        decision = new_decision(outcome, memories, pending_ids)
        async with self._connection() as conn:
            inserted = await conn.fetchval(
                "INSERT INTO host_decisions (decision_id, user_id, query, outcome, memory_ids,"
                " pending_ids, request_key) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)"
                " ON CONFLICT (user_id, request_key) WHERE request_key IS NOT NULL DO NOTHING"
                " RETURNING 1",
                decision.decision_id,
                user_id,
                query,
                outcome,
                json.dumps([m.id for m in memories]),
                json.dumps(pending_ids),
                request_key,
            )
            if inserted or request_key is None:
                return decision
            found = await self._find_request(conn, user_id, request_key)
        assert found is not None  # the conflicting row exists: decisions are never deleted
        return found

    async def find_request(self, user_id: str, request_key: str) -> RecordedDecision | None:
        async with self._connection() as conn:
            return await self._find_request(conn, user_id, request_key)

    @staticmethod
    async def _find_request(conn: Any, user_id: str, request_key: str) -> RecordedDecision | None:
        row = await conn.fetchrow(
            "SELECT decision_id, outcome, memory_ids::text, pending_ids::text FROM host_decisions"
            " WHERE user_id = $1 AND request_key = $2",
            user_id,
            request_key,
        )
        if row is None:
            return None
        return RecordedDecision(row[0], row[1], json.loads(row[2]), json.loads(row[3]))

    async def sweep_open(self, older_than_s: float, *, limit: int = 500) -> list[str]:
        """Close every decision still without a receipt `older_than_s` after it was made
        (database clock), unless its receipt is queued in the shared outbox; hosts sweeping
        at once skip each other's rows."""
        async with self._connection() as conn, conn.transaction():
            rows = await conn.fetch(
                "SELECT d.decision_id FROM host_decisions d"
                " WHERE d.created_at < now() - make_interval(secs => $1)"
                " AND NOT EXISTS (SELECT 1 FROM host_receipts r"
                "  WHERE r.decision_id = d.decision_id)"
                " AND NOT EXISTS (SELECT 1 FROM host_outbox o"
                "  WHERE o.idempotency_key = $3 || d.decision_id)"
                " ORDER BY d.created_at LIMIT $2 FOR UPDATE SKIP LOCKED",
                float(older_than_s),
                limit,
                receipt_idempotency_key(""),
            )
            closed = []
            for (decision_id,) in rows:
                done = await conn.fetchval(
                    "INSERT INTO host_receipts (decision_id, receipt_id, idempotency_key,"
                    " payload_hash, action_name, status, policy_alignment, error_code)"
                    " VALUES ($1, $2, $3, 'sweeper', $4, 'failed', 'aligned', $5)"
                    " ON CONFLICT DO NOTHING RETURNING 1",
                    decision_id,
                    f"rcpt_{uuid.uuid4().hex}",
                    sweep_key(decision_id),
                    SWEEP_ACTION,
                    SWEEP_ERROR,
                )
                if done:
                    closed.append(decision_id)
        return closed

    async def report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        request.validate()
        async with self._connection() as conn, conn.transaction():
            outcome = await conn.fetchval(
                "SELECT outcome FROM host_decisions WHERE decision_id = $1 AND user_id = $2"
                " FOR UPDATE",
                request.decision_id,
                request.user_id,
            )
            if outcome is None:
                # A foreign partition's decision is indistinguishable from a missing one.
                raise MemoryNotFound("decision not found", code="decision_not_found", status=404)
            by_key = await conn.fetchrow(
                "SELECT decision_id, payload_hash FROM host_receipts WHERE idempotency_key = $1",
                request.idempotency_key,
            )
            if by_key is not None:
                if by_key["payload_hash"] != request.payload_hash():
                    raise key_reused()
                return await self._load(conn, request.decision_id, outcome)
            if await conn.fetchval(
                "SELECT 1 FROM host_receipts WHERE decision_id = $1", request.decision_id
            ):
                raise MemoryConflict(
                    "decision already has a terminal receipt", code="receipt_exists", status=409
                )
            try:
                await conn.execute(
                    "INSERT INTO host_receipts (decision_id, receipt_id, idempotency_key,"
                    " payload_hash, action_name, status, policy_alignment, external_ref,"
                    " error_code) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    request.decision_id,
                    f"rcpt_{uuid.uuid4().hex}",
                    request.idempotency_key,
                    request.payload_hash(),
                    request.action_name,
                    request.status,
                    policy_alignment(outcome, request.status),
                    request.external_ref,
                    request.error_code,
                )
            except asyncpg.UniqueViolationError as exc:
                # The key was used for another decision by a concurrent report.
                raise key_reused() from exc
            return await self._load(conn, request.decision_id, outcome)

    @staticmethod
    async def _load(conn: Any, decision_id: str, outcome: str) -> ExecutionReceiptResponse:
        row = await conn.fetchrow(
            "SELECT receipt_id, action_name, status, policy_alignment, external_ref, error_code,"
            " created_at FROM host_receipts WHERE decision_id = $1",
            decision_id,
        )
        return receipt_response(decision_id, outcome, row)

    async def receipt_for(self, user_id: str, decision_id: str) -> ExecutionReceiptResponse | None:
        async with self._connection() as conn:
            outcome = await conn.fetchval(
                "SELECT d.outcome FROM host_decisions d JOIN host_receipts r USING (decision_id)"
                " WHERE d.decision_id = $1 AND d.user_id = $2",
                decision_id,
                user_id,
            )
            return None if outcome is None else await self._load(conn, decision_id, outcome)

    async def trail(self, user_id: str) -> list[DecisionRecord]:
        """Every decision for one caller with its receipt (if any), oldest first."""
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT d.decision_id, d.outcome, r.status, r.policy_alignment, r.error_code,"
                " r.external_ref FROM host_decisions d LEFT JOIN host_receipts r"
                " USING (decision_id) WHERE d.user_id = $1 ORDER BY d.seq",
                user_id,
            )
        return [DecisionRecord(*row) for row in rows]

    @contextlib.asynccontextmanager
    async def write_guard(self, idempotency_key: str) -> AsyncIterator[None]:
        """One write per key at a time across every host: a session advisory lock held on
        its own connection for the write; a host that dies mid-write drops it with its
        connection, and the next sender finds the `in_progress` record and completes it."""
        async with self._connection() as conn:
            key = f"contextdb-write:{idempotency_key}"
            await conn.execute("SELECT pg_advisory_lock(hashtext($1))", key)
            try:
                yield
            finally:
                with contextlib.suppress(Exception):
                    await conn.execute("SELECT pg_advisory_unlock(hashtext($1))", key)

    async def begin_write(
        self, idempotency_key: str, payload_hash: str, user_id: str
    ) -> WriteRecord:
        async with self._connection() as conn:
            inserted = await conn.fetchval(
                "INSERT INTO host_writes (idempotency_key, payload_hash, user_id, state)"
                " VALUES ($1, $2, $3, 'in_progress') ON CONFLICT (idempotency_key) DO NOTHING"
                " RETURNING 1",
                idempotency_key,
                payload_hash,
                user_id,
            )
            if inserted:
                return WriteRecord("new", [])
            row = await conn.fetchrow(
                "SELECT payload_hash, result::text, state FROM host_writes"
                " WHERE idempotency_key = $1",
                idempotency_key,
            )
        if row["payload_hash"] != payload_hash:
            raise key_reused()
        return WriteRecord(row["state"], json.loads(row["result"]))

    async def complete_write(self, idempotency_key: str, ids: list[str]) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "UPDATE host_writes SET state = 'done', result = $2::jsonb"
                " WHERE idempotency_key = $1",
                idempotency_key,
                json.dumps(ids),
            )

    async def write_state(self, idempotency_key: str) -> str | None:
        async with self._connection() as conn:
            return await conn.fetchval(
                "SELECT state FROM host_writes WHERE idempotency_key = $1", idempotency_key
            )
