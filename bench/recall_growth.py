"""Recall cost as the local engine's store grows across callers, before and after statistics.

    python -m bench.recall_growth [--quick] [--iterations 200] [--embedding-model mock]

Grows one engine file to 1K, 10K and 100K memories (20 per caller: 50, 500 and 5,000 callers;
`--quick`: 1K and 10K) and at each size prints, for a caller with 20 memories:
- recall p50/p95 (ms) with pycontextdb's own open (no statistics: the baseline) and with
  `open_engine` (statistics kept, `stores.sqlite.stats`), on copies of the same file;
- the slot read (`slot_facts`) p50/p95;
- the call-start snapshot hit rate: recalls that land within MEMORY_PREFETCH_BUDGET_MS
  (300 ms), each for a different caller, through
  `contextdb_livekit.kit.caller_memory.recall_within`;
- the first recall after open (the engine loads every vector into its process-local index)
  and the indexes the engine's scoped queries used.
Samples are taken round-robin across the sizes, so load from other work on the machine falls
on every size alike and the p95 ratio within one run is meaningful. A series past BUDGET_S
stops at MIN_SAMPLES (the 100K baseline costs seconds a recall); `n=` says how many it took.
With `--embedding-model onnx-minilm` it also prints the uncached query-embedding cost.

How the store is grown (and why it is legitimate): the measured caller and one template caller
are written through the engine's own API, so their rows are exactly what the engine stores
(slot keys, trust fields, embeddings from the chosen model). Every other caller is a copy of
the template's rows under a new id, user id, text and timestamps, inserted in bulk in the
engine's own column layout, with a random unit vector of the engine's dimension in place of an
embedding (other callers' vectors are never ranked for the measured caller: recall is scoped
before ranking). Building 100K rows through `add()` would take ~20 minutes; this takes
seconds. Built files are cached under $RECALL_BENCH_CACHE (default: the temp dir) keyed by the
parameters, so a rerun is fast.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np

from contextdb_livekit.api import Confidence
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import (
    SqliteEngineClients,
    ledger_path,
    open_client,
    open_engine,
)
from contextdb_livekit.kit.caller_memory import recall_within
from contextdb_livekit.memory.embedders import provider_for
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.stats import connection_idle, has_statistics, traced_plans
from memory.facts import CALLER_FACTS, SNAPSHOT_QUERY, CallerFact
from testkit.visit_requests import action_request, action_request_slot

MEMORIES_PER_CALLER = 20
BENCH_CALL = "bench-call"
PREFETCH_BUDGET_MS = (
    300  # MEMORY_PREFETCH_BUDGET_MS default (src/contextdb_livekit/memory/settings.py)
)
DAY = date(2026, 12, 10)
MEASURED = "caller-measured"
TEMPLATE = "caller-template"
# Bump when the way files are built changes, so a stale cache is never reused.
BUILD_VERSION = 3
# Past BUDGET_S a series stops at this many samples (the 100K baseline costs seconds each).
MIN_SAMPLES = {"recall": 12, "slot": 12, "snapshot": 10}
BUDGET_S = 25.0  # wall time per measured series

NOTES = [
    "{name} has a {brand} combi boiler fitted in {year}",
    "{name} prefers morning visits before 11",
    "{name} keeps the gate code with the neighbour at number {n}",
    "The radiator in {name}'s back bedroom is cold at the top",
    "{name}'s thermostat is a {brand} smart unit in the hallway",
    "{name} has a dog that must be shut in the kitchen during visits",
    "Parking outside {name}'s house is permit only, visitor permit in the porch",
    "{name} asked for the invoice to be emailed, not posted",
    "The boiler pressure at {name}'s drops to 0.5 bar every few weeks",
    "{name} had a filter replaced on visit {n}",
    "{name} works from home on Tuesdays and Thursdays",
    "{name}'s loft hatch is in the landing cupboard",
    "The last engineer at {name}'s noted a weeping valve under the sink",
    "{name} would like a reminder call the day before",
    "{name}'s water meter is under the front path",
    "{name} mentioned the hot water takes a long time to come through",
    "{name} has a service plan renewing in {year}",
    "{name} asked about a power flush quote",
    "{name}'s side door sticks, use the front door",
]
BRANDS = ["Worcester", "Vaillant", "Baxi", "Ideal", "Viessmann", "Nest", "Hive", "Tado"]


def _notes_for(name: str, seed: int) -> list[str]:
    return [
        text.format(
            name=name,
            brand=BRANDS[(seed + i) % len(BRANDS)],
            year=2015 + (seed + i) % 10,
            n=(seed * 7 + i) % 97,
        )
        for i, text in enumerate(NOTES)
    ]


def _facts_for(name: str, seed: int) -> list[FactToRemember]:
    """19 notes plus the requested visit day: the shape of a caller after a few calls.

    Written as the extractor writes a caller's note (kind `note`, its own `caller/note_*`
    slot): the snapshot shows typed caller facts only, so untyped text would recall but
    never render, and every snapshot would count as a miss."""
    notes = [
        CallerFact(
            kind="note",
            value=text,
            source="user_stated",
            confidence=Confidence.CALLER,
            observed_on=DAY,
            key=hashlib.sha256(text.encode()).hexdigest()[:16],
        ).to_write()
        for text in _notes_for(name, seed)
    ]
    return [
        *notes,
        action_request("book_visit", "book a service visit", DAY, BENCH_CALL, today=DAY),
    ]


async def _open(path: Path, *, model: str, statistics_on: bool) -> LocalEngine[SqliteEngineClients]:
    """The engine as the worker opens it, or (the baseline) on pycontextdb's own open."""
    if statistics_on:
        return await open_engine(path, embedding_model=model)
    clients = SqliteEngineClients(await open_client(path, embedding_model=model))
    return LocalEngine(clients, SqliteDecisionLedger(ledger_path(path)))


async def _write_caller(engine: LocalEngine, user_id: str, seed: int) -> None:
    await engine.remember_many(
        user_id, _facts_for(user_id, seed), idempotency_key=f"bench-{user_id}"
    )


def _unit_vectors(rng: np.random.Generator, count: int, dim: int) -> np.ndarray:
    vectors = rng.standard_normal((count, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def copy_caller_rows(
    path: Path, template_user: str, targets: list[str], *, seed: int, status: str | None = None
) -> int:
    """Insert a copy of `template_user`'s rows for each user id in `targets` (ids may repeat),
    in the engine's own column layout, in one transaction. Returns the rows inserted.

    Each copy gets a new id, the target's name in its text, a timestamp a minute older than
    the previous copy (created_at orders lexical recall) and a random unit vector; `status`
    overrides the lifecycle state (tests use it to make misleading statistics).
    """
    conn = sqlite3.connect(path)
    try:
        cursor = conn.execute("SELECT * FROM memories WHERE user_id = ?", (template_user,))
        columns = [d[0] for d in cursor.description]
        template = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        if not template:
            raise RuntimeError(f"{template_user} has no rows to copy")
        dim = int(template[0]["embedding_dim"])
        rng = np.random.default_rng(seed)
        base = datetime.fromisoformat(template[0]["created_at"])
        placeholders = ",".join("?" * len(columns))
        sql = f"INSERT INTO memories ({','.join(columns)}) VALUES ({placeholders})"
        inserted = 0
        for start in range(0, len(targets), 500):
            chunk = targets[start : start + 500]
            vectors = _unit_vectors(rng, len(chunk) * len(template), dim)
            rows = []
            for offset, user_id in enumerate(chunk):
                stamp = (base - timedelta(minutes=start + offset + 1)).isoformat()
                for index, row in enumerate(template):
                    copy = dict(row)
                    copy["id"] = str(uuid.uuid4())
                    copy["user_id"] = user_id
                    copy["content"] = row["content"].replace(template_user, user_id)
                    copy["embedding"] = vectors[offset * len(template) + index].tobytes()
                    copy["created_at"] = copy["updated_at"] = copy["ingestion_time"] = stamp
                    if status is not None:
                        copy["status"] = status
                    rows.append(tuple(copy[c] for c in columns))
            conn.executemany(sql, rows)
            inserted += len(rows)
        # The engine's process-local vector index reloads when this revision moves.
        conn.execute(
            "UPDATE contextdb_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
            "WHERE key LIKE 'index_revision%'"
        )
        conn.commit()
        return inserted
    finally:
        conn.close()


def _caller(index: int) -> str:
    return f"caller-{index:06d}"


@dataclass(frozen=True)
class BuildKey:
    sizes: tuple[int, ...]
    embedding_model: str

    def digest(self) -> str:
        payload = json.dumps([BUILD_VERSION, self.sizes, self.embedding_model, MEMORIES_PER_CALLER])
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _cache_dir(key: BuildKey) -> Path:
    root = Path(os.environ.get("RECALL_BENCH_CACHE", Path(tempfile.gettempdir()) / "recall-growth"))
    return root / key.digest()


def _copy_store(src: Path, dst: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{src}{suffix}").exists():
            shutil.copyfile(f"{src}{suffix}", f"{dst}{suffix}")


async def build_files(key: BuildKey) -> dict[int, Path]:
    """One stats-free engine file per size, grown from the previous size. Cached."""
    cache = _cache_dir(key)
    done = cache / "done.json"
    files = {size: cache / f"store-{size}.sqlite3" for size in key.sizes}
    if done.exists() and all(p.exists() for p in files.values()):
        return files
    cache.mkdir(parents=True, exist_ok=True)
    work = cache / "growing.sqlite3"
    for stale in cache.glob("growing.sqlite3*"):
        stale.unlink()
    engine = await _open(work, model=key.embedding_model, statistics_on=False)
    try:
        await _write_caller(engine, MEASURED, 0)
        await _write_caller(engine, TEMPLATE, 1)
    finally:
        await engine.close()
    callers = 2
    for size in key.sizes:
        target = size // MEMORIES_PER_CALLER
        started = time.perf_counter()
        copy_caller_rows(work, TEMPLATE, [_caller(i) for i in range(callers, target)], seed=size)
        callers = target
        _checkpoint(work)
        shutil.copyfile(work, files[size])
        print(
            f"  built {size:>7} memories / {target} callers in "
            f"{time.perf_counter() - started:.1f} s -> {files[size]}",
            flush=True,
        )
    done.write_text(json.dumps({"sizes": list(key.sizes)}))
    return files


def _checkpoint(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _index_of(plan: str) -> str:
    """The index a plan line uses ("SEARCH memories USING INDEX x (...)" -> "x")."""
    words = plan.replace(";", " ").split()
    if "INDEX" in words:
        return words[words.index("INDEX") + 1]
    return "PRIMARY KEY" if "PRIMARY" in words or "INTEGER" in words else plan


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return statistics.median(ordered), p95


@dataclass(frozen=True)
class Figures:
    samples: int
    recall: tuple[float, float]
    slot: tuple[float, float]
    hit_rate: float
    first_recall_ms: float
    plan: str


@dataclass
class Series:
    """One engine under measurement: one file at one size, with or without statistics."""

    size: int
    engine: LocalEngine[SqliteEngineClients]
    first_recall_ms: float
    plan: str
    recall_ms: list[float]
    slot_ms: list[float]
    snapshots: int = 0
    hits: int = 0

    def figures(self) -> Figures:
        return Figures(
            len(self.recall_ms),
            percentiles(self.recall_ms),
            percentiles(self.slot_ms),
            self.hits / max(1, self.snapshots),
            self.first_recall_ms,
            self.plan,
        )


async def _open_series(path: Path, size: int, *, statistics_on: bool, model: str) -> Series:
    engine = await _open(path, model=model, statistics_on=statistics_on)
    assert has_statistics(path) == statistics_on, "the baseline file must have no statistics"
    started = time.perf_counter()
    # The first recall after open loads every vector into the engine's process-local index.
    _, plans = await traced_plans(
        engine.clients.db, engine.recall(MEASURED, SNAPSHOT_QUERY, top_k=8)
    )
    first = (time.perf_counter() - started) * 1000
    slot = action_request_slot("book_visit", DAY, BENCH_CALL)
    found = await engine.clients.db.slot_facts(slot.entity, slot.attribute, user_id=MEASURED)
    assert found, "the measured caller's visit-day fact is missing"
    plan = ", ".join(sorted({_index_of(p) for p in plans.values()}))
    return Series(size, engine, first, plan, [], [])


async def _sample(ms: list[float], work: Awaitable[object]) -> None:
    started = time.perf_counter()
    await work
    ms.append((time.perf_counter() - started) * 1000)


async def measure_interleaved(group: list[Series], iterations: int) -> None:
    """Round-robin samples across the sizes, so the load of a shared 2-core machine falls
    on every size alike and the ratios within the run mean something."""
    slot = action_request_slot("book_visit", DAY, BENCH_CALL)
    for kind in ("recall", "slot", "snapshot"):
        deadline = time.perf_counter() + BUDGET_S
        active = list(group)
        for round_ in range(iterations):
            for series in active:
                if kind == "recall":
                    await _sample(
                        series.recall_ms, series.engine.recall(MEASURED, SNAPSHOT_QUERY, top_k=8)
                    )
                elif kind == "slot":
                    await _sample(
                        series.slot_ms,
                        series.engine.clients.db.slot_facts(
                            slot.entity, slot.attribute, user_id=MEASURED
                        ),
                    )
                else:
                    # One call start per distinct caller, as call starts from different people.
                    callers = series.size // MEMORIES_PER_CALLER
                    caller = 2 + (round_ * max(1, (callers - 2) // iterations)) % (callers - 2)
                    snapshot = await recall_within(
                        series.engine,
                        _caller(caller),
                        SNAPSHOT_QUERY,
                        budget_ms=PREFETCH_BUDGET_MS,
                        facts=CALLER_FACTS,
                    )
                    series.snapshots += 1
                    series.hits += snapshot.available and bool(snapshot.memories)
                    # A missed snapshot leaves its query running on the engine's connection;
                    # let it finish so each call start meets an idle engine, as in a call.
                    await connection_idle(series.engine.clients.db)
            if round_ + 1 >= MIN_SAMPLES[kind] and time.perf_counter() > deadline:
                break


def _print_series(label: str, series: Series) -> None:
    f = series.figures()
    print(
        f"  {series.size:>7} {label:<6} n={f.samples:<3} "
        f"recall p50/p95 {f.recall[0]:7.1f}/{f.recall[1]:7.1f} ms  "
        f"slot {f.slot[0]:5.1f}/{f.slot[1]:5.1f} ms  "
        f"snapshot<{PREFETCH_BUDGET_MS}ms {f.hit_rate:6.1%} (n={series.snapshots})  "
        f"first recall {f.first_recall_ms:6.0f} ms  plan: {f.plan}",
        flush=True,
    )


async def main(sizes: list[int], iterations: int, model: str) -> None:
    started = time.perf_counter()
    key = BuildKey(tuple(sizes), model)
    print(
        f"recall growth bench: {MEMORIES_PER_CALLER} memories per caller, embedder {model}, "
        f"up to {iterations} samples per series"
    )
    files = await build_files(key)
    results: dict[tuple[int, str], Figures] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, on in (("before", False), ("after", True)):
            group = []
            for size in sizes:
                copy = Path(tmp) / f"{label}-{size}.sqlite3"
                _copy_store(files[size], copy)
                group.append(await _open_series(copy, size, statistics_on=on, model=model))
            try:
                await measure_interleaved(group, iterations)
            finally:
                for series in group:
                    await series.engine.close()
            for series in group:
                _print_series(label, series)
                results[(series.size, label)] = series.figures()
            for leftover in Path(tmp).glob(f"{label}-*"):
                leftover.unlink()
    print()
    print(
        "| memories | callers | recall p50/p95 before | recall p50/p95 after "
        f"| slot read p50/p95 after | snapshot within {PREFETCH_BUDGET_MS} ms before | after |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        b, a = results[(size, "before")], results[(size, "after")]
        print(
            f"| {size} | {size // MEMORIES_PER_CALLER} "
            f"| {b.recall[0]:.1f}/{b.recall[1]:.1f} ms | {a.recall[0]:.1f}/{a.recall[1]:.1f} ms "
            f"| {a.slot[0]:.1f}/{a.slot[1]:.1f} ms | {b.hit_rate:.1%} | {a.hit_rate:.1%} |"
        )
    low, high = sizes[0], sizes[-1]
    after = results[(high, "after")].recall[1] / results[(low, "after")].recall[1]
    before = results[(high, "before")].recall[1] / results[(low, "before")].recall[1]
    print(
        f"\nrecall p95 at {high} / p95 at {low}: after {after:.2f}x (target <= 2x), "
        f"before {before:.2f}x"
    )
    await _print_query_embedding_cost(model, iterations)
    print(f"total {time.perf_counter() - started:.0f} s")


async def _print_query_embedding_cost(model: str, iterations: int) -> None:
    """The engine caches query embeddings, so a repeated query (the call-start snapshot's is
    constant) pays this once; a per-turn recall with new words pays it on every turn."""
    provider = provider_for(model)
    if provider is None:
        return
    await provider.embed(["warm up"])
    samples = []
    for i in range(min(iterations, 100)):
        started = time.perf_counter()
        await provider.embed_query(f"can the engineer come on day {i} about the boiler noise")
        samples.append((time.perf_counter() - started) * 1000)
    p50, p95 = percentiles(samples)
    print(f"uncached query embedding ({model}): p50/p95 {p50:.1f}/{p95:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1K and 10K only")
    parser.add_argument("--sizes", type=int, nargs="+", help="override the store sizes")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument(
        "--embedding-model",
        default="mock",
        help="as CONTEXTDB_EMBEDDING_MODEL: mock or onnx-minilm",
    )
    args = parser.parse_args()
    chosen = args.sizes or ([1000, 10000] if args.quick else [1000, 10000, 100000])
    asyncio.run(main(sorted(chosen), args.iterations, args.embedding_model))
