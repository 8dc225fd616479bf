from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.kit.caller_memory import CallerMemory, call_write_key
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.fakes import FlakyBackend
from tests.memory.support import day_slot, plain_fact

ROOT = Path(__file__).resolve().parents[2]
SLOT = day_slot(date(2026, 12, 10))


async def test_killed_flusher_every_receipt_lands_exactly_once(
    tmp_path: Path, engine_service, engine_db, user_id
) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    decisions = []
    for _ in range(30):
        decision = await engine_service.evaluate_action(user_id, "book", slot=SLOT)
        decisions.append(decision)
        await outbox.put(
            receipt_idempotency_key(decision.decision_id),
            "receipt",
            user_id,
            {"decision_id": decision.decision_id, "action_name": "book_visit", "status": "skipped"},
            hold=False,
        )

    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.memory.flush_worker", str(outbox.path), str(engine_db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    delivered = 0
    while delivered < 5:  # kill it mid-way, after some deliveries
        line = await asyncio.to_thread(proc.stdout.readline)
        assert line, "flusher exited before it was killed"
        delivered += line.startswith("delivered")
    proc.kill()
    proc.wait()
    remaining = await outbox.items()
    assert 0 < len(remaining) < 30

    await asyncio.sleep(0.6)  # the dead flusher's leases expire
    flusher = OutboxFlusher(outbox, engine_service, {}, lease_s=0.5)
    while await flusher.flush_once():
        pass
    assert await outbox.items() == []
    for decision in decisions:
        found = await engine_service.report_execution(
            user_id,
            decision.decision_id,
            "book_visit",
            "skipped",
            idempotency_key=receipt_idempotency_key(decision.decision_id),
        )  # a replay: returns the one stored receipt, never a second one
        assert found.receipt.status == "skipped"


async def test_crash_between_intent_and_receipt_is_resolved(
    tmp_path: Path, local_engine, user_id
) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    [wish] = await local_engine.remember_many(
        user_id,
        [plain_fact("placeholder")],
        idempotency_key="k-placeholder",
    )
    decision = await local_engine.evaluate_action(user_id, "book", slot=SLOT)
    key = receipt_idempotency_key(decision.decision_id)
    # What the gate writes before booking; then the process "dies".
    await outbox.record_intent(
        key,
        "receipt",
        user_id,
        {"decision_id": decision.decision_id, "action_name": "book_visit", "day": "2026-12-10"},
    )
    asked = []

    async def resolve(payload):  # the host system says whether the booking happened
        asked.append(payload["day"])
        return {"status": "succeeded", "external_ref": "bk_recovered"}

    flusher = OutboxFlusher(outbox, local_engine, {"book_visit": resolve})
    assert await flusher.flush_once() == 1
    assert asked == ["2026-12-10"]
    receipt = await local_engine.receipt_for(user_id, decision.decision_id)
    assert receipt.receipt.external_ref == "bk_recovered"
    assert wish.id  # unrelated memory untouched


async def test_unresolvable_intent_reports_unknown_outcome(tmp_path, local_engine, user_id):
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    decision = await local_engine.evaluate_action(user_id, "cancel", slot=SLOT)
    await outbox.record_intent(
        receipt_idempotency_key(decision.decision_id),
        "receipt",
        user_id,
        {"decision_id": decision.decision_id, "action_name": "cancel_visit"},
    )
    await OutboxFlusher(outbox, local_engine, {}).flush_once()
    receipt = await local_engine.receipt_for(user_id, decision.decision_id)
    assert (receipt.receipt.status, receipt.receipt.error_code) == (
        "failed",
        "execution_outcome_unknown",
    )


async def test_young_intent_is_left_to_the_live_call(tmp_path, local_engine, user_id):
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=300)
    await outbox.record_intent("receipt:young-intent", "receipt", user_id, {"decision_id": "x"})
    assert await OutboxFlusher(outbox, local_engine, {}).flush_once() == 0
    assert [i.state for i in await outbox.items()] == ["intent"]


async def test_fact_write_while_backend_down_is_kept_and_lands_once(
    tmp_path, local_engine, user_id
) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    backend = FlakyBackend(local_engine, failing={"remember_many"})
    memory = CallerMemory(backend, outbox, user_id)
    key = call_write_key(user_id, "call-1")
    outcome = await memory.remember(
        [plain_fact("My boiler is in the loft")], idempotency_key=key, timeout_s=1
    )
    assert (outcome.written, outcome.queued) == (0, 1)
    assert [i.kind for i in await outbox.items()] == ["remember_many"]

    backend.down = False
    flusher = OutboxFlusher(outbox, backend, {}, base_delay_s=0)
    await outbox.settle(key, MemoryUnavailable("retry now"), delay_s=0)
    assert await flusher.flush_once() == 1
    await outbox.put(
        key,
        "remember_many",
        user_id,
        {"facts": [plain_fact("My boiler is in the loft").as_item()]},
        hold=False,
    )
    assert await flusher.flush_once() == 1  # a duplicate row replays, it does not store twice
    recalled = await local_engine.recall(user_id, "boiler loft", top_k=10)
    assert sum("loft" in m.content for m in recalled.memories) == 1


async def test_backoff_grows_and_honours_retry_after(tmp_path, local_engine, user_id):
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    flusher = OutboxFlusher(outbox, local_engine, {}, base_delay_s=1, max_delay_s=60)
    delays = [flusher._backoff(n) for n in range(8)]
    assert all(0.5 * min(60, 2**n) <= d <= min(60, 2**n) for n, d in enumerate(delays))
    assert max(delays) <= 60

    class RateLimited:
        async def report_execution(self, *args, **kwargs):
            raise MemoryUnavailable("slow down", code="rate_limited", retry_after_s=42)

    await outbox.put(
        "receipt:rate-limited",
        "receipt",
        user_id,
        {"decision_id": "d", "action_name": "book_visit", "status": "skipped"},
        hold=False,
    )
    assert await OutboxFlusher(outbox, RateLimited(), {}).flush_once() == 0
    with sqlite3.connect(outbox.path) as conn:
        next_at, attempts = conn.execute("SELECT next_attempt_at, attempts FROM outbox").fetchone()
    assert attempts == 1
    assert 40 <= next_at - time.time() <= 43
