"""Exactly-once under faults: fact writes on the local engine and outbox flushes
(issue 14 item 1, issue 11).

A write is interrupted at every step — by an injected exception, by `kill -9` of the
process doing it, by `kill -9` of the engine service mid-burst, and by two sends racing
with one key — and then replayed; a flusher process is killed at every step of every row
kind and a second one finishes. Counted afterwards: facts stored twice, facts lost,
decisions without exactly one receipt.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from billing_client import LocalBilling
from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.memory.errors import MemoryConflict, MemoryUnavailable
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.engine import stop_engine
from testkit.fault_points import with_faults
from tests.memory.fault_facts import BATCH_STEPS, DAY_SLOT, batch
from tests.memory.support import day_slot as visit_day_slot
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

ROOT = Path(__file__).resolve().parents[2]


class Injected(RuntimeError):
    pass


async def fact_counts(engine: LocalEngine, user_id: str) -> Counter[str]:
    facts = await engine.clients.db.factual.list_facts(limit=100_000, user_id=user_id)
    return Counter(f.content for f in facts)


async def assert_exactly_once(engine: LocalEngine, user_id: str, keys: list[str]) -> None:
    counts = await fact_counts(engine, user_id)
    for key in keys:
        for fact in batch(key)[:2]:
            assert counts[fact.content] == 1, (fact.content, counts[fact.content])
    day_fact = batch(keys[0])[2].content
    assert counts[day_fact] == 1, counts[day_fact]  # the same slotted value is stored once
    [current] = await engine.clients.db.slot_facts(
        DAY_SLOT.entity, DAY_SLOT.attribute, user_id=user_id
    )
    # A replay from the engine's one speaker never counts as independent corroboration.
    assert current.corroboration_count == 1
    for key in keys:
        assert await engine.ledger.write_state(key) == "done"


@pytest.mark.parametrize("step", BATCH_STEPS)
@pytest.mark.parametrize("restart", [False, True], ids=["retry", "restart"])
async def test_write_interrupted_at_each_step_is_completed_by_replay(
    tmp_path: Path, user_id: str, step: str, restart: bool
) -> None:
    db_path = tmp_path / "memory.sqlite3"
    engine = await open_engine(db_path)
    key = f"facts:{step}"

    async def fail_at(reached: str) -> None:
        if reached == step:
            raise Injected(reached)

    with pytest.raises(Injected):
        await with_faults(engine, fail_at).remember_many(user_id, batch(key), idempotency_key=key)
    if restart:
        await engine.close()
        engine = await open_engine(db_path)
    try:
        replayed = await engine.remember_many(user_id, batch(key), idempotency_key=key)
        again = await engine.remember_many(user_id, batch(key), idempotency_key=key)
        assert [m.id for m in replayed] == [m.id for m in again]
        assert len(replayed) == 3
        await assert_exactly_once(engine, user_id, [key])
    finally:
        await engine.close()


@pytest.mark.parametrize("step", BATCH_STEPS)
async def test_process_killed_at_each_step_loses_and_doubles_nothing(
    tmp_path: Path, user_id: str, step: str
) -> None:
    db_path = tmp_path / "memory.sqlite3"
    key = f"facts:kill:{step}"
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "tests.memory.fault_write_worker", str(db_path), user_id, key, step],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stdout, proc.stderr)
    assert "finished" not in proc.stdout
    engine = await open_engine(db_path)
    try:
        expected_state = "done" if step == "recorded" else "in_progress"
        assert await engine.ledger.write_state(key) == expected_state
        await engine.remember_many(user_id, batch(key), idempotency_key=key)
        await assert_exactly_once(engine, user_id, [key])
    finally:
        await engine.close()


async def test_concurrent_sends_with_one_key_store_once(tmp_path: Path, user_id: str) -> None:
    engine = await open_engine(tmp_path / "memory.sqlite3")
    try:
        results = await asyncio.gather(
            *(engine.remember_many(user_id, batch("k-same"), idempotency_key="k-same")
              for _ in range(8))
        )  # fmt: skip
        assert len({tuple(m.id for m in r) for r in results}) == 1
        await assert_exactly_once(engine, user_id, ["k-same"])
    finally:
        await engine.close()


async def test_key_reused_with_another_payload_conflicts_even_mid_write(
    tmp_path: Path, user_id: str
) -> None:
    engine = await open_engine(tmp_path / "memory.sqlite3")

    async def fail_after_first(reached: str) -> None:
        if reached == "fact:0":
            raise Injected(reached)

    try:
        with pytest.raises(Injected):
            faulty = with_faults(engine, fail_after_first)
            await faulty.remember_many(user_id, batch("k-x"), idempotency_key="k-x")
        with pytest.raises(MemoryConflict):
            await engine.remember_many(user_id, batch("k-other"), idempotency_key="k-x")
    finally:
        await engine.close()


async def test_engine_service_killed_mid_burst_stores_each_fact_once(tmp_path: Path) -> None:
    """`kill -9` of the engine process twice while 4 callers' writes are in flight; every
    write is retried with its key until it lands (what the outbox does)."""
    db_path = tmp_path / "burst.sqlite3"
    client = await connect_local_engine(db_path, idle_exit_s=120)
    users = [f"cust-burst-{n}" for n in range(4)]
    keys = {user: [f"facts:{user}:{i}" for i in range(15)] for user in users}
    landed: list[str] = []
    retries = Counter[str]()
    gate = asyncio.Semaphore(8)

    answered: dict[str, str] = {}  # decision id -> user, for decisions the caller saw

    async def until_answered(key: str, call):  # type: ignore[no-untyped-def]
        # Retried until it lands, however long the engine takes to come back (a busy host
        # restarts it in seconds); a write that never lands fails the test at the overall
        # timeout below, not after a count of retries that is really a time limit.
        while True:
            try:
                return await call()
            except MemoryUnavailable:
                retries[key] += 1
                await asyncio.sleep(0.05)

    async def write(user: str, key: str) -> None:
        async with gate:
            await until_answered(
                key, lambda: client.remember_many(user, batch(key), idempotency_key=key)
            )
            landed.append(key)
            slot = visit_day_slot(date(2026, 12, 10))
            decision = await until_answered(
                key, lambda: client.evaluate_action(user, "book", slot=slot)
            )
            answered[decision.decision_id] = user
            await until_answered(
                key,
                lambda: client.report_execution(
                    user, decision.decision_id, "book_visit", "skipped",
                    idempotency_key=receipt_idempotency_key(decision.decision_id),
                ),
            )  # fmt: skip

    kills = 0

    async def killer() -> None:
        nonlocal kills
        for threshold in (8, 30):
            while len(landed) < threshold:
                await asyncio.sleep(0.005)
            os.kill(await client.engine_pid(), signal.SIGKILL)
            kills += 1

    try:
        await asyncio.wait_for(
            asyncio.gather(killer(), *(write(u, k) for u in users for k in keys[u])),
            timeout=240,
        )
    finally:
        await client.close()
    assert kills == 2
    assert sum(retries.values()) > 0, "no write was in flight when the engine died"
    await stop_engine(db_path)
    engine = await open_engine(db_path)
    try:
        for user in users:
            await assert_exactly_once(engine, user, keys[user])
            trail = await engine.decision_trail(user)
            # Every decision its caller saw has its one receipt (the ledger allows no second).
            seen = [d for d in trail if answered.get(d.decision_id) == user]
            assert len(seen) == len(keys[user])
            assert all(d.status == "skipped" for d in seen)
    finally:
        await engine.close()
    print(f"engine kills: {kills}, keys retried after a kill: {len(retries)}")


FLUSH_KILLS = [
    (step, kind)
    for step in ("claimed", "renewed", "resolved", "delivered")
    for kind in ("receipt", "remember_many", "intent")
    if step != "resolved" or kind == "intent"
]


@pytest.mark.parametrize(("step", "kind"), FLUSH_KILLS)
async def test_flusher_killed_at_each_step_delivers_each_row_once(
    tmp_path: Path, engine_service, engine_db: Path, user_id: str, step: str, kind: str
) -> None:
    """kill -9 of a flusher process at every step for every row kind; a second flusher
    finishes. Each decision ends with exactly one receipt, each fact is stored once."""
    day = date(2026, 12, 10)
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    calendar = LocalCalendar(tmp_path / "calendar.sqlite3", today=date(2026, 12, 7))
    plain = await engine_service.evaluate_action(user_id, "book", slot=visit_day_slot(day))
    booked = await engine_service.evaluate_action(user_id, "book", slot=visit_day_slot(day))
    await outbox.put(
        receipt_idempotency_key(plain.decision_id), "receipt", user_id,
        {"decision_id": plain.decision_id, "action_name": "book_visit", "status": "skipped"},
        hold=False,
    )  # fmt: skip
    notes = batch(f"flush:{step}:{kind}")[:2]
    await outbox.put(f"facts:{user_id}", "remember_many", user_id,
                     {"facts": [f.as_item() for f in notes]}, hold=False)  # fmt: skip
    intent_key = receipt_idempotency_key(booked.decision_id)
    await outbox.record_intent(
        intent_key, "receipt", user_id,
        {"decision_id": booked.decision_id, "action_name": "book_visit", "customer_id": user_id,
         "target": day.isoformat(), "host_key": intent_key, "intent": True},
    )  # fmt: skip
    booking = await calendar.book(user_id, day, 1, idempotency_key=intent_key)

    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "tests.memory.fault_flush_worker", str(outbox.path),
         str(engine_db), str(calendar.path), step, kind],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stdout, proc.stderr)
    await asyncio.sleep(1.1)  # the dead flusher's leases expire
    flusher = OutboxFlusher(
        outbox,
        engine_service,
        LINE_ACTIONS.resolvers(
            VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
        ),
    )
    while await flusher.flush_once():
        pass
    assert await outbox.items() == []
    trail = {d.decision_id: d for d in await engine_service.decision_trail(user_id)}
    assert trail[plain.decision_id].status == "skipped"
    assert (trail[booked.decision_id].status, trail[booked.decision_id].external_ref) == (
        "succeeded",
        booking.booking_id,
    )
    recalled = await engine_service.recall(user_id, "note", top_k=20)
    contents = Counter(m.content for m in recalled.memories)
    assert [contents[f.content] for f in notes] == [1, 1]
