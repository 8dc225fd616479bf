"""Customer directory for SIP callers: caller number → customer id."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Protocol

from contextdb_livekit.identity.models import IdentityStoreUnavailable, check_customer_id
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable
from contextdb_livekit.stores.private_files import private_file

# ASCII digits only: `\d` would also accept other scripts' digits and store look-alikes.
_E164 = re.compile(r"\+[0-9]{7,15}")
_FORMATTING = re.compile(r"[ \t\-()]")


def normalise_phone(raw: str) -> str:
    """`+1 (555) 010-0123` → `+15550100123`; anything not `+` and 7-15 digits is refused."""
    number = _FORMATTING.sub("", raw)
    if _E164.fullmatch(number) is None:
        raise ValueError("phone number must be `+` followed by 7-15 digits, e.g. +15550100123")
    return number


class CustomerDirectory(Protocol):
    async def customer_for_phone(self, e164: str) -> str | None: ...


class SqliteCustomerDirectory:
    """Default directory on a local SQLite file; replace with a client for your CRM."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        # Idempotent and cheap, so every connection makes sure the file and table exist
        # instead of tracking "first use" across threads.
        private_file(self.path)  # 0600 in a 0700 directory, whatever the umask
        conn = sqlite3.connect(self.path, timeout=10.0)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS customers"
            " (phone TEXT PRIMARY KEY, customer_id TEXT NOT NULL)"
        )
        return conn

    async def add(self, phone: str, customer_id: str) -> None:
        number = normalise_phone(phone)
        check_customer_id(customer_id)

        def store() -> None:
            with closing(self._connect()) as conn, conn:
                conn.execute(
                    "INSERT OR REPLACE INTO customers (phone, customer_id) VALUES (?, ?)",
                    (number, customer_id),
                )

        await asyncio.to_thread(store)

    async def customer_for_phone(self, e164: str) -> str | None:
        number = normalise_phone(e164)

        def load() -> str | None:
            with closing(self._connect()) as conn:
                row = conn.execute(
                    "SELECT customer_id FROM customers WHERE phone = ?", (number,)
                ).fetchone()
            return None if row is None else str(row[0])

        return await asyncio.to_thread(load)


class PgCustomerDirectory:
    """The directory on the shared Postgres (`host_customers`), for many worker hosts."""

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def add(self, phone: str, customer_id: str) -> None:
        number = normalise_phone(phone)
        check_customer_id(customer_id)
        async with self.database.connection() as conn:
            await conn.execute(
                "INSERT INTO host_customers (phone, customer_id) VALUES ($1, $2)"
                " ON CONFLICT (phone) DO UPDATE SET customer_id = excluded.customer_id",
                number,
                customer_id,
            )

    async def customer_for_phone(self, e164: str) -> str | None:
        number = normalise_phone(e164)
        try:
            async with self.database.connection() as conn:
                found = await conn.fetchval(
                    "SELECT customer_id FROM host_customers WHERE phone = $1", number
                )
        except SharedStateUnavailable as exc:
            raise IdentityStoreUnavailable(detail=str(exc)) from exc
        return None if found is None else str(found)
