"""Customer directory for SIP callers: caller number → customer id."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Protocol

_E164 = re.compile(r"^\+[1-9]\d{6,14}$")
_FORMATTING = re.compile(r"[\s\-().]")


def normalise_phone(raw: str) -> str:
    number = _FORMATTING.sub("", raw or "")
    if number.startswith("00"):
        number = "+" + number[2:]
    if _E164.fullmatch(number) is None:
        raise ValueError("phone number must be in international format, e.g. +15550100")
    return number


class CustomerDirectory(Protocol):
    async def customer_for_phone(self, e164: str) -> str | None: ...


class SqliteCustomerDirectory:
    """Default directory on a local SQLite file; replace with a client for your CRM."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=10.0)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS customers"
            " (phone TEXT PRIMARY KEY, customer_id TEXT NOT NULL)"
        )
        return conn

    async def add(self, phone: str, customer_id: str) -> None:
        number = normalise_phone(phone)

        def store() -> None:
            conn = self._connect()
            try:
                with conn:
                    conn.execute(
                        "INSERT OR REPLACE INTO customers VALUES (?, ?)", (number, customer_id)
                    )
            finally:
                conn.close()

        await asyncio.to_thread(store)

    async def customer_for_phone(self, e164: str) -> str | None:
        number = normalise_phone(e164)

        def load() -> str | None:
            conn = self._connect()
            try:
                row = conn.execute(
                    "SELECT customer_id FROM customers WHERE phone = ?", (number,)
                ).fetchone()
            finally:
                conn.close()
            return None if row is None else row[0]

        return await asyncio.to_thread(load)
