"""HttpCalendar against the documented REST contract (calendar_client/README.md), via respx."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from datetime import date

import httpx
import pytest
import respx

from calendar_client import (
    Booking,
    CalendarUnavailable,
    HttpCalendar,
    Slot,
    SlotChanged,
    SlotUnavailable,
)

BASE = "https://booking.test/api"
API_KEY = "cal-secret-key-123"
DAY = date(2026, 12, 10)
SLOT_JSON = {"day": "2026-12-10", "capacity": 2, "booked": 1, "version": 7}
SLOT = Slot(DAY, 2, 1, 7)
BOOKING_JSON = {"booking_id": "bk_1", "customer_id": "cust-1", "day": "2026-12-10"}


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


@pytest.fixture
async def calendar() -> AsyncIterator[HttpCalendar]:
    client = HttpCalendar(BASE, api_key=API_KEY, timeout_s=1)
    yield client
    await client.aclose()


def body_of(route: respx.Route) -> object:
    return json.loads(route.calls.last.request.content)


# -- each endpoint: request sent and response mapped ---------------------------------------


async def test_get_slot(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    route = api.get("/v1/slots/2026-12-10").respond(200, json=SLOT_JSON)
    assert await calendar.get_slot(DAY) == SLOT
    request = route.calls.last.request
    assert request.url == "https://booking.test/api/v1/slots/2026-12-10"
    assert request.headers["Authorization"] == f"Bearer {API_KEY}"


async def test_get_slot_404_is_unavailable(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    api.get("/v1/slots/2026-12-12").respond(404, json={"code": "no_slot"})
    with pytest.raises(SlotUnavailable):
        await calendar.get_slot(date(2026, 12, 12))


async def test_get_slot_for_another_day_is_not_trusted(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    api.get("/v1/slots/2026-12-10").respond(200, json={**SLOT_JSON, "day": "2026-12-11"})
    with pytest.raises(CalendarUnavailable, match="different day"):
        await calendar.get_slot(DAY)


@pytest.mark.parametrize("wrong", [{"capacity": -1}, {"booked": -1}])
async def test_a_slot_outside_its_checks_is_not_trusted(
    api: respx.MockRouter, calendar: HttpCalendar, wrong: dict[str, object]
) -> None:
    api.get("/v1/slots/2026-12-10").respond(200, json={**SLOT_JSON, **wrong})
    with pytest.raises(CalendarUnavailable, match="could not read"):
        await calendar.get_slot(DAY)


@pytest.mark.parametrize("booking_id", ["", "b" * 201])
async def test_a_booking_id_outside_its_checks_is_not_trusted(
    api: respx.MockRouter, calendar: HttpCalendar, booking_id: str
) -> None:
    api.get("/v1/bookings").respond(
        200, json={"bookings": [{**BOOKING_JSON, "booking_id": booking_id}]}
    )
    with pytest.raises(CalendarUnavailable, match="could not read"):
        await calendar.booking_for_key("k1")


async def test_open_days(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    second = {**SLOT_JSON, "day": "2026-12-11", "booked": 0, "version": 3}
    route = api.get("/v1/slots").respond(200, json={"slots": [SLOT_JSON, second]})
    slots = await calendar.open_days(date(2026, 12, 3), 14)
    assert slots == [SLOT, Slot(date(2026, 12, 11), 2, 0, 3)]
    params = route.calls.last.request.url.params
    assert dict(params) == {"start": "2026-12-03", "count": "14"}
    assert route.calls.last.request.headers["Authorization"] == f"Bearer {API_KEY}"


async def test_open_days_with_no_count_asks_nothing(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    route = api.get("/v1/slots").respond(200, json={"slots": []})
    assert await calendar.open_days(date(2026, 12, 3), 0) == []
    assert not route.called


@pytest.mark.parametrize("allowed", [True, False])
async def test_can_book(api: respx.MockRouter, calendar: HttpCalendar, allowed: bool) -> None:
    route = api.post("/v1/authorizations/check").respond(200, json={"allowed": allowed})
    assert await calendar.can_book("web-1", "cust-1", SLOT) is allowed
    assert body_of(route) == {"actor_id": "web-1", "customer_id": "cust-1", "day": "2026-12-10"}
    assert route.calls.last.request.headers["Authorization"] == f"Bearer {API_KEY}"


async def test_can_book_does_not_read_a_string_as_yes(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    api.post("/v1/authorizations/check").respond(200, json={"allowed": "false"})
    with pytest.raises(CalendarUnavailable):
        await calendar.can_book("web-1", "cust-1", SLOT)


@pytest.mark.parametrize("status", [200, 201])
async def test_book(api: respx.MockRouter, calendar: HttpCalendar, status: int) -> None:
    route = api.post("/v1/bookings").respond(status, json=BOOKING_JSON)
    booking = await calendar.book("cust-1", DAY, 7, idempotency_key="receipt:dec-1")
    assert booking == Booking("bk_1", "cust-1", DAY)
    request = route.calls.last.request
    assert request.headers["Idempotency-Key"] == "receipt:dec-1"
    assert request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert body_of(route) == {"customer_id": "cust-1", "day": "2026-12-10", "expected_version": 7}


@pytest.mark.parametrize(
    "confirmed",
    [{**BOOKING_JSON, "customer_id": "cust-2"}, {**BOOKING_JSON, "day": "2026-12-11"}],
    ids=["other-customer", "other-day"],
)
async def test_book_confirming_something_else_is_not_trusted(
    api: respx.MockRouter, calendar: HttpCalendar, confirmed: dict[str, str]
) -> None:
    api.post("/v1/bookings").respond(201, json=confirmed)
    with pytest.raises(CalendarUnavailable, match="different booking"):
        await calendar.book("cust-1", DAY, 7, idempotency_key="receipt:dec-1")


async def test_book_409_slot_changed(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    api.post("/v1/bookings").respond(
        409, json={"code": "slot_changed", "slot": {**SLOT_JSON, "version": 8}}
    )
    with pytest.raises(SlotChanged) as changed:
        await calendar.book("cust-1", DAY, 7, idempotency_key="k-1")
    assert changed.value.current == Slot(DAY, 2, 1, 8)


async def test_book_409_slot_changed_without_slot(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    api.post("/v1/bookings").respond(409, json={"code": "slot_changed"})
    with pytest.raises(SlotChanged) as changed:
        await calendar.book("cust-1", DAY, 7, idempotency_key="k-1")
    assert changed.value.current is None


@pytest.mark.parametrize("status", [409, 422])
async def test_book_slot_unavailable(
    api: respx.MockRouter, calendar: HttpCalendar, status: int
) -> None:
    api.post("/v1/bookings").respond(status, json={"code": "slot_unavailable"})
    with pytest.raises(SlotUnavailable):
        await calendar.book("cust-1", DAY, 7, idempotency_key="k-1")


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(409, json={"code": "duplicate_request"}),
        httpx.Response(422, json={"detail": "expected_version must be an integer"}),
        httpx.Response(409, text="conflict"),
    ],
    ids=["unknown-code", "no-code", "non-json"],
)
async def test_book_unreadable_refusal_is_unavailable(
    api: respx.MockRouter, calendar: HttpCalendar, response: httpx.Response
) -> None:
    api.post("/v1/bookings").mock(return_value=response)
    with pytest.raises(CalendarUnavailable):
        await calendar.book("cust-1", DAY, 7, idempotency_key="k-1")


async def test_book_requires_an_idempotency_key(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    route = api.post("/v1/bookings").respond(201, json=BOOKING_JSON)
    with pytest.raises(ValueError):
        await calendar.book("cust-1", DAY, 7, idempotency_key="")
    assert not route.called


async def test_bookings_for_encodes_the_id(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    route = api.get("/v1/customers/cust%3A1%2F..%3Fx/bookings").respond(
        200,
        json={"bookings": [{**BOOKING_JSON, "customer_id": "cust:1/..?x"}]},
    )
    assert await calendar.bookings_for("cust:1/..?x") == [Booking("bk_1", "cust:1/..?x", DAY)]
    assert route.calls.last.request.headers["Authorization"] == f"Bearer {API_KEY}"


@pytest.mark.parametrize("customer_id", ["", ".", ".."])
async def test_bookings_for_refuses_ids_that_are_not_a_path_segment(
    calendar: HttpCalendar, customer_id: str
) -> None:
    with pytest.raises(ValueError):
        await calendar.bookings_for(customer_id)


async def test_no_authorization_header_without_a_key(api: respx.MockRouter) -> None:
    route = api.get("/v1/slots/2026-12-10").respond(200, json=SLOT_JSON)
    client = HttpCalendar(BASE)
    try:
        await client.get_slot(DAY)
    finally:
        await client.aclose()
    assert "Authorization" not in route.calls.last.request.headers


async def test_unknown_fields_are_ignored(api: respx.MockRouter, calendar: HttpCalendar) -> None:
    api.get("/v1/slots/2026-12-10").respond(200, json={**SLOT_JSON, "technician": "Sam"})
    assert await calendar.get_slot(DAY) == SLOT


# -- failures are CalendarUnavailable, on every endpoint -----------------------------------

ENDPOINTS = {
    "get_slot": (("GET", "/v1/slots/2026-12-10"), lambda c: c.get_slot(DAY)),
    "open_days": (("GET", "/v1/slots"), lambda c: c.open_days(DAY, 5)),
    "can_book": (("POST", "/v1/authorizations/check"), lambda c: c.can_book("a", "c", SLOT)),
    "book": (("POST", "/v1/bookings"), lambda c: c.book("c", DAY, 7, idempotency_key="k-1")),
    "bookings_for": (("GET", "/v1/customers/c/bookings"), lambda c: c.bookings_for("c")),
}

FAILURES = {
    "401": httpx.Response(401, json={"error": f"bad key {API_KEY}"}),
    "403": httpx.Response(403, json={"error": "forbidden"}),
    "400": httpx.Response(400, json={"error": "bad request"}),
    "429": httpx.Response(429, json={"error": "slow down"}),
    "500": httpx.Response(500, json={"code": "boom"}),
    "502": httpx.Response(502, text="bad gateway"),
    "503": httpx.Response(503, text="unavailable"),
    "204": httpx.Response(204),
    "302": httpx.Response(302, headers={"Location": "https://elsewhere.test/"}),
    "non-json": httpx.Response(200, text="<html>maintenance</html>"),
    "empty": httpx.Response(200, content=b""),
    "json-list": httpx.Response(200, json=[]),
    "wrong-shape": httpx.Response(
        200, json={"day": "2026-12-10", "slots": "x", "allowed": None, "bookings": {}}
    ),
    "wrong-types": httpx.Response(
        200,
        json={
            "day": 20261210,
            "capacity": "2",
            "booked": 1.5,
            "version": None,
            "allowed": "yes",
            "booking_id": "",
            "customer_id": 5,
            "slots": [{"day": "2026-12-10"}],
            "bookings": [{"booking_id": "bk_1"}],
        },
    ),
}


@pytest.mark.parametrize("failure", FAILURES, ids=list(FAILURES))
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=list(ENDPOINTS))
async def test_bad_answers_are_unavailable(
    api: respx.MockRouter, calendar: HttpCalendar, endpoint: str, failure: str
) -> None:
    (method, path), call = ENDPOINTS[endpoint]
    route = api.route(method=method, path=path).mock(return_value=FAILURES[failure])
    with pytest.raises(CalendarUnavailable) as raised:
        await call(calendar)
    assert route.called
    assert API_KEY not in str(raised.value)


@pytest.mark.parametrize(
    "exc",
    [httpx.ReadTimeout, httpx.ConnectTimeout, httpx.ConnectError, httpx.RemoteProtocolError],
)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=list(ENDPOINTS))
async def test_transport_failures_are_unavailable(
    api: respx.MockRouter, calendar: HttpCalendar, endpoint: str, exc: type[Exception]
) -> None:
    (method, path), call = ENDPOINTS[endpoint]
    api.route(method=method, path=path).mock(side_effect=exc)
    with pytest.raises(CalendarUnavailable) as raised:
        await call(calendar)
    assert API_KEY not in str(raised.value)


async def test_status_and_reason_are_in_the_message(
    api: respx.MockRouter, calendar: HttpCalendar
) -> None:
    api.get("/v1/slots/2026-12-10").respond(503)
    with pytest.raises(CalendarUnavailable, match="HTTP 503"):
        await calendar.get_slot(DAY)
    api.get("/v1/slots/2026-12-10").respond(401)
    with pytest.raises(CalendarUnavailable, match="credentials"):
        await calendar.get_slot(DAY)
    api.get("/v1/slots/2026-12-10").mock(side_effect=httpx.ReadTimeout)
    with pytest.raises(CalendarUnavailable, match="timed out"):
        await calendar.get_slot(DAY)


# -- the transport hook and the overall deadline -------------------------------------------


async def test_custom_transport_and_base_path() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=SLOT_JSON)

    client = HttpCalendar(
        "http://calendar.internal:8080/prefix/", transport=httpx.MockTransport(handler)
    )
    try:
        assert await client.get_slot(DAY) == SLOT
    finally:
        await client.aclose()
    assert str(seen[0].url) == "http://calendar.internal:8080/prefix/v1/slots/2026-12-10"


async def test_a_slow_host_is_cut_off_at_the_deadline() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(10)
        return httpx.Response(200, json=SLOT_JSON)

    client = HttpCalendar(BASE, timeout_s=0.2, transport=httpx.MockTransport(handler))
    started = time.monotonic()
    try:
        with pytest.raises(CalendarUnavailable, match="timed out"):
            await client.get_slot(DAY)
    finally:
        await client.aclose()
    assert time.monotonic() - started < 2


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError):
        HttpCalendar(BASE, timeout_s=0)
