"""Embedded booking system on SQLite: weekday slots, optimistic versions, idempotent bookings.

Safe across the worker's job processes sharing one file: every booking is a single
`BEGIN IMMEDIATE` transaction whose UPDATE only succeeds at the version the caller read and
while there is room, so two processes racing for the last visit cannot both win.

Authorization is deliberately simple: an actor may book for a customer unless the actor is
blocked (constructor argument or `block_actor`) or the customer's account is on hold
(`place_hold`, e.g. unpaid).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import TypeVar

from calendar_client.models import (
    Booking,
    CalendarError,
    CalendarUnavailable,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from contextdb_livekit.api import private_file

_T = TypeVar("_T")

_BUSY_TIMEOUT_S = 10.0
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
    idempotency_key TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS bookings_by_customer ON bookings(customer_id, day);
CREATE TABLE IF NOT EXISTS cancellations (
    idempotency_key TEXT PRIMARY KEY,
    booking_id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    day TEXT NOT NULL,
    booking_key TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS blocked_actors (actor_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS account_holds (customer_id TEXT PRIMARY KEY);
"""
_SLOT_COLUMNS = "day, capacity, booked, version"


def weekdays_from(start: date, count: int) -> list[date]:
    """Mon–Fri among the `count` days starting at `start`."""
    days = (start + timedelta(days=n) for n in range(count))
    return [day for day in days if day.weekday() < 5]


class LocalCalendar:
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
        self.path = Path(path)
        self._seed_days = seed_days
        self._capacity = capacity
        self._seed_from = today
        self._blocked_actors = frozenset(blocked_actors)
        # The file is opened lazily, on the first call's worker thread, so constructing a
        # calendar inside the event loop never blocks on disk or on another process's lock.
        self._prepared = False
        self._prepare_lock = threading.Lock()

    # -- connection plumbing ------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: transactions are the explicit BEGIN IMMEDIATE below, nothing implicit.
        return sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)

    def _prepare(self) -> None:
        with self._prepare_lock:
            if self._prepared:
                return
            private_file(self.path)  # 0600 in a 0700 directory, whatever the umask
            with closing(self._connect()) as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
                seed_from = self._seed_from or date.today()
                with _write_transaction(conn):
                    # OR IGNORE: re-opening extends the window but never resets a seeded day.
                    conn.executemany(
                        "INSERT OR IGNORE INTO slots VALUES (?, ?, 0, 1)",
                        [
                            (day.isoformat(), self._capacity)
                            for day in weekdays_from(seed_from, self._seed_days)
                        ],
                    )
            self._prepared = True

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        def run() -> _T:
            try:
                self._prepare()
                with closing(self._connect()) as conn:
                    return work(conn)
            except (sqlite3.Error, OSError) as exc:
                # Same contract as the REST client: callers handle one "can't book now" error.
                raise CalendarUnavailable(
                    f"local calendar failed ({type(exc).__name__}: {exc})"
                ) from exc

        return await asyncio.to_thread(run)

    # -- CalendarClient -----------------------------------------------------------------

    async def get_slot(self, day: date) -> Slot:
        return await self._run(lambda conn: _read_slot(conn, day))

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        return await self._may_act(actor_id, customer_id)

    async def _may_act(self, actor_id: str, customer_id: str) -> bool:
        if actor_id in self._blocked_actors:
            return False

        def check(conn: sqlite3.Connection) -> bool:
            blocked = conn.execute(
                "SELECT 1 FROM blocked_actors WHERE actor_id = ?", (actor_id,)
            ).fetchone()
            held = conn.execute(
                "SELECT 1 FROM account_holds WHERE customer_id = ?", (customer_id,)
            ).fetchone()
            return blocked is None and held is None

        return await self._run(check)

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        if not customer_id:
            raise ValueError("customer_id is required")
        if not idempotency_key:
            raise ValueError("idempotency_key is required")

        def book(conn: sqlite3.Connection) -> Booking:
            with _write_transaction(conn):
                return _book_locked(conn, customer_id, day, expected_version, idempotency_key)

        return await self._run(book)

    async def open_days(self, start: date, count: int) -> list[Slot]:
        if count <= 0:
            return []  # SQLite reads a negative LIMIT as "no limit"

        def read(conn: sqlite3.Connection) -> list[Slot]:
            rows = conn.execute(
                f"SELECT {_SLOT_COLUMNS} FROM slots"
                " WHERE day >= ? AND booked < capacity ORDER BY day LIMIT ?",
                (start.isoformat(), count),
            ).fetchall()
            return [_slot_from_row(row) for row in rows]

        return await self._run(read)

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        def read(conn: sqlite3.Connection) -> list[Booking]:
            rows = conn.execute(
                "SELECT booking_id, customer_id, day FROM bookings WHERE customer_id = ?"
                " ORDER BY day, booking_id",
                (customer_id,),
            ).fetchall()
            return [_booking_from_row(row) for row in rows]

        return await self._run(read)

    async def booking_for_key(self, idempotency_key: str) -> Booking | None:
        def read(conn: sqlite3.Connection) -> Booking | None:
            row = conn.execute(
                "SELECT booking_id, customer_id, day FROM bookings WHERE idempotency_key = ?"
                " UNION ALL SELECT booking_id, customer_id, day FROM cancellations"
                " WHERE booking_key = ?",
                (idempotency_key, idempotency_key),
            ).fetchone()
            return _booking_from_row(row) if row else None

        return await self._run(read)

    async def cancel(self, customer_id: str, booking_id: str, *, idempotency_key: str) -> Booking:
        if not idempotency_key:
            raise ValueError("idempotency_key is required")

        def cancel(conn: sqlite3.Connection) -> Booking:
            with _write_transaction(conn):
                return _cancel_locked(conn, customer_id, booking_id, idempotency_key)

        return await self._run(cancel)

    async def cancellation_for_key(self, idempotency_key: str) -> Booking | None:
        def read(conn: sqlite3.Connection) -> Booking | None:
            row = conn.execute(
                "SELECT booking_id, customer_id, day FROM cancellations WHERE idempotency_key = ?",
                (idempotency_key,),
            ).fetchone()
            return _booking_from_row(row) if row else None

        return await self._run(read)

    async def aclose(self) -> None:
        # Connections live for one call each, so there is nothing held open to release.
        return None

    # -- seeding helpers for hosts and tests --------------------------------------------

    async def block_actor(self, actor_id: str) -> None:
        """From now on `can_book` refuses this actor, for every instance on this file."""
        await self._execute("INSERT OR IGNORE INTO blocked_actors VALUES (?)", actor_id)

    async def place_hold(self, customer_id: str) -> None:
        """Put the customer's account on hold (e.g. unpaid): nobody may book for them."""
        await self._execute("INSERT OR IGNORE INTO account_holds VALUES (?)", customer_id)

    async def _execute(self, sql: str, *params: str) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(sql, params)

        await self._run(run)


@contextmanager
def _write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error.

    IMMEDIATE takes the write lock before the first read, so no other process can book
    between our idempotency check and our update."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _book_locked(
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
        replay = _booking_from_row(earlier)
        if (replay.customer_id, replay.day) != (customer_id, day):
            # Replaying would hand one customer another's booking; refuse loudly instead.
            raise CalendarError("idempotency key was already used for a different booking")
        return replay
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
        "INSERT INTO bookings VALUES (?, ?, ?, ?)",
        (booking.booking_id, customer_id, day.isoformat(), idempotency_key),
    )
    return booking


def _cancel_locked(
    conn: sqlite3.Connection, customer_id: str, booking_id: str, idempotency_key: str
) -> Booking:
    earlier = conn.execute(
        "SELECT booking_id, customer_id, day FROM cancellations WHERE idempotency_key = ?",
        (idempotency_key,),
    ).fetchone()
    if earlier is not None:
        replay = _booking_from_row(earlier)
        if (replay.customer_id, replay.booking_id) != (customer_id, booking_id):
            raise CalendarError("idempotency key was already used for a different cancellation")
        return replay
    row = conn.execute(
        "SELECT booking_id, customer_id, day, idempotency_key FROM bookings"
        " WHERE booking_id = ? AND customer_id = ?",
        (booking_id, customer_id),
    ).fetchone()
    if row is None:
        raise SlotUnavailable("no such booking for this customer")
    booking = _booking_from_row(row[:3])
    conn.execute("DELETE FROM bookings WHERE booking_id = ?", (booking_id,))
    conn.execute(
        "UPDATE slots SET booked = booked - 1, version = version + 1 WHERE day = ? AND booked > 0",
        (booking.day.isoformat(),),
    )
    conn.execute(
        "INSERT INTO cancellations VALUES (?, ?, ?, ?, ?)",
        (idempotency_key, booking_id, customer_id, booking.day.isoformat(), row[3]),
    )
    return booking


def _read_slot(conn: sqlite3.Connection, day: date) -> Slot:
    row = conn.execute(
        f"SELECT {_SLOT_COLUMNS} FROM slots WHERE day = ?", (day.isoformat(),)
    ).fetchone()
    if row is None:
        raise SlotUnavailable(f"no visits on {day.isoformat()}")
    return _slot_from_row(row)


def _slot_from_row(row: tuple[str, int, int, int]) -> Slot:
    day, capacity, booked, version = row
    return Slot(date.fromisoformat(day), capacity, booked, version)


def _booking_from_row(row: tuple[str, str, str]) -> Booking:
    booking_id, customer_id, day = row
    return Booking(booking_id, customer_id, date.fromisoformat(day))
