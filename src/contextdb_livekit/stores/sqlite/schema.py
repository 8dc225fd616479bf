"""Creating a store's SQLite file and tables, safely when several connections do it at once."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from contextdb_livekit.stores.sqlite.connection import shared_sqlite

_ATTEMPTS = 50


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
