"""Durable outbox: receipts and fact writes that could not reach ContextDB yet.

Rows live in a local SQLite file shared by the worker's job processes. A row is written
before the network call it stands for may be lost; it is deleted only after the backend
accepted it. Idempotency keys travel with each row, so a replay after a crash is
exactly-once in effect.

An `intent` row is written before a side effect (a calendar booking) and upgraded to a
sendable row once the outcome is known. If the process dies in between, the flusher later
resolves the intent through a per-action resolver that asks the host system what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from memory.backend import MemoryBackend
from memory.errors import MemoryLayerError, MemoryUnavailable
from memory.models import FactToRemember
from memory.sqlite_file import shared_sqlite

log = logging.getLogger("memory.outbox")

OutboxKind = Literal["receipt", "remember_many"]
IntentResolver = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

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
    last_error TEXT
);
"""


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


class Outbox:
    def __init__(self, path: Path, *, intent_grace_s: float = 120.0) -> None:
        self.path = path
        # An intent younger than this belongs to a live call that is still booking.
        self._intent_grace_s = intent_grace_s
        path.parent.mkdir(parents=True, exist_ok=True)
        with shared_sqlite(self.path) as conn:
            conn.executescript(_SCHEMA)

    async def _run(self, sql: str, params: tuple[Any, ...]) -> None:
        def run() -> None:
            with shared_sqlite(self.path) as conn:
                conn.execute(sql, params)

        await asyncio.to_thread(run)

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        now = time.time()
        await self._run(
            "INSERT OR IGNORE INTO outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'intent', ?, ?)",
            (key, kind, user_id, json.dumps(payload), now, now),
        )

    async def put(self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]) -> None:
        """Make a row sendable now (replacing an intent's provisional payload)."""
        now = time.time()
        await self._run(
            "INSERT INTO outbox (idempotency_key, kind, user_id, payload, state,"
            " next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)"
            " ON CONFLICT(idempotency_key) DO UPDATE SET payload = excluded.payload,"
            " state = 'pending', next_attempt_at = excluded.next_attempt_at"
            " WHERE outbox.state IN ('intent', 'pending')",
            (key, kind, user_id, json.dumps(payload), now, now),
        )

    async def mark_done(self, key: str) -> None:
        await self._run("DELETE FROM outbox WHERE idempotency_key = ?", (key,))

    async def mark_dead(self, key: str, error: str) -> None:
        """Kept, not deleted: a permanent rejection needs a human, not silence."""
        await self._run(
            "UPDATE outbox SET state = 'dead', last_error = ?, lease_until = 0"
            " WHERE idempotency_key = ?",
            (error, key),
        )

    async def reschedule(self, key: str, delay_s: float, error: str) -> None:
        await self._run(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, lease_until = 0,"
            " last_error = ? WHERE idempotency_key = ?",
            (time.time() + delay_s, error, key),
        )

    async def claim_due(self, *, limit: int = 50, lease_s: float = 30.0) -> list[OutboxItem]:
        """Lease due rows so two flushers (two job processes) do not send the same row at once."""

        def claim() -> list[OutboxItem]:
            now = time.time()
            with shared_sqlite(self.path) as conn:
                conn.execute("BEGIN IMMEDIATE")
                rows = conn.execute(
                    "SELECT idempotency_key, kind, user_id, payload, state, attempts, created_at,"
                    " last_error FROM outbox WHERE lease_until <= ? AND ("
                    " (state = 'pending' AND next_attempt_at <= ?)"
                    " OR (state = 'intent' AND created_at <= ? AND next_attempt_at <= ?))"
                    " ORDER BY created_at LIMIT ?",
                    (now, now, now - self._intent_grace_s, now, limit),
                ).fetchall()
                conn.executemany(
                    "UPDATE outbox SET lease_until = ? WHERE idempotency_key = ?",
                    [(now + lease_s, row[0]) for row in rows],
                )
                conn.execute("COMMIT")
            return [
                OutboxItem(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7]) for r in rows
            ]

        return await asyncio.to_thread(claim)

    async def items(self) -> list[OutboxItem]:
        def load() -> list[OutboxItem]:
            with shared_sqlite(self.path) as conn:
                rows = conn.execute(
                    "SELECT idempotency_key, kind, user_id, payload, state, attempts, created_at,"
                    " last_error FROM outbox ORDER BY created_at"
                ).fetchall()
            return [
                OutboxItem(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7]) for r in rows
            ]

        return await asyncio.to_thread(load)


async def deliver(backend: MemoryBackend, item: OutboxItem) -> None:
    """Send one row's call with its original idempotency key."""
    payload = item.payload
    if item.kind == "receipt":
        await backend.report_execution(
            item.user_id,
            payload["decision_id"],
            payload["action_name"],
            payload["status"],
            idempotency_key=item.idempotency_key,
            external_ref=payload.get("external_ref"),
            error_code=payload.get("error_code"),
        )
    elif item.kind == "remember_many":
        facts = [FactToRemember(**fact) for fact in payload["facts"]]
        await backend.remember_many(item.user_id, facts, idempotency_key=item.idempotency_key)
    else:
        raise ValueError(f"unknown outbox kind {item.kind!r}")


@dataclass
class OutboxFlusher:
    """Retries outbox rows with capped exponential backoff and jitter."""

    outbox: Outbox
    backend: MemoryBackend
    intent_resolvers: Mapping[str, IntentResolver]
    base_delay_s: float = 1.0
    max_delay_s: float = 300.0
    # A flusher that dies holding a lease blocks its rows for this long, no longer.
    lease_s: float = 30.0

    async def flush_once(self) -> int:
        """Deliver what is due; returns how many rows landed."""
        landed = 0
        for item in await self.outbox.claim_due(lease_s=self.lease_s):
            if item.state == "intent":
                item = await self._resolve_intent(item)
            try:
                await deliver(self.backend, item)
            except MemoryUnavailable as exc:
                delay = exc.retry_after_s or self._backoff(item.attempts)
                await self.outbox.reschedule(item.idempotency_key, delay, str(exc))
                continue
            except MemoryLayerError as exc:
                log.error("outbox row %s rejected permanently: %s", item.idempotency_key, exc)
                await self.outbox.mark_dead(item.idempotency_key, f"{exc.code}: {exc}")
                continue
            await self.outbox.mark_done(item.idempotency_key)
            landed += 1
        return landed

    async def _resolve_intent(self, item: OutboxItem) -> OutboxItem:
        """The process died between recording an intent and knowing the outcome."""
        resolver = self.intent_resolvers.get(item.payload.get("action_name", ""))
        if resolver is None:
            outcome = {"status": "failed", "error_code": "execution_outcome_unknown"}
        else:
            outcome = await resolver(item.payload)
        payload = {**item.payload, **outcome}
        payload.pop("intent", None)
        await self.outbox.put(item.idempotency_key, item.kind, item.user_id, payload)
        return OutboxItem(
            item.idempotency_key,
            item.kind,
            item.user_id,
            payload,
            "pending",
            item.attempts,
            item.created_at,
            item.last_error,
        )

    def _backoff(self, attempts: int) -> float:
        delay = min(self.max_delay_s, self.base_delay_s * 2**attempts)
        return delay * random.uniform(0.5, 1.0)

    async def run(self, stop: asyncio.Event, *, interval_s: float = 2.0) -> None:
        """Background loop for the worker's lifetime; never raises."""
        while not stop.is_set():
            try:
                await self.flush_once()
            except Exception:
                log.exception("outbox flush failed; will retry")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval_s)
