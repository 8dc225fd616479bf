"""Embedded booking system on SQLite: weekday slots, optimistic versions, idempotent bookings.

Safe across the worker's job processes sharing one file (the library's `HostSqlite`): every
booking is a single `BEGIN IMMEDIATE` transaction whose UPDATE only succeeds at the version the
caller read and while there is room, so two processes racing for the last visit cannot both
win.

Authorization is this file's own (`HostSqlite.may_act`): an actor may book for a customer
unless the actor is blocked (constructor argument or `block_actor`) or the customer's account
is on hold here (`place_hold`, e.g. unpaid). A hold in the billing system does not stop a
booking, nor this one a credit.
"""

from __future__ import annotations

import sqlite3
import uuid
from datetime import date, timedelta
from pathlib import Path

from calendar_client.base import (
    Booking,
    CalendarError,
    CalendarUnavailable,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from contextdb_livekit.api import HostSqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS slots (
    day TEXT PRIMARY KEY,
    capacity INTEGER NOT NULL CHECK (capacity >= 0),
    booked INTEGER NOT NULL CHECK (booked >= 0 AND booked <= capacity),
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bookings (
    booking_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    day TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    cancel_key TEXT UNIQUE  -- the cancellation's idempotency key; NULL while the booking stands
);
CREATE INDEX IF NOT EXISTS bookings_by_customer ON bookings(customer_id, day);
"""
_SLOTS = "SELECT day, capacity, booked, version FROM slots"
_BOOKINGS = "SELECT booking_id, customer_id, day FROM bookings"
_BOOKING_BY_KEY = f"{_BOOKINGS} WHERE idempotency_key = ?"
_CANCELLED_BY_KEY = f"{_BOOKINGS} WHERE cancel_key = ?"
_LIVE_BOOKING = f"{_BOOKINGS} WHERE booking_id = ? AND customer_id = ? AND cancel_key IS NULL"


def weekdays_from(start: date, count: int) -> list[date]:
    """Mon–Fri among the `count` days starting at `start`."""
    days = (start + timedelta(days=n) for n in range(count))
    return [day for day in days if day.weekday() < 5]


class LocalCalendar(HostSqlite):
    name = "local calendar"
    unavailable = CalendarUnavailable
    schema = _SCHEMA

    def __init__(
        self,
        path: Path,
        *,
        seed_days: int = 30,
        capacity: int = 2,
        today: date | None = None,
        blocked_actors: frozenset[str] = frozenset(),
    ) -> None:
        if seed_days < 0:
            raise ValueError("seed_days must not be negative")
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._seed_days, self._capacity, self._seed_from = seed_days, capacity, today
        super().__init__(path, seed=self._seed_slots, blocked_actors=blocked_actors)

    def _seed_slots(self, conn: sqlite3.Connection) -> None:
        _keep_old_cancellations(conn)
        # OR IGNORE: re-opening extends the window but never resets a seeded day.
        seed_from = self._seed_from or date.today()
        conn.executemany(
            "INSERT OR IGNORE INTO slots VALUES (?, ?, 0, 1)",
            [
                (day.isoformat(), self._capacity)
                for day in weekdays_from(seed_from, self._seed_days)
            ],
        )

    # -- CalendarClient -----------------------------------------------------------------

    async def get_slot(self, day: date) -> Slot:
        return await self.run(lambda conn: _read_slot(conn, day))

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        return await self.may_act(actor_id, customer_id)

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        if not customer_id:
            raise ValueError("customer_id is required")
        return await self.once_per_key(
            idempotency_key,
            earlier=lambda conn: self.row_in(conn, Booking, _BOOKING_BY_KEY, idempotency_key),
            same=lambda earlier: (earlier.customer_id, earlier.day) == (customer_id, day),
            conflict=CalendarError("idempotency key was already used for a different booking"),
            work=lambda conn: _book_locked(
                conn, customer_id, day, expected_version, idempotency_key
            ),
        )

    async def open_days(self, start: date, count: int) -> list[Slot]:
        if count <= 0:
            return []  # SQLite reads a negative LIMIT as "no limit"
        return await self.rows(
            Slot,
            f"{_SLOTS} WHERE day >= ? AND booked < capacity ORDER BY day LIMIT ?",
            start.isoformat(),
            count,
        )

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        return await self.rows(
            Booking,
            f"{_BOOKINGS} WHERE customer_id = ? AND cancel_key IS NULL ORDER BY day, booking_id",
            customer_id,
        )

    async def booking_for_key(self, idempotency_key: str) -> Booking | None:
        # A cancelled booking too: the key still made it.
        return await self.row(Booking, _BOOKING_BY_KEY, idempotency_key)

    async def cancel(self, customer_id: str, booking_id: str, *, idempotency_key: str) -> Booking:
        return await self.once_per_key(
            idempotency_key,
            earlier=lambda conn: self.row_in(conn, Booking, _CANCELLED_BY_KEY, idempotency_key),
            same=lambda earlier: (
                (earlier.customer_id, earlier.booking_id) == (customer_id, booking_id)
            ),
            conflict=CalendarError("idempotency key was already used for a different cancellation"),
            work=lambda conn: _cancel_locked(conn, customer_id, booking_id, idempotency_key),
        )

    async def cancellation_for_key(self, idempotency_key: str) -> Booking | None:
        return await self.row(Booking, _CANCELLED_BY_KEY, idempotency_key)


def _keep_old_cancellations(conn: sqlite3.Connection) -> None:
    """A file from before `cancel_key` moved a cancelled booking into a table of its own: put
    each back among the bookings under its cancellation's key, in the seed's transaction, so
    no booking, cancellation or replay by key is lost."""
    if any(column[1] == "cancel_key" for column in conn.execute("PRAGMA table_info(bookings)")):
        return
    conn.execute("ALTER TABLE bookings ADD COLUMN cancel_key TEXT")
    conn.execute("CREATE UNIQUE INDEX bookings_by_cancel_key ON bookings(cancel_key)")
    conn.execute(
        "INSERT INTO bookings SELECT booking_id, customer_id, day, booking_key, idempotency_key"
        " FROM cancellations"
    )
    conn.execute("DROP TABLE cancellations")


def _book_locked(
    conn: sqlite3.Connection,
    customer_id: str,
    day: date,
    expected_version: int,
    idempotency_key: str,
) -> Booking:
    updated = conn.execute(
        "UPDATE slots SET booked = booked + 1, version = version + 1"
        " WHERE day = ? AND version = ? AND booked < capacity",
        (day.isoformat(), expected_version),
    ).rowcount
    if updated == 0:
        current = _read_slot(conn, day)
        if not current.is_open:
            raise SlotUnavailable(f"{day.isoformat()} is fully booked")
        raise SlotChanged(f"{day.isoformat()} changed since it was read", current)
    booking = Booking(f"bk_{uuid.uuid4().hex[:12]}", customer_id, day)
    conn.execute(
        "INSERT INTO bookings VALUES (?, ?, ?, ?, NULL)",
        (booking.booking_id, customer_id, day.isoformat(), idempotency_key),
    )
    return booking


def _cancel_locked(
    conn: sqlite3.Connection, customer_id: str, booking_id: str, idempotency_key: str
) -> Booking:
    booking = HostSqlite.row_in(conn, Booking, _LIVE_BOOKING, booking_id, customer_id)
    if booking is None:
        raise SlotUnavailable("no such booking for this customer")
    conn.execute(
        "UPDATE bookings SET cancel_key = ? WHERE booking_id = ?", (idempotency_key, booking_id)
    )
    conn.execute(
        "UPDATE slots SET booked = booked - 1, version = version + 1 WHERE day = ? AND booked > 0",
        (booking.day.isoformat(),),
    )
    return booking


def _read_slot(conn: sqlite3.Connection, day: date) -> Slot:
    slot = HostSqlite.row_in(conn, Slot, f"{_SLOTS} WHERE day = ?", day.isoformat())
    if slot is None:
        raise SlotUnavailable(f"no visits on {day.isoformat()}")
    return slot
