"""Caller facts at the edges of a call: the snapshot for a caller with 50 facts, and the
end-of-call extraction + write, through the engine process (the deployed local path).

    python -m bench.caller_facts [--iterations 50] [--others 2000]

Prints p50/p95 (ms) and the share of snapshots inside MEMORY_PREFETCH_BUDGET_MS.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.kit.caller_memory import CallerMemory, call_write_key
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from memory.extract import Turn, extract_call_facts
from memory.facts import WEEKDAYS, CallerFact
from testkit.engine import stop_engine_if_running

USER = "cust-facts-bench"
TODAY = date(2026, 12, 3)
CALL = [
    "hi, it's about the boiler again",
    "we have three boilers now, we added one upstairs",
    "my boiler is a vaillant ecotec 825",
    "I can't do Thursdays any more",
    "only fridays work now",
    "the door code is 4821 and use the side gate",
    "please text me rather than calling",
    "we moved to 14 oak lane last month",
] * 3


def fifty_facts() -> list[CallerFact]:
    facts = [
        CallerFact("note", f"Detail {i}: the radiator in room {i} rattles", "agent_inferred", 0.6,
                   TODAY - timedelta(days=i), key=f"n{i}")
        for i in range(43)
    ]  # fmt: skip
    facts += [
        CallerFact("availability", "unavailable", "user_stated", 0.9, TODAY, polarity="negative",
                   key=day)
        for day in WEEKDAYS[:5]
    ]  # fmt: skip
    facts += [
        CallerFact("address", "12 Elm Road", "user_stated", 0.9, TODAY),
        CallerFact("equipment_count", "2 boilers", "user_stated", 0.9, TODAY),
    ]
    return facts


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(iterations: int, others: int) -> None:
    budget_ms = MemorySettings(_env_file=None).prefetch_budget_ms
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.sqlite3"
        backend = await connect_local_engine(db)
        try:
            for n in range(0, others, 50):  # other callers in the same file
                batch = [f.to_write() for f in fifty_facts()]
                await backend.remember_many(f"cust-other-{n}", batch, idempotency_key=f"o-{n}")
            await backend.remember_many(
                USER, [f.to_write() for f in fifty_facts()], idempotency_key="mine"
            )
            memory = CallerMemory(backend, SqliteOutbox(Path(tmp) / "outbox.sqlite3"), USER)
            snapshot_ms, shown = [], 0
            for _ in range(iterations):
                snapshot = await memory.prefetch_snapshot(budget_ms=budget_ms)
                snapshot_ms.append(snapshot.elapsed_ms)
                shown = len(snapshot.memories)
            write_ms = []
            for _ in range(iterations):
                started = time.perf_counter()
                call_id = uuid.uuid4().hex
                facts = extract_call_facts(
                    [Turn("user", line) for line in CALL], [], today=TODAY, call_id=call_id,
                )  # fmt: skip
                await memory.remember(
                    [f.to_write() for f in facts],
                    idempotency_key=call_write_key(USER, call_id),
                    timeout_s=3.0,
                )
                write_ms.append((time.perf_counter() - started) * 1000)
        finally:
            await backend.close()
            await stop_engine_if_running(db)
    inside = sum(ms <= budget_ms for ms in snapshot_ms) / len(snapshot_ms)
    print(f"store: {others + 50} memories; caller: 50 facts; snapshot shows {shown}")
    print(
        f"snapshot (recall + render)   p50 {statistics.median(snapshot_ms):6.1f} ms"
        f"  p95 {pct(snapshot_ms, 0.95):6.1f} ms  within {budget_ms} ms: {inside:.0%}"
    )
    shutdown_ms = MemorySettings(_env_file=None).shutdown_write_budget_ms
    print(
        f"end-of-call extract + write  p50 {statistics.median(write_ms):6.1f} ms"
        f"  p95 {pct(write_ms, 0.95):6.1f} ms  (budget {shutdown_ms} ms)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--others", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.iterations, args.others))
