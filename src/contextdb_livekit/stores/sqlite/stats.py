"""Query-planner statistics for the embedded engine's SQLite file.

pycontextdb 0.4.8 never runs ANALYZE. Without statistics SQLite weighs every single-column
index alike, and for the scoped recall queries (`status = 'ACTIVE' AND ... AND user_id = ?`)
it picks `idx_memories_status`, which matches every row: recall then costs O(store), not
O(caller). With `sqlite_stat1` present it picks `idx_memories_user_id` (~20 rows a caller).

Statistics go stale as the store grows, so they are refreshed when the row count has doubled
since the last ANALYZE (`StatsKeeper`). ANALYZE runs with `PRAGMA analysis_limit`, so one run
reads a bounded sample of each index (tens of ms at 100K rows) instead of every row.

Everything runs on the engine's own aiosqlite connection: SQLite loads `sqlite_stat1` when a
connection reads the schema, and an ANALYZE run on *another* connection is not seen by an open
one until it reloads the schema (checked on SQLite 3.40: only the ANALYZE that first creates
`sqlite_stat1` is a schema change other connections notice). ANALYZE on the same connection
reloads the statistics there and re-plans its cached statements
(tests/memory/test_recall_stats.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import contextdb
from contextdb.store.sqlite_store import SQLiteStore

log = logging.getLogger("contextdb_livekit.stores.sqlite.stats")

T = TypeVar("T")

# Rows ANALYZE samples per index: enough to tell a ~20-row user_id from an all-rows status.
ANALYSIS_LIMIT = 1000
# Re-analyze when the table has grown (or shrunk) by this factor since the last ANALYZE.
GROWTH_FACTOR = 2.0
# Below this many rows every plan is cheap; do not churn statistics on a young file.
MIN_ROWS = 200
# How many writes to let pass between row counts (a count is an index scan, ~ms at 100K).
CHECK_EVERY_WRITES = 100


@dataclass(frozen=True)
class StatsState:
    """What `sqlite_stat1` says about the memories table, and what the table holds now."""

    analyzed_rows: int | None  # row count recorded by the last ANALYZE; None: never analyzed
    rows: int

    @property
    def stale(self) -> bool:
        if self.rows < MIN_ROWS:
            return False
        if self.analyzed_rows is None or self.analyzed_rows <= 0:
            return True
        ratio = self.rows / self.analyzed_rows
        return ratio >= GROWTH_FACTOR or ratio <= 1 / GROWTH_FACTOR


def _store(db: contextdb.ContextDB) -> SQLiteStore:
    store = getattr(db, "_store", None)
    if not isinstance(store, SQLiteStore):
        # pycontextdb is pinned; if its internals move, say so instead of silently skipping.
        raise TypeError(f"expected an initialised SQLite store, found {type(store).__name__}")
    return store


def _connection(db: contextdb.ContextDB) -> aiosqlite.Connection:
    conn = _store(db)._conn
    if conn is None:
        raise RuntimeError("the engine's SQLite store is not open")
    return conn


async def _fetchall(conn: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> list:
    # execute_fetchall steps the statement to completion in one call, so no cursor stays
    # "in progress" on the shared connection (that breaks a concurrent commit).
    return list(await conn.execute_fetchall(sql, params))


async def read_state(db: contextdb.ContextDB) -> StatsState:
    conn = _connection(db)
    analyzed: int | None = None
    has_stat1 = await _fetchall(
        conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'"
    )
    if has_stat1:
        rows = await _fetchall(
            conn, "SELECT stat FROM sqlite_stat1 WHERE tbl = 'memories' AND idx IS NOT NULL"
        )
        # Each index row's `stat` starts with the table's row count at ANALYZE time; under
        # analysis_limit each is a sampled estimate (within ~30 % here), so take the median.
        counts = sorted(int(str(row[0]).split()[0]) for row in rows if row[0])
        analyzed = counts[len(counts) // 2] if counts else None
    [(count,)] = await _fetchall(conn, "SELECT COUNT(*) FROM memories")
    return StatsState(analyzed_rows=analyzed, rows=int(count))


async def analyze(db: contextdb.ContextDB) -> float:
    """ANALYZE the memories table on the engine's connection; returns the elapsed ms.

    Holds the store's write lock, so it never lands inside another coroutine's open write
    transaction on the shared connection; reads queue behind it for the (bounded) duration.
    """
    store = _store(db)
    conn = _connection(db)
    loop = asyncio.get_running_loop()
    async with store._write_lock:
        started = loop.time()
        await conn.execute(f"PRAGMA analysis_limit = {int(ANALYSIS_LIMIT)}")
        await conn.execute("ANALYZE memories")
        await conn.commit()
        return (loop.time() - started) * 1000


async def refresh_if_stale(db: contextdb.ContextDB) -> StatsState:
    """Called at open: analyze a file that has grown (or never been analyzed)."""
    state = await read_state(db)
    if state.stale:
        elapsed = await analyze(db)
        log.info(
            "analyzed %d memories in %.0f ms (last analyzed at %s rows)",
            state.rows,
            elapsed,
            state.analyzed_rows,
        )
        state = StatsState(analyzed_rows=state.rows, rows=state.rows)
    return state


class StatsKeeper:
    """Re-analyze as the store grows, off the request path and one run at a time.

    The engine service calls `note_writes` after each write. Every CHECK_EVERY_WRITES writes
    it schedules one background check (a row count); only a table that doubled since the last
    ANALYZE is analyzed again. So the cost is one count per 100 writes plus O(log N) ANALYZE
    runs over the file's whole life, each bounded by ANALYSIS_LIMIT.
    """

    def __init__(self, db: contextdb.ContextDB, state: StatsState) -> None:
        self._db = db
        self._state = state
        self._writes_since_check = 0
        self._task: asyncio.Task[None] | None = None
        self.analyze_runs = 0

    @property
    def state(self) -> StatsState:
        return self._state

    def note_writes(self, count: int) -> asyncio.Task[None] | None:
        """Record `count` writes; returns the background check it started, if any."""
        self._writes_since_check += count
        if self._writes_since_check < CHECK_EVERY_WRITES:
            return None
        if self._task is not None and not self._task.done():
            return None  # a check is already running; it will see these rows
        self._writes_since_check = 0
        self._task = asyncio.create_task(self._check(), name="sqlite-stats-check")
        return self._task

    async def _check(self) -> None:
        try:
            current = await read_state(self._db)
            # The keeper's own record, not stat1's: analysis_limit makes stat1's count a
            # sample-based estimate, and doubling is judged against what we analyzed.
            state = StatsState(analyzed_rows=self._state.analyzed_rows, rows=current.rows)
            if state.stale:
                elapsed = await analyze(self._db)
                self.analyze_runs += 1
                log.info("re-analyzed at %d memories in %.0f ms", state.rows, elapsed)
                state = StatsState(analyzed_rows=state.rows, rows=state.rows)
            self._state = state
        except Exception:  # statistics are an optimisation; a failure must not hurt a call
            log.exception("statistics refresh failed")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def connection_idle(db: contextdb.ContextDB) -> None:
    """Return once every statement queued on the engine's connection before it has run
    (aiosqlite runs them in order), e.g. a recall abandoned by a timeout."""
    await _fetchall(_connection(db), "SELECT 1")


def has_statistics(path: Path) -> bool:
    """Whether the file holds ANALYZE results for the memories table (read-only check)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        found = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'"
        ).fetchone()
        if not found:
            return False
        row = conn.execute("SELECT 1 FROM sqlite_stat1 WHERE tbl = 'memories'").fetchone()
        return row is not None
    finally:
        conn.close()


async def traced_plans(db: contextdb.ContextDB, work: Awaitable[T]) -> tuple[T, dict[str, str]]:
    """Run `work` while tracing the engine's SQL; returns the query plan of each scoped read.

    The plans come from the statements the engine really ran (parameters inlined by the
    trace), explained on the engine's own connection, so they are the plans it used.
    """
    conn = _connection(db)
    statements: list[str] = []
    await conn.set_trace_callback(statements.append)
    try:
        result = await work
    finally:
        await conn.set_trace_callback(None)  # type: ignore[arg-type]  # None clears it (sqlite3 docs)
    plans: dict[str, str] = {}
    for sql in statements:
        flat = " ".join(sql.split())
        if not flat.upper().startswith("SELECT") or "user_id =" not in flat:
            continue
        rows = await _fetchall(conn, f"EXPLAIN QUERY PLAN {flat}")
        plans[flat] = "; ".join(str(row[3]) for row in rows)
    return result, plans
