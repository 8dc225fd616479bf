"""Creating a store's SQLite file and tables, safely when several connections do it at once."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from contextdb_livekit.stores.sqlite.connection import shared_sqlite

_ATTEMPTS = 50
T = TypeVar("T")


class LazyTables:
    """A small store's SQLite file: its tables are made on first use, not when the store is
    constructed (so building host state does no disk I/O), and every use runs in a thread.
    sqlite3 and OS errors propagate; each store maps them to its own unavailable error."""

    def __init__(self, path: Path, script: str) -> None:
        self.path = path
        self._script = script
        self._ready = False

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def run() -> T:
            if not self._ready:
                ensure_schema(self.path, self._script)
                self._ready = True
            with shared_sqlite(self.path) as conn:
                return work(conn)

        return await asyncio.to_thread(run)


def ensure_schema(path: Path, script: str) -> None:
    """`path` exists (0600, WAL) with the tables `script` creates (idempotent DDL).

    Connections switching a new file to WAL at the same moment can get `database is locked`
    at once, without waiting out the busy timeout (SQLite refuses rather than deadlock), so
    that error is retried here; once the file is in WAL mode it no longer happens.
    """
    for attempt in range(1, _ATTEMPTS + 1):
        try:
            with shared_sqlite(path) as conn:
                conn.executescript(script)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == _ATTEMPTS:
                raise
            time.sleep(0.002 * attempt)
