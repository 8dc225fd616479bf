"""`booking_for_key`: crash recovery finds this attempt's booking by its idempotency key."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import httpx
import pytest
import respx

from calendar_client import (
    Booking,
    CalendarUnavailable,
    HttpCalendar,
    LocalCalendar,
)
from tests.calendar_client.test_http import BASE, BOOKING_JSON, FAILURES

DAY = date(2026, 12, 10)


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalCalendar]:
    calendar = LocalCalendar(tmp_path / "calendar.sqlite3", today=date(2026, 12, 7))
    yield calendar
    await calendar.aclose()


async def test_local_finds_the_booking_made_under_the_key_only(local: LocalCalendar) -> None:
    earlier = await local.book("cust-1", DAY, 1, idempotency_key="receipt:earlier")
    assert await local.booking_for_key("receipt:this-attempt") is None
    this = await local.book("cust-1", DAY, 2, idempotency_key="receipt:this-attempt")
    assert await local.booking_for_key("receipt:this-attempt") == this
    assert await local.booking_for_key("receipt:earlier") == earlier
    assert earlier != this


@pytest.fixture
async def http() -> AsyncIterator[HttpCalendar]:
    client = HttpCalendar(BASE, api_key="k", timeout_s=1)
    yield client
    await client.aclose()


async def test_http_sends_the_key_as_a_query_and_maps_the_answer(http: HttpCalendar) -> None:
    with respx.mock(base_url=BASE) as api:
        route = api.get("/v1/bookings").respond(200, json={"bookings": [BOOKING_JSON]})
        assert await http.booking_for_key("receipt:a/b?c") == Booking("bk_1", "cust-1", DAY)
        assert route.calls.last.request.url.params["idempotency_key"] == "receipt:a/b?c"
        route.respond(200, json={"bookings": []})
        assert await http.booking_for_key("receipt:none") is None
        route.respond(200, json={"bookings": [BOOKING_JSON, BOOKING_JSON]})
        with pytest.raises(CalendarUnavailable, match="several bookings"):
            await http.booking_for_key("receipt:twice")


@pytest.mark.parametrize("failure", sorted(FAILURES))
async def test_http_failures_are_calendar_unavailable(http: HttpCalendar, failure: str) -> None:
    with respx.mock(base_url=BASE) as api:
        api.get("/v1/bookings").mock(return_value=FAILURES[failure])
        with pytest.raises(CalendarUnavailable):
            await http.booking_for_key("receipt:x")


async def test_http_timeout_is_calendar_unavailable(http: HttpCalendar) -> None:
    with respx.mock(base_url=BASE) as api:
        api.get("/v1/bookings").mock(side_effect=httpx.ReadTimeout("slow"))
        with pytest.raises(CalendarUnavailable):
            await http.booking_for_key("receipt:x")
