"""The erasure journal in a SQLite file on the host's disk (beside the outbox). The contract
is stores.erasures."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from contextdb_livekit.stores.erasures import ErasuresUnavailable, subject
from contextdb_livekit.stores.sqlite.schema import LazyTables

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS erasures (
    subject TEXT PRIMARY KEY,
    erased_at REAL NOT NULL
);
"""


def journal_path(outbox_path: Path) -> Path:
    return outbox_path.with_name("erasures.sqlite3")


class SqliteErasureJournal:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._tables = LazyTables(self.path, _SCHEMA)

    async def note(self, customer_id: str) -> None:
        key, now = subject(customer_id), time.time()

        def store(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO erasures (subject, erased_at) VALUES (?, ?) ON CONFLICT (subject)"
                " DO UPDATE SET erased_at = MAX(erased_at, excluded.erased_at)",
                (key, now),
            )

        await self._run(store)

    async def erased_since(self, customer_id: str, since: float) -> bool:
        key = subject(customer_id)

        def load(conn: sqlite3.Connection) -> bool:
            row = conn.execute(
                "SELECT 1 FROM erasures WHERE subject = ? AND erased_at >= ?", (key, since)
            ).fetchone()
            return row is not None

        return await self._run(load)

    async def forget_before(self, cutoff: float) -> int:
        def delete(conn: sqlite3.Connection) -> int:
            return int(conn.execute("DELETE FROM erasures WHERE erased_at < ?", (cutoff,)).rowcount)

        return await self._run(delete)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await self._tables.run(work)
        except (sqlite3.Error, OSError) as exc:
            raise ErasuresUnavailable(f"erasure journal {self.path}: {exc}"[:300]) from exc
