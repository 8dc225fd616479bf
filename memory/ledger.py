"""Durable decision and receipt ledger for the local engine.

pycontextdb decides but keeps no decision ids or receipts; the Cloud data plane does.
This ledger gives the local engine the same contract: a uuid per decision bound to the
caller's partition, and exactly one terminal receipt per decision with idempotent replay.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memory.errors import MemoryConflict, MemoryNotFound, MemoryRejected
from memory.models import (
    ACTION_NAME_PATTERN,
    ERROR_CODE_PATTERN,
    ActionDecision,
    ExecutionReceipt,
    ExecutionReceiptResponse,
    ReceiptStatus,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    decision_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    outcome TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    pending_ids TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS receipts (
    decision_id TEXT PRIMARY KEY REFERENCES decisions(decision_id),
    receipt_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    payload_hash TEXT NOT NULL,
    action_name TEXT NOT NULL,
    status TEXT NOT NULL,
    policy_alignment TEXT NOT NULL,
    external_ref TEXT,
    error_code TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotent_writes (
    idempotency_key TEXT PRIMARY KEY,
    payload_hash TEXT NOT NULL,
    result TEXT NOT NULL
);
"""

_TERMINAL_STATUSES = frozenset({"succeeded", "failed", "skipped"})


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


def _now() -> str:
    return datetime.now(UTC).isoformat()


class DecisionLedger:
    """SQLite-backed; one connection per call so any thread or process can use the file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # One connection for the engine process's lifetime, used from worker threads one at a
        # time; the engine is the file's only writer, so nothing else contends for it.
        self._conn = sqlite3.connect(
            path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA busy_timeout=30000")
        # WAL + NORMAL survives a process crash; only power loss can drop the last commits,
        # which the worker-side outbox covers.
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    async def record_decision(
        self,
        *,
        user_id: str,
        query: str,
        outcome: str,
        memories: list,
        pending_ids: list[str],
    ) -> ActionDecision:
        decision = ActionDecision(
            decision_id=str(uuid.uuid4()),
            outcome=outcome,  # type: ignore[arg-type]
            memories=memories,
            pending_confirmation_ids=pending_ids,
        )
        await asyncio.to_thread(self._insert_decision, user_id, query, decision)
        return decision

    def _insert_decision(self, user_id: str, query: str, decision: ActionDecision) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    decision.decision_id,
                    user_id,
                    query,
                    decision.outcome,
                    json.dumps([m.id for m in decision.memories]),
                    json.dumps(decision.pending_confirmation_ids),
                    _now(),
                ),
            )

    async def report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        request.validate()
        return await asyncio.to_thread(self._report, request)

    def _report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                response = self._report_locked(conn, request)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return response

    def _report_locked(
        self, conn: sqlite3.Connection, request: ReceiptRequest
    ) -> ExecutionReceiptResponse:
        row = conn.execute(
            "SELECT outcome FROM decisions WHERE decision_id = ? AND user_id = ?",
            (request.decision_id, request.user_id),
        ).fetchone()
        if row is None:
            # A foreign partition's decision is indistinguishable from a missing one.
            raise MemoryNotFound("decision not found", code="decision_not_found", status=404)
        outcome = row[0]
        by_key = conn.execute(
            "SELECT decision_id, payload_hash FROM receipts WHERE idempotency_key = ?",
            (request.idempotency_key,),
        ).fetchone()
        if by_key is not None:
            if by_key[1] != request.payload_hash():
                raise MemoryConflict(
                    "idempotency key reused with a different payload",
                    code="idempotency_conflict",
                    status=409,
                )
            return self._load(conn, request.decision_id, outcome)
        existing = conn.execute(
            "SELECT 1 FROM receipts WHERE decision_id = ?", (request.decision_id,)
        ).fetchone()
        if existing is not None:
            raise MemoryConflict(
                "decision already has a terminal receipt", code="receipt_exists", status=409
            )
        conn.execute(
            "INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                request.decision_id,
                f"rcpt_{uuid.uuid4().hex}",
                request.idempotency_key,
                request.payload_hash(),
                request.action_name,
                request.status,
                policy_alignment(outcome, request.status),
                request.external_ref,
                request.error_code,
                _now(),
            ),
        )
        return self._load(conn, request.decision_id, outcome)

    @staticmethod
    def _load(conn: sqlite3.Connection, decision_id: str, outcome: str) -> ExecutionReceiptResponse:
        row = conn.execute(
            "SELECT receipt_id, action_name, status, policy_alignment, external_ref, error_code,"
            " created_at FROM receipts WHERE decision_id = ?",
            (decision_id,),
        ).fetchone()
        receipt = ExecutionReceipt(
            id=row[0],
            decision_id=decision_id,
            action_name=row[1],
            status=row[2],
            policy_alignment=row[3],
            external_ref=row[4],
            error_code=row[5],
            request_id="local",
            created_at=row[6],
        )
        return ExecutionReceiptResponse(decision_id=decision_id, outcome=outcome, receipt=receipt)  # type: ignore[arg-type]

    async def receipt_for(self, user_id: str, decision_id: str) -> ExecutionReceiptResponse | None:
        def load() -> ExecutionReceiptResponse | None:
            with self._connect() as conn:
                row = conn.execute(
                    "SELECT d.outcome FROM decisions d JOIN receipts r USING (decision_id)"
                    " WHERE d.decision_id = ? AND d.user_id = ?",
                    (decision_id, user_id),
                ).fetchone()
                return None if row is None else self._load(conn, decision_id, row[0])

        return await asyncio.to_thread(load)

    async def trail(self, user_id: str) -> list[DecisionRecord]:
        """Every decision for one caller with its receipt (if any), oldest first."""

        def load() -> list[DecisionRecord]:
            with self._connect() as conn:
                rows = conn.execute(
                    "SELECT d.decision_id, d.outcome, r.status, r.policy_alignment, r.error_code,"
                    " r.external_ref FROM decisions d LEFT JOIN receipts r USING (decision_id)"
                    " WHERE d.user_id = ? ORDER BY d.created_at, d.rowid",
                    (user_id,),
                ).fetchall()
            return [DecisionRecord(*row) for row in rows]

        return await asyncio.to_thread(load)

    async def replay_write(self, idempotency_key: str, payload_hash: str) -> list[str] | None:
        """Memory ids of an earlier write under this key; conflict if its payload differed."""

        def load() -> list[str] | None:
            with self._connect() as conn:
                row = conn.execute(
                    "SELECT payload_hash, result FROM idempotent_writes WHERE idempotency_key = ?",
                    (idempotency_key,),
                ).fetchone()
            if row is None:
                return None
            if row[0] != payload_hash:
                raise MemoryConflict(
                    "idempotency key reused with a different payload",
                    code="idempotency_conflict",
                    status=409,
                )
            return json.loads(row[1])

        return await asyncio.to_thread(load)

    async def record_write(self, idempotency_key: str, payload_hash: str, ids: list[str]) -> None:
        def store() -> None:
            with self._connect() as conn:
                conn.execute(
                    "INSERT OR IGNORE INTO idempotent_writes VALUES (?, ?, ?)",
                    (idempotency_key, payload_hash, json.dumps(ids)),
                )

        await asyncio.to_thread(store)
