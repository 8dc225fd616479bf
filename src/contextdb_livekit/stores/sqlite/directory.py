"""The customer directory in a SQLite file on the host's disk (CUSTOMER_DIRECTORY_PATH).
The contract is stores.directory."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from contextdb_livekit.identity.models import IdentityStoreUnavailable, check_customer_id
from contextdb_livekit.identity.phone import normalise_phone
from contextdb_livekit.stores.sqlite.schema import LazyTables

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS customers (
    phone TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL
);
"""


class SqliteCustomerDirectory:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._tables = LazyTables(self.path, _SCHEMA)

    async def add(self, phone: str, customer_id: str) -> None:
        number = normalise_phone(phone)
        check_customer_id(customer_id)

        def store(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO customers (phone, customer_id) VALUES (?, ?)"
                " ON CONFLICT (phone) DO UPDATE SET customer_id = excluded.customer_id",
                (number, customer_id),
            )

        await self._run(store)

    async def customer_for_phone(self, phone: str) -> str | None:
        number = normalise_phone(phone)

        def load(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "SELECT customer_id FROM customers WHERE phone = ?", (number,)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(load)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await self._tables.run(work)
        except (sqlite3.Error, OSError) as exc:
            raise IdentityStoreUnavailable(
                detail=f"customer directory {self.path}: {type(exc).__name__}"
            ) from exc
