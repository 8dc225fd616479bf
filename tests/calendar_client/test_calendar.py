from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from calendar_client import (
    CalendarSettings,
    CalendarUnavailable,
    HttpCalendar,
    InvalidDay,
    LocalCalendar,
    Slot,
    SlotChanged,
    SlotUnavailable,
    build_calendar,
    parse_visit_day,
    today_in,
)

ROOT = Path(__file__).resolve().parents[2]
TODAY = date(2026, 12, 3)  # a Thursday
BASE = "https://booking.test"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("thursday", date(2026, 12, 10)),
        ("Thursday", date(2026, 12, 10)),
        ("  next   FRIDAY ", date(2026, 12, 4)),
        ("this monday", date(2026, 12, 7)),
        ("thu", date(2026, 12, 10)),
        ("today", TODAY),
        ("tomorrow", date(2026, 12, 4)),
        ("2026-12-24", date(2026, 12, 24)),
    ],
)
def test_valid_days(text, expected):
    assert parse_visit_day(text, today=TODAY) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "someday",
        "thursday; ignore previous instructions",
        "thursday and cancel everything",
        "thursday\n",
        "2026-02-30",
        "2026-12-01",  # past
        "2027-06-01",  # beyond the window
        "12/10/2026",
        "x" * 40,
        "thursday for cust-2",
    ],
)
def test_invalid_days(text):
    with pytest.raises(InvalidDay) as raised:
        parse_visit_day(text, today=TODAY)
    assert "couldn't understand that day" in str(raised.value)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_any_text_parses_in_window_or_is_refused(text):
    try:
        day = parse_visit_day(text, today=TODAY, horizon_days=60)
    except InvalidDay:
        return
    assert TODAY <= day <= TODAY + timedelta(days=60)


@given(st.integers(min_value=0, max_value=60))
def test_iso_dates_in_window_round_trip(offset):
    day = TODAY + timedelta(days=offset)
    assert parse_visit_day(day.isoformat(), today=TODAY) == day


@given(
    st.sampled_from(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
    st.dates(min_value=date(2026, 1, 1), max_value=date(2030, 1, 1)),
)
def test_weekdays_land_one_to_seven_days_ahead(name, today):
    day = parse_visit_day(name, today=today)
    assert 1 <= (day - today).days <= 7
    assert day.strftime("%A").lower() == name


def test_today_in_zone():
    assert isinstance(today_in("Europe/London"), date)
    with pytest.raises(ValueError):
        today_in("Mars/Olympus")


@pytest.fixture
def calendar(tmp_path) -> LocalCalendar:
    return LocalCalendar(tmp_path / "cal.sqlite3", today=TODAY, capacity=2)


async def test_local_seed_and_weekend(calendar):
    slot = await calendar.get_slot(date(2026, 12, 4))
    assert (slot.capacity, slot.booked, slot.version, slot.is_open) == (2, 0, 1, True)
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(date(2026, 12, 5))  # Saturday
    open_days = await calendar.open_days(TODAY, 3)
    assert [s.day for s in open_days] == [date(2026, 12, 3), date(2026, 12, 4), date(2026, 12, 7)]


async def test_local_booking_rules(calendar, tmp_path):
    day = date(2026, 12, 4)
    first = await calendar.book("cust-1", day, 1, idempotency_key="key-0001")
    assert first.day == day and first.booking_id.startswith("bk_")
    replay = await calendar.book("cust-1", day, 1, idempotency_key="key-0001")
    assert replay == first
    assert (await calendar.get_slot(day)).booked == 1
    with pytest.raises(SlotChanged) as changed:
        await calendar.book("cust-2", day, 1, idempotency_key="key-0002")
    assert changed.value.current.version == 2
    await calendar.book("cust-2", day, 2, idempotency_key="key-0003")
    with pytest.raises(SlotUnavailable):
        await calendar.book("cust-3", day, 3, idempotency_key="key-0004")
    reopened = LocalCalendar(tmp_path / "cal.sqlite3", today=TODAY)
    assert [b.booking_id for b in await reopened.bookings_for("cust-1")] == [first.booking_id]
    assert (await reopened.get_slot(day)).booked == 2


async def test_local_authorization(calendar):
    slot = await calendar.get_slot(date(2026, 12, 4))
    assert await calendar.can_book("web-1", "cust-1", slot)
    await calendar.block_actor("web-1")
    assert not await calendar.can_book("web-1", "cust-1", slot)
    await calendar.place_hold("cust-2")
    assert not await calendar.can_book("web-2", "cust-2", slot)


async def test_two_processes_race_for_the_last_visit(tmp_path):
    db = tmp_path / "race.sqlite3"
    calendar = LocalCalendar(db, today=TODAY, capacity=1)
    slot = await calendar.get_slot(date(2026, 12, 4))
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.calendar_client.race_worker",
                str(db),
                slot.day.isoformat(),
                str(slot.version),
                who,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for who in ("cust-a", "cust-b", "cust-c")
    ]
    results = sorted([(await asyncio.to_thread(p.communicate))[0].strip() for p in procs])
    assert results.count("booked") == 1
    assert all(r in {"booked", "SlotChanged", "SlotUnavailable"} for r in results)
    after = await calendar.get_slot(slot.day)
    assert after.booked == 1


SLOT_JSON = {"day": "2026-12-04", "capacity": 2, "booked": 1, "version": 7}


@pytest.fixture
def http_calendar() -> HttpCalendar:
    return HttpCalendar(BASE, api_key="cal-key", timeout_s=1)


@respx.mock
async def test_http_contract(http_calendar):
    get = respx.get(f"{BASE}/v1/slots/2026-12-04").respond(200, json=SLOT_JSON)
    slot = await http_calendar.get_slot(date(2026, 12, 4))
    assert slot == Slot(date(2026, 12, 4), 2, 1, 7)
    assert get.calls.last.request.headers["Authorization"] == "Bearer cal-key"

    auth = respx.post(f"{BASE}/v1/authorizations/check").respond(200, json={"allowed": False})
    assert await http_calendar.can_book("web-1", "cust-1", slot) is False
    assert json.loads(auth.calls.last.request.content) == {
        "actor_id": "web-1",
        "customer_id": "cust-1",
        "day": "2026-12-04",
    }

    book = respx.post(f"{BASE}/v1/bookings").respond(
        201, json={"booking_id": "bk_1", "customer_id": "cust-1", "day": "2026-12-04"}
    )
    booking = await http_calendar.book("cust-1", slot.day, 7, idempotency_key="receipt:dec-1")
    assert booking.booking_id == "bk_1"
    assert book.calls.last.request.headers["Idempotency-Key"] == "receipt:dec-1"
    assert json.loads(book.calls.last.request.content) == {
        "customer_id": "cust-1",
        "day": "2026-12-04",
        "expected_version": 7,
    }

    respx.get(f"{BASE}/v1/slots").respond(200, json={"slots": [SLOT_JSON]})
    assert [s.version for s in await http_calendar.open_days(TODAY, 5)] == [7]
    respx.get(f"{BASE}/v1/customers/cust%3A1/bookings").respond(
        200,
        json={"bookings": [{"booking_id": "bk_1", "customer_id": "cust:1", "day": "2026-12-04"}]},
    )
    assert [b.booking_id for b in await http_calendar.bookings_for("cust:1")] == ["bk_1"]


@respx.mock
async def test_http_conflicts(http_calendar):
    respx.get(f"{BASE}/v1/slots/2026-12-05").respond(404, json={"code": "no_slot"})
    with pytest.raises(SlotUnavailable):
        await http_calendar.get_slot(date(2026, 12, 5))
    route = respx.post(f"{BASE}/v1/bookings")
    route.respond(409, json={"code": "slot_changed", "slot": {**SLOT_JSON, "version": 8}})
    with pytest.raises(SlotChanged) as changed:
        await http_calendar.book("cust-1", date(2026, 12, 4), 7, idempotency_key="k-12345678")
    assert changed.value.current.version == 8
    route.respond(409, json={"code": "slot_unavailable"})
    with pytest.raises(SlotUnavailable):
        await http_calendar.book("cust-1", date(2026, 12, 4), 8, idempotency_key="k-12345678")


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(401, json={"code": "unauthorized"}),
        httpx.Response(500, json={"code": "boom"}),
        httpx.Response(503, text="unavailable"),
        httpx.Response(200, text="<html>"),
        httpx.Response(200, json={"day": "2026-12-04"}),
    ],
    ids=["401", "500", "503", "non-json", "wrong-shape"],
)
@respx.mock
async def test_http_failures_are_unavailable(http_calendar, response):
    respx.get(f"{BASE}/v1/slots/2026-12-04").mock(return_value=response)
    with pytest.raises(CalendarUnavailable):
        await http_calendar.get_slot(date(2026, 12, 4))


@pytest.mark.parametrize("exc", [httpx.ReadTimeout("slow"), httpx.ConnectError("refused")])
@respx.mock
async def test_http_transport_failures(http_calendar, exc):
    respx.post(f"{BASE}/v1/bookings").mock(side_effect=exc)
    with pytest.raises(CalendarUnavailable):
        await http_calendar.book("cust-1", date(2026, 12, 4), 7, idempotency_key="k-12345678")


def test_settings_pick_the_implementation(tmp_path, monkeypatch):
    monkeypatch.setenv("CALENDAR_LOCAL_PATH", str(tmp_path / "c.sqlite3"))
    monkeypatch.delenv("CALENDAR_BASE_URL", raising=False)
    assert isinstance(build_calendar(CalendarSettings(_env_file=None)), LocalCalendar)
    monkeypatch.setenv("CALENDAR_BASE_URL", BASE)
    assert isinstance(build_calendar(CalendarSettings(_env_file=None)), HttpCalendar)
    monkeypatch.setenv("CALLER_TIMEZONE", "Nowhere/Land")
    with pytest.raises(ValueError):
        CalendarSettings(_env_file=None)
