"""The embedded SQLite calendar: seeding, optimistic versions, idempotency, authorization."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest

from calendar_client import (
    Booking,
    CalendarClient,
    CalendarError,
    CalendarUnavailable,
    LocalCalendar,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from tests.calendar_client.race_worker import race_for_days

TODAY = date(2026, 12, 3)  # a Thursday
FRIDAY = date(2026, 12, 4)
SATURDAY = date(2026, 12, 5)
MONDAY = date(2026, 12, 7)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "dir" / "calendar.sqlite3"


@pytest.fixture
def calendar(db: Path) -> LocalCalendar:
    return LocalCalendar(db, today=TODAY, capacity=2)


def test_is_a_calendar_client(calendar: LocalCalendar) -> None:
    client: CalendarClient = calendar  # type-checks against the protocol
    assert client is calendar


async def test_seeds_weekdays_only_for_seed_days(tmp_path: Path) -> None:
    calendar = LocalCalendar(tmp_path / "c.sqlite3", today=TODAY, seed_days=10, capacity=3)
    slots = await calendar.open_days(TODAY, 100)
    assert [s.day for s in slots] == [
        TODAY + timedelta(days=n) for n in range(10) if (TODAY + timedelta(days=n)).weekday() < 5
    ]
    assert all((s.capacity, s.booked, s.version) == (3, 0, 1) for s in slots)
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(TODAY + timedelta(days=14))  # a weekday beyond the seed window
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(TODAY - timedelta(days=1))


async def test_default_seed_is_thirty_days(calendar: LocalCalendar) -> None:
    slots = await calendar.open_days(TODAY, 100)
    assert slots[-1].day == date(2027, 1, 1)  # TODAY + 29 days, a Friday
    assert len(slots) == 22


async def test_get_slot_and_weekend(calendar: LocalCalendar, db: Path) -> None:
    slot = await calendar.get_slot(FRIDAY)
    assert db.exists()  # parent directories were created on first use
    assert slot == Slot(FRIDAY, 2, 0, 1)
    assert slot.is_open
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(SATURDAY)
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(date(2026, 12, 6))


async def test_file_uses_wal(calendar: LocalCalendar, db: Path) -> None:
    await calendar.get_slot(FRIDAY)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


async def test_constructing_does_not_touch_the_disk(db: Path) -> None:
    LocalCalendar(db, today=TODAY)
    assert not db.exists()


async def test_book_moves_count_and_version(calendar: LocalCalendar) -> None:
    booking = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="key-1")
    assert booking.customer_id == "cust-1"
    assert booking.day == FRIDAY
    assert booking.booking_id.startswith("bk_")
    assert await calendar.get_slot(FRIDAY) == Slot(FRIDAY, 2, 1, 2)
    assert await calendar.bookings_for("cust-1") == [booking]


async def test_stale_version_is_slot_changed(calendar: LocalCalendar) -> None:
    await calendar.book("cust-1", FRIDAY, 1, idempotency_key="key-1")
    with pytest.raises(SlotChanged) as changed:
        await calendar.book("cust-2", FRIDAY, 1, idempotency_key="key-2")
    assert changed.value.current == Slot(FRIDAY, 2, 1, 2)
    assert await calendar.bookings_for("cust-2") == []
    assert (await calendar.get_slot(FRIDAY)).booked == 1


async def test_full_day_is_unavailable(calendar: LocalCalendar) -> None:
    await calendar.book("cust-1", FRIDAY, 1, idempotency_key="key-1")
    await calendar.book("cust-2", FRIDAY, 2, idempotency_key="key-2")
    full = await calendar.get_slot(FRIDAY)
    assert (full.booked, full.is_open) == (2, False)
    with pytest.raises(SlotUnavailable):
        await calendar.book("cust-3", FRIDAY, full.version, idempotency_key="key-3")
    assert await calendar.get_slot(FRIDAY) == full


async def test_booking_a_day_without_slot_is_unavailable(calendar: LocalCalendar) -> None:
    with pytest.raises(SlotUnavailable):
        await calendar.book("cust-1", SATURDAY, 1, idempotency_key="key-1")
    assert await calendar.bookings_for("cust-1") == []


async def test_idempotent_replay_returns_the_same_booking(calendar: LocalCalendar) -> None:
    first = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="receipt:d-1")
    # The retry still carries the version it read first; it must not be told SlotChanged.
    replay = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="receipt:d-1")
    assert replay == first
    assert await calendar.get_slot(FRIDAY) == Slot(FRIDAY, 2, 1, 2)
    assert await calendar.bookings_for("cust-1") == [first]


async def test_replay_survives_the_day_filling_up(calendar: LocalCalendar) -> None:
    first = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="receipt:d-1")
    await calendar.book("cust-2", FRIDAY, 2, idempotency_key="receipt:d-2")
    assert await calendar.book("cust-1", FRIDAY, 1, idempotency_key="receipt:d-1") == first


async def test_key_reused_for_another_booking_is_refused(calendar: LocalCalendar) -> None:
    await calendar.book("cust-1", FRIDAY, 1, idempotency_key="receipt:d-1")
    with pytest.raises(CalendarError, match="different booking"):
        await calendar.book("cust-2", FRIDAY, 2, idempotency_key="receipt:d-1")
    with pytest.raises(CalendarError, match="different booking"):
        await calendar.book("cust-1", MONDAY, 1, idempotency_key="receipt:d-1")
    assert await calendar.bookings_for("cust-2") == []
    assert (await calendar.get_slot(MONDAY)).booked == 0


@pytest.mark.parametrize(("customer", "key"), [("", "k-1"), ("cust-1", "")])
async def test_book_requires_customer_and_key(
    calendar: LocalCalendar, customer: str, key: str
) -> None:
    with pytest.raises(ValueError):
        await calendar.book(customer, FRIDAY, 1, idempotency_key=key)
    assert (await calendar.get_slot(FRIDAY)).booked == 0


async def test_slot_changed_by_another_instance_between_check_and_book(
    calendar: LocalCalendar, db: Path
) -> None:
    checked = await calendar.get_slot(FRIDAY)
    other_process_view = LocalCalendar(db, today=TODAY)
    await other_process_view.book("cust-2", FRIDAY, checked.version, idempotency_key="other")
    with pytest.raises(SlotChanged) as changed:
        await calendar.book("cust-1", FRIDAY, checked.version, idempotency_key="mine")
    assert changed.value.current is not None
    assert changed.value.current.version == checked.version + 1
    retry = await calendar.book(
        "cust-1", FRIDAY, changed.value.current.version, idempotency_key="mine"
    )
    assert retry.customer_id == "cust-1"
    assert (await calendar.get_slot(FRIDAY)).booked == 2


async def test_open_days_skips_full_days_and_respects_count(calendar: LocalCalendar) -> None:
    await calendar.book("a", FRIDAY, 1, idempotency_key="a")
    await calendar.book("b", FRIDAY, 2, idempotency_key="b")
    days = [s.day for s in await calendar.open_days(TODAY, 3)]
    assert days == [TODAY, MONDAY, date(2026, 12, 8)]
    assert [s.day for s in await calendar.open_days(MONDAY, 1)] == [MONDAY]
    assert await calendar.open_days(TODAY, 0) == []
    assert await calendar.open_days(TODAY, -1) == []


async def test_bookings_for_is_per_customer_and_ordered(calendar: LocalCalendar) -> None:
    later = await calendar.book("cust-1", MONDAY, 1, idempotency_key="k-1")
    other = await calendar.book("cust-2", FRIDAY, 1, idempotency_key="k-2")
    earlier = await calendar.book("cust-1", FRIDAY, 2, idempotency_key="k-3")
    assert await calendar.bookings_for("cust-1") == [earlier, later]
    assert await calendar.bookings_for("cust-2") == [other]
    assert await calendar.bookings_for("nobody") == []


async def test_authorization(calendar: LocalCalendar) -> None:
    slot = await calendar.get_slot(FRIDAY)
    assert await calendar.can_book("web-1", "cust-1", slot)
    await calendar.block_actor("web-1")
    assert not await calendar.can_book("web-1", "cust-1", slot)
    assert await calendar.can_book("web-2", "cust-1", slot)
    await calendar.place_hold("cust-2")
    assert not await calendar.can_book("web-2", "cust-2", slot)
    assert await calendar.can_book("web-2", "cust-1", slot)


async def test_blocked_actors_from_the_constructor(db: Path) -> None:
    calendar = LocalCalendar(db, today=TODAY, blocked_actors=frozenset({"kiosk-7"}))
    slot = await calendar.get_slot(FRIDAY)
    assert not await calendar.can_book("kiosk-7", "cust-1", slot)
    assert await calendar.can_book("kiosk-8", "cust-1", slot)


async def test_blocks_and_holds_are_shared_through_the_file(
    calendar: LocalCalendar, db: Path
) -> None:
    slot = await calendar.get_slot(FRIDAY)
    await calendar.block_actor("web-1")
    await calendar.place_hold("cust-9")
    other = LocalCalendar(db, today=TODAY)
    assert not await other.can_book("web-1", "cust-1", slot)
    assert not await other.can_book("web-2", "cust-9", slot)


async def test_persists_across_reopen_without_reseeding(calendar: LocalCalendar, db: Path) -> None:
    booking = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="k-1")
    await calendar.aclose()
    # Reopened a week later with another capacity: seeded days keep their counts, new days appear.
    reopened = LocalCalendar(db, today=TODAY + timedelta(days=7), capacity=5)
    assert await reopened.get_slot(FRIDAY) == Slot(FRIDAY, 2, 1, 2)
    assert await reopened.bookings_for("cust-1") == [booking]
    assert (await reopened.get_slot(date(2027, 1, 8))).capacity == 5
    assert await reopened.book("cust-1", FRIDAY, 1, idempotency_key="k-1") == booking


async def test_concurrent_bookings_in_one_process_never_overbook(
    calendar: LocalCalendar,
) -> None:
    slot = await calendar.get_slot(FRIDAY)
    outcomes = await asyncio.gather(
        *(
            calendar.book(f"cust-{n}", FRIDAY, slot.version, idempotency_key=f"k-{n}")
            for n in range(6)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(o, Booking) for o in outcomes) == 1
    assert all(isinstance(o, Booking | SlotChanged) for o in outcomes)
    assert (await calendar.get_slot(FRIDAY)).booked == 1


async def test_unusable_file_is_calendar_unavailable(tmp_path: Path) -> None:
    (tmp_path / "not-a-dir").write_text("")
    for path in [tmp_path, tmp_path / "not-a-dir" / "c.sqlite3"]:
        calendar = LocalCalendar(path, today=TODAY)
        with pytest.raises(CalendarUnavailable):
            await calendar.get_slot(FRIDAY)


async def test_a_long_write_lock_is_calendar_unavailable_not_a_crash(
    calendar: LocalCalendar, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await calendar.get_slot(FRIDAY)
    monkeypatch.setattr("contextdb_livekit.kit.host_sqlite._BUSY_TIMEOUT_S", 0.05)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(CalendarUnavailable, match="locked"):
            await calendar.book("cust-1", FRIDAY, 1, idempotency_key="k-1")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (await calendar.book("cust-1", FRIDAY, 1, idempotency_key="k-1")).day == FRIDAY


@pytest.mark.parametrize(("seed_days", "capacity"), [(-1, 2), (30, 0)])
def test_rejects_nonsense_configuration(db: Path, seed_days: int, capacity: int) -> None:
    with pytest.raises(ValueError):
        LocalCalendar(db, seed_days=seed_days, capacity=capacity)


async def test_two_processes_race_for_the_last_visit(tmp_path: Path) -> None:
    db = tmp_path / "race.sqlite3"
    calendar = LocalCalendar(db, today=TODAY, capacity=2)
    days = [d.day for d in await calendar.open_days(TODAY, 8)]
    for n, day in enumerate(days):
        await calendar.book(f"early-{n}", day, 1, idempotency_key=f"early-{n}")
    # Every day now has one visit left, at version 2, and both racers read that version.
    context = multiprocessing.get_context("spawn")
    start_together = context.Barrier(2)
    results = context.Queue()
    racers = [
        context.Process(
            target=race_for_days,
            args=(str(db), [d.isoformat() for d in days], 2, who, start_together, results),
        )
        for who in ("racer-a", "racer-b")
    ]
    for racer in racers:
        racer.start()
    try:
        outcomes = [await asyncio.to_thread(results.get, True, 60) for _ in range(2 * len(days))]
    finally:
        for racer in racers:
            await asyncio.to_thread(racer.join, 30)
            if racer.is_alive():
                racer.kill()
    assert [racer.exitcode for racer in racers] == [0, 0]

    for day in days:
        on_day = sorted(outcome for _, d, outcome in outcomes if d == day.isoformat())
        assert len(on_day) == 2
        assert on_day.count("booked") == 1, (day, on_day)
        assert set(on_day) - {"booked"} <= {"SlotChanged", "SlotUnavailable"}
        after = await calendar.get_slot(day)
        assert after.booked == after.capacity == 2
    racers_bookings = [
        b for who in ("racer-a", "racer-b") for b in await calendar.bookings_for(who)
    ]
    assert sorted(b.day for b in racers_bookings) == days


async def test_cancel_frees_the_visit_and_lists_only_live_bookings(
    calendar: LocalCalendar,
) -> None:
    kept = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="book-1")
    gone = await calendar.book("cust-1", MONDAY, 1, idempotency_key="book-2")
    assert await calendar.cancel("cust-1", gone.booking_id, idempotency_key="cancel-1") == gone
    assert await calendar.get_slot(MONDAY) == Slot(MONDAY, 2, 0, 3)
    assert await calendar.bookings_for("cust-1") == [kept]
    # Crash recovery still finds what each key did, the cancelled booking included.
    assert await calendar.booking_for_key("book-2") == gone
    assert await calendar.cancellation_for_key("cancel-1") == gone
    assert await calendar.cancellation_for_key("book-2") is None
    assert await calendar.cancellation_for_key("cancel-2") is None


async def test_cancel_replays_its_key_and_refuses_it_for_another_cancellation(
    calendar: LocalCalendar,
) -> None:
    one = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="book-1")
    two = await calendar.book("cust-1", MONDAY, 1, idempotency_key="book-2")
    first = await calendar.cancel("cust-1", one.booking_id, idempotency_key="cancel-1")
    assert await calendar.cancel("cust-1", one.booking_id, idempotency_key="cancel-1") == first
    assert (await calendar.get_slot(FRIDAY)).booked == 0  # freed once, not twice
    with pytest.raises(CalendarError, match="different cancellation"):
        await calendar.cancel("cust-1", two.booking_id, idempotency_key="cancel-1")
    assert await calendar.bookings_for("cust-1") == [two]
    with pytest.raises(ValueError):
        await calendar.cancel("cust-1", two.booking_id, idempotency_key="")


async def test_cancel_refuses_a_booking_that_is_gone_or_someone_elses(
    calendar: LocalCalendar,
) -> None:
    booking = await calendar.book("cust-1", FRIDAY, 1, idempotency_key="book-1")
    with pytest.raises(SlotUnavailable):
        await calendar.cancel("cust-2", booking.booking_id, idempotency_key="cancel-1")
    with pytest.raises(SlotUnavailable):
        await calendar.cancel("cust-1", "bk_nothing", idempotency_key="cancel-2")
    await calendar.cancel("cust-1", booking.booking_id, idempotency_key="cancel-3")
    with pytest.raises(SlotUnavailable):  # already cancelled, under a new key
        await calendar.cancel("cust-1", booking.booking_id, idempotency_key="cancel-4")
    assert await calendar.get_slot(FRIDAY) == Slot(FRIDAY, 2, 0, 3)


# The file as the calendar wrote it before `cancel_key`: a cancelled booking moved out of
# `bookings` into `cancellations`, under the cancellation's key and its booking's.
_FILE_BEFORE_CANCEL_KEY = """
CREATE TABLE slots (day TEXT PRIMARY KEY, capacity INTEGER NOT NULL, booked INTEGER NOT NULL,
    version INTEGER NOT NULL);
CREATE TABLE bookings (booking_id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, day TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE);
CREATE TABLE cancellations (idempotency_key TEXT PRIMARY KEY, booking_id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL, day TEXT NOT NULL, booking_key TEXT NOT NULL);
INSERT INTO slots VALUES ('2026-12-04', 2, 1, 3), ('2026-12-07', 2, 0, 3);
INSERT INTO bookings VALUES ('bk_kept', 'cust_a', '2026-12-04', 'book-key-1');
INSERT INTO cancellations VALUES ('cancel-key-2', 'bk_gone', 'cust_a', '2026-12-07', 'book-key-2');
"""


async def test_a_file_from_before_cancel_keys_keeps_its_bookings_and_cancellations(
    db: Path,
) -> None:
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as conn:
        conn.executescript(_FILE_BEFORE_CANCEL_KEY)
    calendar = LocalCalendar(db, today=TODAY)

    assert await calendar.bookings_for("cust_a") == [Booking("bk_kept", "cust_a", FRIDAY)]
    gone = Booking("bk_gone", "cust_a", MONDAY)
    # Both keys still answer for what they did: the booking and its cancellation.
    assert await calendar.booking_for_key("book-key-2") == gone
    assert await calendar.cancellation_for_key("cancel-key-2") == gone
    assert await calendar.cancel("cust_a", "bk_gone", idempotency_key="cancel-key-2") == gone
    assert (await calendar.get_slot(FRIDAY)).booked == 1
    # The live booking can still be cancelled, once.
    await calendar.cancel("cust_a", "bk_kept", idempotency_key="cancel-key-3")
    assert await calendar.bookings_for("cust_a") == []
    with pytest.raises(CalendarError):
        await calendar.cancel("cust_a", "bk_gone", idempotency_key="cancel-key-3")
    # Opened again (another process, a restart): nothing is moved twice.
    assert await LocalCalendar(db, today=TODAY).cancellation_for_key("cancel-key-2") == gone
    # And no second copy of them is left behind to outlive the bookings' own.
    with sqlite3.connect(db) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "cancellations" not in tables
