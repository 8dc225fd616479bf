"""Latency of the memory layer on the local engine, one caller, at 1K and 10K memories.

    python -m bench.memory_gate [--sizes 1000 10000] [--iterations 200]

Prints p50/p95 (ms) for: the slot-scoped gate (evaluate_action + report_execution), recall,
and the prefetch task's overhead over a plain recall (no unscoped decide to compare with:
every decision names its slot). In-process engine and through the engine service (the
deployed path).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from memory.facts import SNAPSHOT_QUERY
from testkit.engine import stop_engine_if_running
from testkit.visit_requests import action_request, action_request_slot

BENCH_CALL = "bench-call"


def requested_visit_day(day):  # type: ignore[no-untyped-def]
    """This bench call's request for `day` (pending confirmation)."""
    return action_request("book_visit", "book a service visit", day, BENCH_CALL, today=day)


def visit_day_slot(day):  # type: ignore[no-untyped-def]
    return action_request_slot("book_visit", day, BENCH_CALL)


USER = "cust-bench"
DAY = date(2026, 12, 10)
TOPICS = ["boiler", "radiator", "thermostat", "gate code", "parking", "dog", "invoice", "filter"]


async def seed(engine: LocalEngine, count: int) -> None:
    db = await engine.clients.client_for(USER)
    batch = []
    for i in range(count):
        topic = TOPICS[i % len(TOPICS)]
        batch.append(f"Note {i}: caller mentioned the {topic} on visit {i // len(TOPICS)}")
        if len(batch) == 500:
            await db.factual.add_many(batch, user_id=USER)
            batch = []
    if batch:
        await db.factual.add_many(batch, user_id=USER)
    [wish] = await engine.remember_many(
        USER, [requested_visit_day(DAY)], idempotency_key=f"bench-wish-{count}"
    )
    await engine.confirm(USER, wish.id)


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"p50 {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


async def once(fn: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await fn()
    return (time.perf_counter() - started) * 1000


async def timed(fn: Callable[[], Awaitable[object]], iterations: int) -> list[float]:
    await fn()  # warm
    return [await once(fn) for _ in range(iterations)]


async def measure(backend, label: str, iterations: int, outbox: SqliteOutbox) -> None:  # type: ignore[no-untyped-def]
    slot = visit_day_slot(DAY)

    async def gate() -> None:
        decision = await backend.evaluate_action(USER, "book a visit on thursday", slot=slot)
        assert decision.outcome == "act"
        await backend.report_execution(
            USER,
            decision.decision_id,
            "book_visit",
            "skipped",
            idempotency_key=receipt_idempotency_key(decision.decision_id),
        )

    async def recall() -> None:
        await backend.recall(USER, SNAPSHOT_QUERY, top_k=8)

    memory = CallerMemory(backend, outbox, USER)

    async def prefetch() -> None:
        await memory.prefetch_snapshot(5000)

    print(
        f"  {label:<9} gate (evaluate+report, slot)  {percentiles(await timed(gate, iterations))}"
    )
    # Paired, interleaved samples: the prefetch task's cost over the same recall awaited inline.
    recall_ms, prefetch_ms = [], []
    for _ in range(iterations):
        recall_ms.append(await once(recall))
        prefetch_ms.append(await once(prefetch))
    overhead = statistics.median(p - r for p, r in zip(prefetch_ms, recall_ms, strict=True))
    print(f"  {label:<9} recall                       {percentiles(recall_ms)}")
    print(f"  {label:<9} prefetch task overhead       {overhead:+7.2f} ms (median of paired diffs)")


async def main(sizes: list[int], iterations: int) -> None:
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            db_path = Path(tmp) / "bench.sqlite3"
            outbox = SqliteOutbox(Path(tmp) / "outbox.sqlite3")
            engine = await open_engine(db_path)
            started = time.perf_counter()
            await seed(engine, size)
            print(
                f"{size} memories for one caller (seeded in {time.perf_counter() - started:.1f} s)"
            )
            await measure(engine, "in-proc", iterations, outbox)
            await engine.close()
            client = await connect_local_engine(db_path, idle_exit_s=30)
            await measure(client, "service", iterations, outbox)
            await client.close()
            await stop_engine_if_running(db_path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.sizes, args.iterations))
