"""Embedded booking system on SQLite: weekday slots, optimistic versions, idempotent bookings.

Safe across the worker's job processes: every booking is one `BEGIN IMMEDIATE` transaction
whose UPDATE only succeeds at the version the caller read, so two processes racing for the
last visit cannot both win.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

from calendar_client.models import Booking, Slot, SlotChanged, SlotUnavailable

_SCHEMA = """
CREATE TABLE IF NOT EXISTS slots (
    day TEXT PRIMARY KEY, capacity INTEGER NOT NULL, booked INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bookings (
    booking_id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, day TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS blocked_actors (actor_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS account_holds (customer_id TEXT PRIMARY KEY);
"""


class LocalCalendar:
    def __init__(
        self,
        path: Path,
        *,
        seed_days: int = 60,
        capacity: int = 2,
        today: date | None = None,
    ) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        start = today or date.today()
        with self._connect() as conn:
            conn.executescript(_SCHEMA)
            conn.executemany(
                "INSERT OR IGNORE INTO slots VALUES (?, ?, 0, 1)",
                [
                    ((start + timedelta(days=n)).isoformat(), capacity)
                    for n in range(seed_days + 1)
                    if (start + timedelta(days=n)).weekday() < 5
                ],
            )

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA busy_timeout=30000")
            yield conn
        finally:
            conn.close()

    @staticmethod
    def _slot(row: tuple) -> Slot:  # type: ignore[type-arg]
        return Slot(date.fromisoformat(row[0]), row[1], row[2], row[3])

    def _read_slot(self, conn: sqlite3.Connection, day: date) -> Slot:
        row = conn.execute(
            "SELECT day, capacity, booked, version FROM slots WHERE day = ?", (day.isoformat(),)
        ).fetchone()
        if row is None:
            raise SlotUnavailable(f"no visits on {day.isoformat()}")
        return self._slot(row)

    async def get_slot(self, day: date) -> Slot:
        def read() -> Slot:
            with self._connect() as conn:
                return self._read_slot(conn, day)

        return await asyncio.to_thread(read)

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        def check() -> bool:
            with self._connect() as conn:
                blocked = conn.execute(
                    "SELECT 1 FROM blocked_actors WHERE actor_id = ?", (actor_id,)
                ).fetchone()
                held = conn.execute(
                    "SELECT 1 FROM account_holds WHERE customer_id = ?", (customer_id,)
                ).fetchone()
            return blocked is None and held is None

        return await asyncio.to_thread(check)

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        def book() -> Booking:
            with self._connect() as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    booking = self._book_locked(
                        conn, customer_id, day, expected_version, idempotency_key
                    )
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return booking

        return await asyncio.to_thread(book)

    def _book_locked(
        self,
        conn: sqlite3.Connection,
        customer_id: str,
        day: date,
        expected_version: int,
        idempotency_key: str,
    ) -> Booking:
        earlier = conn.execute(
            "SELECT booking_id, customer_id, day FROM bookings WHERE idempotency_key = ?",
            (idempotency_key,),
        ).fetchone()
        if earlier is not None:
            return Booking(earlier[0], earlier[1], date.fromisoformat(earlier[2]))
        updated = conn.execute(
            "UPDATE slots SET booked = booked + 1, version = version + 1"
            " WHERE day = ? AND version = ? AND booked < capacity",
            (day.isoformat(), expected_version),
        ).rowcount
        if updated == 0:
            current = self._read_slot(conn, day)
            if not current.is_open:
                raise SlotUnavailable(f"{day.isoformat()} is fully booked")
            raise SlotChanged(f"{day.isoformat()} changed since it was read", current)
        booking = Booking(f"bk_{uuid.uuid4().hex[:12]}", customer_id, day)
        conn.execute(
            "INSERT INTO bookings VALUES (?, ?, ?, ?)",
            (booking.booking_id, customer_id, day.isoformat(), idempotency_key),
        )
        return booking

    async def open_days(self, start: date, count: int) -> list[Slot]:
        def read() -> list[Slot]:
            with self._connect() as conn:
                rows = conn.execute(
                    "SELECT day, capacity, booked, version FROM slots"
                    " WHERE day >= ? AND booked < capacity ORDER BY day LIMIT ?",
                    (start.isoformat(), count),
                ).fetchall()
            return [self._slot(row) for row in rows]

        return await asyncio.to_thread(read)

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        def read() -> list[Booking]:
            with self._connect() as conn:
                rows = conn.execute(
                    "SELECT booking_id, customer_id, day FROM bookings WHERE customer_id = ?"
                    " ORDER BY day",
                    (customer_id,),
                ).fetchall()
            return [Booking(r[0], r[1], date.fromisoformat(r[2])) for r in rows]

        return await asyncio.to_thread(read)

    async def block_actor(self, actor_id: str) -> None:
        await self._execute("INSERT OR IGNORE INTO blocked_actors VALUES (?)", (actor_id,))

    async def place_hold(self, customer_id: str) -> None:
        await self._execute("INSERT OR IGNORE INTO account_holds VALUES (?)", (customer_id,))

    async def _execute(self, sql: str, params: tuple[str, ...]) -> None:
        def run() -> None:
            with self._connect() as conn:
                conn.execute(sql, params)

        await asyncio.to_thread(run)

    async def aclose(self) -> None:
        return None
