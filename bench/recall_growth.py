"""Recall cost as the local engine's store grows across callers, before and after statistics.

    python -m bench.recall_growth [--quick] [--iterations 200] [--embedding-model mock]

Grows one engine file to 1K, 10K and 100K memories (20 per caller: 50, 500 and 5,000 callers;
`--quick`: 1K and 10K) and at each size prints, for a caller with 20 memories:
- recall p50/p95 (ms) with pycontextdb's own open (no statistics: the baseline) and with
  `LocalEngine.open` (statistics kept, `memory.sqlite_stats`), on copies of the same file;
- the slot read (`slot_facts`) p50/p95;
- the call-start snapshot hit rate: recalls that land within MEMORY_PREFETCH_BUDGET_MS
  (300 ms), each for a different caller, through `memory.service.recall_within`.

How the store is grown (and why it is legitimate): the measured caller and one template caller
are written through the engine's own API, so their rows are exactly what the engine stores
(slot keys, trust fields, embeddings). Every other caller is a copy of the template's rows under
a new id, user id, text and timestamps, inserted in bulk in the engine's own column layout,
with a random unit vector of the engine's dimension in place of an embedding (other callers'
vectors are never ranked for the measured caller: recall is scoped before ranking). Building
100K rows through `add()` would take ~20 minutes; this takes seconds. Built files are cached
under $RECALL_BENCH_CACHE (default: the temp dir) keyed by the parameters, so a rerun is fast.
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np

from memory.local_engine import LocalEngine
from memory.models import FactToRemember
from memory.service import SNAPSHOT_QUERY, recall_within
from memory.sqlite_stats import has_statistics, traced_plans
from memory.write_policy import requested_visit_day, visit_day_slot

MEMORIES_PER_CALLER = 20
PREFETCH_BUDGET_MS = 300  # MEMORY_PREFETCH_BUDGET_MS default (memory/settings.py)
DAY = date(2026, 12, 10)
MEASURED = "caller-measured"
TEMPLATE = "caller-template"
# Bump when the way files are built changes, so a stale cache is never reused.
BUILD_VERSION = 1
MIN_SAMPLES = 20
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
    """19 notes plus the requested visit day: the shape of a caller after a few calls."""
    notes = [
        FactToRemember(content=text, source="user_stated", confidence=0.8)
        for text in _notes_for(name, seed)
    ]
    return [*notes, requested_visit_day(DAY)]


async def _write_caller(engine: LocalEngine, user_id: str, seed: int) -> None:
    await engine.remember_many(
        user_id, _facts_for(user_id, seed), idempotency_key=f"bench-{user_id}"
    )


def _unit_vectors(rng: np.random.Generator, count: int, dim: int) -> np.ndarray:
    vectors = rng.standard_normal((count, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _grow_by_copies(path: Path, first_caller: int, callers: int, seed: int) -> None:
    """Insert `callers` copies of the template caller's rows in one transaction."""
    conn = sqlite3.connect(path)
    try:
        cursor = conn.execute("SELECT * FROM memories WHERE user_id = ?", (TEMPLATE,))
        columns = [d[0] for d in cursor.description]
        template = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        if not template:
            raise RuntimeError("template caller has no rows; the file was not built by this bench")
        dim = int(template[0]["embedding_dim"])
        rng = np.random.default_rng(seed)
        base = datetime.fromisoformat(template[0]["created_at"])
        placeholders = ",".join("?" * len(columns))
        sql = f"INSERT INTO memories ({','.join(columns)}) VALUES ({placeholders})"
        batch_callers = 500
        for start in range(first_caller, first_caller + callers, batch_callers):
            stop = min(start + batch_callers, first_caller + callers)
            vectors = _unit_vectors(rng, (stop - start) * len(template), dim)
            rows = []
            position = 0
            for caller in range(start, stop):
                user_id = f"caller-{caller:06d}"
                # Spread writes over time like real calls (created_at orders recall ties).
                stamp = (base - timedelta(minutes=caller)).isoformat()
                for row in template:
                    copy = dict(row)
                    copy["id"] = str(uuid.uuid4())
                    copy["user_id"] = user_id
                    # The engine's own stored text, under this caller's name.
                    copy["content"] = row["content"].replace(TEMPLATE, user_id)
                    copy["embedding"] = vectors[position].tobytes()
                    copy["created_at"] = copy["updated_at"] = copy["ingestion_time"] = stamp
                    position += 1
                    rows.append(tuple(copy[c] for c in columns))
            conn.executemany(sql, rows)
        # The engine's process-local vector index reloads when this revision moves.
        conn.execute(
            "UPDATE contextdb_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
            "WHERE key LIKE 'index_revision%'"
        )
        conn.commit()
    finally:
        conn.close()


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
    engine = await LocalEngine.open(work, embedding_model=key.embedding_model, statistics=False)
    try:
        await _write_caller(engine, MEASURED, 0)
        await _write_caller(engine, TEMPLATE, 1)
    finally:
        await engine.close()
    callers = 2
    for size in key.sizes:
        target = size // MEMORIES_PER_CALLER
        started = time.perf_counter()
        _grow_by_copies(work, callers, target - callers, seed=size)
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


async def _timed(
    fn: Callable[[], Awaitable[object]], iterations: int, budget_s: float
) -> list[float]:
    """Up to `iterations` samples, stopping early (after at least MIN_SAMPLES) past budget_s:
    the baseline at 100K costs seconds a recall, and the bench must stay well under 10 min."""
    samples: list[float] = []
    deadline = time.perf_counter() + budget_s
    for _ in range(iterations):
        started = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - started) * 1000)
        if len(samples) >= MIN_SAMPLES and time.perf_counter() > deadline:
            break
    return samples


@dataclass(frozen=True)
class Figures:
    samples: int
    recall: tuple[float, float]
    slot: tuple[float, float]
    hit_rate: float
    first_recall_ms: float
    plan: str


async def measure(
    path: Path, *, statistics_on: bool, model: str, iterations: int, callers: int
) -> Figures:
    engine = await LocalEngine.open(path, embedding_model=model, statistics=statistics_on)
    try:
        assert has_statistics(path) == statistics_on, "baseline file must have no statistics"
        started = time.perf_counter()
        # First recall after open loads every vector into the engine's process-local index.
        _, plans = await traced_plans(engine.db, engine.recall(MEASURED, SNAPSHOT_QUERY, top_k=8))
        first = (time.perf_counter() - started) * 1000
        plan = ", ".join(sorted({_index_of(p) for p in plans.values()}))
        recall_ms = await _timed(
            lambda: engine.recall(MEASURED, SNAPSHOT_QUERY, top_k=8), iterations, BUDGET_S
        )
        slot = visit_day_slot(DAY)
        found = await engine.db.slot_facts(slot.entity, slot.attribute, user_id=MEASURED)
        assert found, "the measured caller's visit-day fact is missing"
        slot_ms = await _timed(
            lambda: engine.db.slot_facts(slot.entity, slot.attribute, user_id=MEASURED),
            iterations,
            BUDGET_S,
        )
        # One snapshot per distinct caller, like call starts from different people.
        stride = max(1, (callers - 2) // iterations)
        deadline = time.perf_counter() + BUDGET_S
        hits = 0
        sampled = 0
        for caller in range(2, callers, stride):
            snapshot = await recall_within(
                engine, f"caller-{caller:06d}", SNAPSHOT_QUERY, budget_ms=PREFETCH_BUDGET_MS
            )
            sampled += 1
            hits += snapshot.available and bool(snapshot.memories)
            if sampled >= iterations or (sampled >= MIN_SAMPLES and time.perf_counter() > deadline):
                break
        return Figures(
            len(recall_ms),
            percentiles(recall_ms),
            percentiles(slot_ms),
            hits / max(1, sampled),
            first,
            plan,
        )
    finally:
        await engine.close()


async def main(sizes: list[int], iterations: int, model: str) -> None:
    started = time.perf_counter()
    key = BuildKey(tuple(sizes), model)
    print(
        f"recall growth bench: {MEMORIES_PER_CALLER} memories per caller, embedder {model}, "
        f"{iterations} iterations"
    )
    files = await build_files(key)
    rows: list[tuple[int, str, Figures]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            callers = size // MEMORIES_PER_CALLER
            for label, on in (("before", False), ("after", True)):
                copy = Path(tmp) / f"{label}-{size}.sqlite3"
                _copy_store(files[size], copy)
                figures = await measure(
                    copy, statistics_on=on, model=model, iterations=iterations, callers=callers
                )
                rows.append((size, label, figures))
                print(
                    f"  {size:>7} {label:<6} n={figures.samples:<3} recall p50/p95 {figures.recall[0]:6.1f}/"
                    f"{figures.recall[1]:6.1f} ms  slot {figures.slot[0]:4.1f}/"
                    f"{figures.slot[1]:4.1f} ms  snapshot<{PREFETCH_BUDGET_MS}ms "
                    f"{figures.hit_rate:6.1%}  first recall {figures.first_recall_ms:7.0f} ms"
                    f"  plan: {figures.plan}",
                    flush=True,
                )
                for leftover in Path(tmp).glob(f"{label}-{size}*"):
                    leftover.unlink()
    print()
    print(
        f"| memories | callers | recall p50/p95 before | after | slot read p50/p95 after "
        f"| snapshot within {PREFETCH_BUDGET_MS} ms before | after |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    by = {(size, label): figures for size, label, figures in rows}
    for size in sizes:
        b, a = by[(size, "before")], by[(size, "after")]
        print(
            f"| {size} | {size // MEMORIES_PER_CALLER} | {b.recall[0]:.1f}/{b.recall[1]:.1f} ms "
            f"| {a.recall[0]:.1f}/{a.recall[1]:.1f} ms | {a.slot[0]:.1f}/{a.slot[1]:.1f} ms "
            f"| {b.hit_rate:.1%} | {a.hit_rate:.1%} |"
        )
    smallest, largest = by[(sizes[0], "after")], by[(sizes[-1], "after")]
    print(
        f"\np95 at {sizes[-1]} / p95 at {sizes[0]} (after): "
        f"{largest.recall[1] / smallest.recall[1]:.2f}x (target <= 2x); before: "
        f"{by[(sizes[-1], 'before')].recall[1] / by[(sizes[0], 'before')].recall[1]:.2f}x"
    )
    print(f"total {time.perf_counter() - started:.0f} s")


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
