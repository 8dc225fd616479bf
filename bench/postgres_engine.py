"""Recall cost on the shared Postgres as the store grows across callers (DATABASE_URL mode).

    python -m bench.postgres_engine [--quick] [--iterations 100]

Starts a loopback Postgres (testkit.postgres, or DATABASE_URL_FOR_TESTS), grows one database
to 1K, 10K and 100K memories (20 per caller; `--quick`: 1K and 10K) and at each size prints,
for a caller with 20 memories, p50/p95 in ms of:
- `open`: the caller's first use in a job process (scoped engine client + schema check);
- `recall`: warm recall through `LocalEngine` (what the snapshot and turn recall pay);
- `recall after a foreign write`: another host wrote since, so the store reloads its
  process-local vector index — for the caller only, because the client is scoped;
- `slot decision`: `evaluate_action` on one slot (the gate), ledger row included;
- the same recall-after-write on one unscoped client (pycontextdb's shared-client mode),
  which reloads every caller's vectors: the reason the engine scopes per caller.
Sizes are measured in one run, so the ratios are the result, not the absolute numbers.

The store is grown like bench.recall_growth: the measured caller is written through the
engine, every other caller is an SQL copy of a template caller's rows under new ids.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from datetime import date

import asyncpg
import contextdb

from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from memory.facts import CallerFact
from testkit.postgres import create_database, running_postgres
from testkit.visit_requests import action_request_slot

PER_CALLER = 20
TARGET = "bench-target"
TEMPLATE = "bench-template"


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"{statistics.median(ordered) * 1000:7.1f} / {p95 * 1000:7.1f}"


def caller_facts(i: int) -> list[FactToRemember]:
    facts = [
        FactToRemember(
            f"Caller mentioned detail number {i}-{n} about the boiler", "user_stated", 0.9
        )
        for n in range(PER_CALLER - 2)
    ]
    day = date(2026, 12, 7)
    facts.append(CallerFact("equipment_count", "2 boilers", "user_stated", 0.9, day).to_write())
    facts.append(CallerFact("preferred_day", "thursday", "user_stated", 0.9, day).to_write())
    return facts


async def grow_to(url: str, total: int) -> None:
    """Copy the template caller's rows until the store holds `total` memories."""
    conn = await asyncpg.connect(url)
    try:
        have = await conn.fetchval("SELECT count(*) FROM memories")
        callers = (total - have) // PER_CALLER
        if callers <= 0:
            return
        columns = [
            row["column_name"]
            for row in await conn.fetch(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_name = 'memories' ORDER BY ordinal_position"
            )
        ]
        chosen = ", ".join(
            "gen_random_uuid()::text"
            if c == "id"
            else "'bench-' || g.n::text || '-' || $1"
            if c == "user_id"
            else f"m.{c}"
            for c in columns
        )
        batch = uuid.uuid4().hex[:6]
        await conn.execute(
            f"INSERT INTO memories ({', '.join(columns)}) SELECT {chosen}"
            " FROM memories m CROSS JOIN generate_series(1, $2) AS g(n)"
            " WHERE m.user_id = $3",
            batch,
            callers,
            TEMPLATE,
        )
        await conn.execute("ANALYZE memories")
    finally:
        await conn.close()


async def foreign_write(url: str, i: int) -> None:
    """Another host's write: bumps the store revision every process watches."""
    database = SharedDatabase(url)
    engine = await connect_engine(database)
    try:
        await engine.remember_many(
            f"bench-writer-{i % 5}",
            [FactToRemember(f"Writer note {i}", "agent_inferred", 0.5)],
            idempotency_key=f"bench-foreign-{i}-{uuid.uuid4().hex[:6]}",
        )
    finally:
        await engine.close()
        await database.close()


async def measure(url: str, size: int, iterations: int, unscoped_too: bool) -> None:
    slot = action_request_slot("book_visit", date(2026, 12, 10), "bench-call")
    opens, recalls, reloads, decisions, unscoped = [], [], [], [], []
    for i in range(iterations):
        database = SharedDatabase(url)
        engine = await connect_engine(database)
        try:
            started = time.perf_counter()
            await engine.client_for(TARGET)
            opens.append(time.perf_counter() - started)
            await engine.recall(TARGET, "what do we know about this caller")
            started = time.perf_counter()
            await engine.recall(TARGET, "boiler details and availability")
            recalls.append(time.perf_counter() - started)
            await foreign_write(url, i)
            started = time.perf_counter()
            await engine.recall(TARGET, "boiler details and availability")
            reloads.append(time.perf_counter() - started)
            started = time.perf_counter()
            await engine.evaluate_action(TARGET, "book a visit", slot=slot)
            decisions.append(time.perf_counter() - started)
        finally:
            await engine.close()
            await database.close()
    print(f"{size:>7} memories  open            {ms(opens)}")
    print(f"{'':>7}           recall          {ms(recalls)}")
    print(f"{'':>7}           recall after a foreign write {ms(reloads)}")
    print(f"{'':>7}           slot decision   {ms(decisions)}")
    if unscoped_too:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
        shared = contextdb.init(
            storage_url=url, postgres_pool=pool, embedding_model="mock", llm_model="mock",
            enable_read_audit=False,
        )  # fmt: skip
        try:
            for i in range(max(3, iterations // 10)):
                await foreign_write(url, 10_000 + i)
                started = time.perf_counter()
                await shared.factual.recall("boiler details", top_k=5, user_id=TARGET)
                unscoped.append(time.perf_counter() - started)
        finally:
            await shared.close()
            await pool.close()
        print(f"{'':>7}           unscoped client, recall after a foreign write {ms(unscoped)}")


async def run(url: str, sizes: list[int], iterations: int) -> None:
    database = SharedDatabase(url)
    engine = await connect_engine(database)
    try:
        for who in (TARGET, TEMPLATE):
            await engine.remember_many(who, caller_facts(0), idempotency_key=f"seed-{who}")
    finally:
        await engine.close()
        await database.close()
    print("p50 / p95 ms, caller with 20 memories, per store size")
    for size in sizes:
        await grow_to(url, size)
        await measure(url, size, iterations, unscoped_too=size <= 10_000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]

    async def go(server_url: str) -> None:
        url = await create_database(server_url, f"bench_{uuid.uuid4().hex[:8]}")
        await run(url, sizes, args.iterations)

    with running_postgres() as server:
        asyncio.run(go(server.url))


if __name__ == "__main__":
    main()
