"""The decision/receipt ledger in a SQLite file beside the engine's (the
`stores.ledger.DecisionLedger` contract; the shared Postgres one is `stores.postgres.ledger`).

The engine process is the file's only writer, so one write per idempotency key at a time is
an in-process lock here.

The sweeper compares no wall clocks: the engine's clock may be off by an hour (or be
restarted under another one), and a decision stamped by one clock and judged by another
would be closed while its booking still runs. What counts is how long this file's sweeper
itself has seen a decision open (`observed_open_s`): each pass adds the time since the
previous pass of the same process (a monotonic clock), to decisions open at both passes.
The first pass of a process adds nothing, so a restart never makes anything look old.
A decision whose receipt is queued in the worker's outbox (`receipt:<decision id>`, the
intent written before a booking runs included) is left alone, as the Postgres sweeper does:
its real receipt is on its way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

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
from contextdb_livekit.stores.private_files import private_dir, private_file
from contextdb_livekit.stores.sqlite.connection import (
    damage_of,
    immediate_transaction,
    is_damaged,
    is_missing_schema,
    quarantine,
)

log = logging.getLogger("contextdb_livekit.stores.sqlite.ledger")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    decision_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    outcome TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    pending_ids TEXT NOT NULL,
    created_at TEXT NOT NULL,
    request_key TEXT,
    observed_open_s REAL NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS decisions_request_key ON decisions (user_id, request_key)
    WHERE request_key IS NOT NULL;
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
    result TEXT NOT NULL,
    state TEXT NOT NULL,
    user_id TEXT,
    started_at TEXT
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SqliteDecisionLedger:
    """SQLite-backed; the engine process is the file's only writer.

    The file is checked at open (`PRAGMA quick_check`); a damaged one is moved aside with a
    log line naming it and recreated, as is one found damaged or deleted while in use. A
    ledger that cannot be written raises `MemoryUnavailable` naming the file.
    """

    def __init__(self, path: Path, *, outbox_path: Path | None = None) -> None:
        self.path = path
        # The worker's outbox file: a decision whose receipt is queued there is not swept.
        self.outbox_path = outbox_path
        # The sweeper's own observation: which decisions were open at this process's
        # previous pass, and when (monotonic). Never a wall-clock time.
        self._open_at_last_sweep: set[str] = set()
        self._last_sweep_at: float | None = None
        private_dir(path.parent)
        self._lock = threading.Lock()
        self._write_locks: dict[str, tuple[asyncio.Lock, int]] = {}
        try:
            self._conn = self._open()
        except (sqlite3.Error, OSError) as exc:
            raise self._unavailable(exc) from exc

    def _open(self) -> sqlite3.Connection:
        problem = damage_of(self.path)
        if problem is not None:
            quarantine(self.path, problem, label="decision ledger")
        private_file(self.path)
        conn = self._connect_file()
        conn.executescript(_SCHEMA)
        columns = {row[1] for row in conn.execute("PRAGMA table_info(decisions)")}
        if "observed_open_s" not in columns:  # a file from before the monotonic sweeper
            conn.execute("ALTER TABLE decisions ADD COLUMN observed_open_s REAL NOT NULL DEFAULT 0")
        # Which file we hold: a file deleted or replaced under us is noticed on next use.
        self._inode = os.stat(self.path).st_ino
        return conn

    def _connect_file(self) -> sqlite3.Connection:
        # One connection for the engine process's lifetime, used from worker threads one at a
        # time; the engine is the file's only writer, so nothing else contends for it.
        conn = sqlite3.connect(
            self.path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA busy_timeout=30000")
        # WAL + NORMAL survives a process crash; only power loss can drop the last commits,
        # which the worker-side outbox covers.
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _reopen(self, reason: str) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        log.error("decision ledger %s %s; reopening it", self.path, reason)
        self._conn = self._open()

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                if os.stat(self.path).st_ino != self._inode:
                    self._reopen("was replaced on disk")
            except FileNotFoundError:
                self._reopen("was deleted")
            except OSError as exc:
                raise self._unavailable(exc) from exc
            try:
                yield self._conn
            except sqlite3.Error as exc:
                if is_damaged(exc) or is_missing_schema(exc):
                    # Next use starts on a fresh file; this call still fails (retryable).
                    with contextlib.suppress(sqlite3.Error, OSError):
                        self._conn.close()
                        quarantine(self.path, str(exc), label="decision ledger")
                        self._conn = self._open()
                raise self._unavailable(exc) from exc

    def _unavailable(self, exc: BaseException) -> MemoryUnavailable:
        return MemoryUnavailable(
            f"decision ledger {self.path} failed: {type(exc).__name__}: {exc}",
            code="ledger_unavailable",
        )

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
        request_key: str | None = None,
    ) -> ActionDecision | RecordedDecision:
        """A new decision; or, when `request_key` was seen before for this caller, the
        decision recorded then (as a `RecordedDecision`: ids only, the engine loads them)."""
        decision = new_decision(outcome, memories, pending_ids)
        recorded = await asyncio.to_thread(
            self._insert_decision, user_id, query, decision, request_key
        )
        return decision if recorded is None else recorded

    def _insert_decision(
        self, user_id: str, query: str, decision: ActionDecision, request_key: str | None
    ) -> RecordedDecision | None:
        with self._connect() as conn, immediate_transaction(conn):
            if request_key is not None:
                found = self._find_request(conn, user_id, request_key)
                if found is not None:
                    return found
            conn.execute(
                "INSERT INTO decisions (decision_id, user_id, query, outcome, memory_ids,"
                " pending_ids, created_at, request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    decision.decision_id,
                    user_id,
                    query,
                    decision.outcome,
                    json.dumps([m.id for m in decision.memories]),
                    json.dumps(decision.pending_confirmation_ids),
                    _now(),
                    request_key,
                ),
            )
        return None

    async def find_request(self, user_id: str, request_key: str) -> RecordedDecision | None:
        """The decision recorded under this caller's request key, if any."""

        def find() -> RecordedDecision | None:
            with self._connect() as conn:
                return self._find_request(conn, user_id, request_key)

        return await asyncio.to_thread(find)

    @staticmethod
    def _find_request(
        conn: sqlite3.Connection, user_id: str, request_key: str
    ) -> RecordedDecision | None:
        row = conn.execute(
            "SELECT decision_id, outcome, memory_ids, pending_ids FROM decisions"
            " WHERE user_id = ? AND request_key = ?",
            (user_id, request_key),
        ).fetchone()
        if row is None:
            return None
        return RecordedDecision(row[0], row[1], json.loads(row[2]), json.loads(row[3]))

    async def sweep_open(self, older_than_s: float, *, limit: int = 500) -> list[str]:
        """Close every decision this process's sweeper has seen open, without a receipt and
        without one queued, for `older_than_s` in all (see the module docstring); returns
        the ids closed. When the outbox cannot be read, nothing is closed this pass."""
        return await asyncio.to_thread(self._sweep, older_than_s, limit)

    def _sweep(self, older_than_s: float, limit: int) -> list[str]:
        queued = self._queued_receipts()
        now = time.monotonic()
        elapsed = 0.0 if self._last_sweep_at is None else now - self._last_sweep_at
        seen_open = self._open_at_last_sweep
        closed: list[str] = []
        open_now: set[str] = set()
        with self._connect() as conn, immediate_transaction(conn):
            rows = conn.execute(
                "SELECT d.decision_id, d.observed_open_s FROM decisions d"
                " LEFT JOIN receipts r USING (decision_id) WHERE r.decision_id IS NULL"
                " ORDER BY d.rowid LIMIT ?",
                (limit,),
            ).fetchall()
            for decision_id, observed_open_s in rows:
                if receipt_idempotency_key(decision_id) in queued:
                    continue  # its receipt is on its way (or its booking still running)
                open_now.add(decision_id)
                if decision_id in seen_open and elapsed > 0:
                    observed_open_s += elapsed
                    conn.execute(
                        "UPDATE decisions SET observed_open_s = ? WHERE decision_id = ?",
                        (observed_open_s, decision_id),
                    )
                if observed_open_s < older_than_s:
                    continue
                conn.execute(
                    "INSERT INTO receipts VALUES (?, ?, ?, ?, ?, 'failed', 'aligned',"
                    " NULL, ?, ?)",
                    (decision_id, f"rcpt_{uuid.uuid4().hex}", sweep_key(decision_id),
                     "sweeper", SWEEP_ACTION, SWEEP_ERROR, _now()),
                )  # fmt: skip
                closed.append(decision_id)
        self._open_at_last_sweep, self._last_sweep_at = open_now - set(closed), now
        if closed:
            log.warning("closed %d decision(s) nobody closed: %s", len(closed), SWEEP_ERROR)
        return closed

    def _queued_receipts(self) -> set[str]:
        """The receipt keys in the worker's outbox (any state: a parked receipt is a real
        one waiting for a human, not a decision nobody closed). Read-only; a missing file
        holds nothing, an unreadable one raises (the pass closes nothing)."""
        if self.outbox_path is None or not self.outbox_path.exists():
            return set()
        try:
            conn = sqlite3.connect(
                f"file:{self.outbox_path}?mode=ro", uri=True, timeout=5.0, check_same_thread=False
            )
            try:
                rows = conn.execute(
                    "SELECT idempotency_key FROM outbox WHERE kind = 'receipt'"
                ).fetchall()
            finally:
                conn.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return set()  # created, not yet used
            raise MemoryUnavailable(
                f"outbox {self.outbox_path} unreadable; no decision swept: {exc}",
                code="ledger_unavailable",
            ) from exc
        except sqlite3.Error as exc:
            raise MemoryUnavailable(
                f"outbox {self.outbox_path} unreadable; no decision swept: {exc}",
                code="ledger_unavailable",
            ) from exc
        return {row[0] for row in rows}

    async def report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        request.validate()
        return await asyncio.to_thread(self._report, request)

    def _report(self, request: ReceiptRequest) -> ExecutionReceiptResponse:
        with self._connect() as conn:
            with immediate_transaction(conn):
                response = self._report_locked(conn, request)
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
                raise key_reused()
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
        return receipt_response(decision_id, outcome, row)

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

    @contextlib.asynccontextmanager
    async def write_guard(self, idempotency_key: str) -> AsyncIterator[None]:
        """One write per key at a time inside the engine process (the file's only writer):
        a second send with the same key waits, then finds the first one's record."""
        lock, users = self._write_locks.get(idempotency_key, (asyncio.Lock(), 0))
        self._write_locks[idempotency_key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._write_locks[idempotency_key]
            if users == 1:
                del self._write_locks[idempotency_key]
            else:
                self._write_locks[idempotency_key] = (lock, users - 1)

    async def begin_write(
        self, idempotency_key: str, payload_hash: str, user_id: str
    ) -> WriteRecord:
        """The key's record, creating it `in_progress` when new. Call under `write_guard`.

        `done`: replay the ids. `in_progress`: an earlier attempt stopped part-way (killed,
        cancelled, failed); its facts carry the key, so the caller finds them and completes.
        A different payload under the key is a conflict in either state.
        """

        def begin() -> WriteRecord:
            with self._connect() as conn, immediate_transaction(conn):
                row = conn.execute(
                    "SELECT payload_hash, result, state FROM idempotent_writes"
                    " WHERE idempotency_key = ?",
                    (idempotency_key,),
                ).fetchone()
                if row is None:
                    conn.execute(
                        "INSERT INTO idempotent_writes (idempotency_key, payload_hash,"
                        " result, state, user_id, started_at)"
                        " VALUES (?, ?, '[]', 'in_progress', ?, ?)",
                        (idempotency_key, payload_hash, user_id, _now()),
                    )
            if row is None:
                return WriteRecord("new", [])
            if row[0] != payload_hash:
                raise key_reused()
            return WriteRecord(row[2], json.loads(row[1]))

        return await asyncio.to_thread(begin)

    async def complete_write(self, idempotency_key: str, ids: list[str]) -> None:
        def store() -> None:
            with self._connect() as conn:
                conn.execute(
                    "UPDATE idempotent_writes SET state = 'done', result = ?"
                    " WHERE idempotency_key = ?",
                    (json.dumps(ids), idempotency_key),
                )

        await asyncio.to_thread(store)

    async def write_state(self, idempotency_key: str) -> str | None:
        """`in_progress`, `done`, or None; for operators and tests."""

        def load() -> str | None:
            with self._connect() as conn:
                row = conn.execute(
                    "SELECT state FROM idempotent_writes WHERE idempotency_key = ?",
                    (idempotency_key,),
                ).fetchone()
            return None if row is None else row[0]

        return await asyncio.to_thread(load)
