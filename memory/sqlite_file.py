"""A short-lived WAL connection to a SQLite file that several job processes share."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def shared_sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    """Autocommit connection; WAL lets readers and one writer from any process proceed, and
    the busy timeout turns write contention into waiting instead of `database is locked`."""
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA busy_timeout=30000")
        yield conn
    finally:
        conn.close()
