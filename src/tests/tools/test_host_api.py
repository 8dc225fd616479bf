"""A business system's REST API (`api.HostApi`, `api.ResponseBody`, library `kit/host_api.py`):
a client that subclasses it names its system once, and `one_for_key` answers what an
idempotency key did. The failure semantics are also exercised through the starter's clients
(`tests/calendar_client/test_http.py`, `tests/billing_client/`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

import httpx
import pytest
import respx
from pydantic import Field, ValidationError

from contextdb_livekit.api import (
    HostApi,
    HostSystemUnavailable,
    OutcomeUnknown,
    Refusal,
    ResponseBody,
)

BASE = "https://things.test/api"


class ThingsUnavailable(HostSystemUnavailable):
    pass


class ThingsOutcomeUnknown(ThingsUnavailable, OutcomeUnknown):
    pass


class Thing(ResponseBody):
    thing_id: str
    count: int


class Things(HostApi):
    name = "things system"
    unavailable = ThingsUnavailable
    outcome_unknown = ThingsOutcomeUnknown


@pytest.fixture
async def things() -> AsyncIterator[Things]:
    client = Things(BASE, api_key="k", timeout_s=1)
    yield client
    await client.aclose()


def test_a_response_body_is_strict_and_ignores_what_it_does_not_know() -> None:
    assert Thing.model_validate_json('{"thing_id": "t1", "count": 2, "new": 1}').count == 2
    with pytest.raises(ValidationError):
        Thing.model_validate_json('{"thing_id": "t1", "count": "2"}')


@respx.mock
async def test_one_for_key_finds_one_or_none(things: Things) -> None:
    route = respx.get(f"{BASE}/v1/things")
    route.respond(200, json={"things": [{"thing_id": "t1", "count": 2}]})
    assert await things.one_for_key("/v1/things", "k-1", field="things", item=Thing) == Thing(
        thing_id="t1", count=2
    )
    assert route.calls.last.request.url.params["idempotency_key"] == "k-1"
    assert route.calls.last.request.headers["authorization"] == "Bearer k"
    route.respond(200, json={"things": []})
    assert await things.one_for_key("/v1/things", "k-2", field="things", item=Thing) is None


@respx.mock
async def test_several_for_one_key_or_an_unreadable_answer_is_the_systems_unavailable(
    things: Things,
) -> None:
    route = respx.get(f"{BASE}/v1/things")
    one = {"thing_id": "t1", "count": 2}
    route.respond(200, json={"things": [one, one]})
    with pytest.raises(ThingsUnavailable, match=r"^things system returned several things"):
        await things.one_for_key("/v1/things", "k", field="things", item=Thing)
    route.respond(200, json={"stuff": [one]})
    with pytest.raises(ThingsUnavailable, match="could not read"):
        await things.one_for_key("/v1/things", "k", field="things", item=Thing)
    route.respond(503)
    with pytest.raises(ThingsUnavailable, match=r"failed \(HTTP 503\)"):
        await things.one_for_key("/v1/things", "k", field="things", item=Thing)
    with pytest.raises(ValueError):
        await things.one_for_key("/v1/things", "", field="things", item=Thing)


@respx.mock
async def test_a_subclass_raises_its_own_outcome_unknown(things: Things) -> None:
    respx.post(f"{BASE}/v1/things").mock(side_effect=httpx.ReadTimeout("no answer"))
    with pytest.raises(ThingsOutcomeUnknown, match=r"^things system sent no answer"):
        await things.request("POST", "/v1/things", json={})


@respx.mock
async def test_names_passed_to_the_constructor_still_win() -> None:
    client = HostApi(BASE, name="stock system", unavailable=ThingsUnavailable)
    respx.get(f"{BASE}/v1/x").respond(500)
    with pytest.raises(ThingsUnavailable, match=r"^stock system failed"):
        client.parse(await client.request("GET", "/v1/x"), Thing)
    await client.aclose()


def test_a_lookup_by_key_becomes_a_resolution_and_its_receipt() -> None:
    from contextdb_livekit.api import Resolution

    found = Resolution.of("bk_1", otherwise="interrupted_before_booking")
    assert found == Resolution(True, external_ref="bk_1")
    assert found.receipt() == {"status": "succeeded", "external_ref": "bk_1"}
    missing = Resolution.of(None, otherwise="interrupted_before_booking")
    assert missing.receipt() == {"status": "failed", "error_code": "interrupted_before_booking"}


@dataclass(frozen=True)
class Count:
    thing_id: str
    count: int


class ThingRefused(Exception):
    pass


class SoldOut(Refusal):
    left: int | None = None


@respx.mock
async def test_get_reads_an_answer_or_raises_absent_on_404(things: Things) -> None:
    route = respx.get(f"{BASE}/v1/things/t1").respond(200, json={"thing_id": "t1", "count": 2})
    assert await things.get("/v1/things/t1", Count) == Count("t1", 2)
    route.respond(404)
    with pytest.raises(LookupError, match="no t1"):
        await things.get("/v1/things/t1", Thing, absent=LookupError("no t1"))
    with pytest.raises(ThingsUnavailable, match="HTTP 404"):
        await things.get("/v1/things/t1", Thing)


@dataclass(frozen=True)
class Stock:
    """The line's own type, read straight from an answer, its check on the field."""

    thing_id: str
    count: Annotated[int, Field(ge=0)]


@respx.mock
async def test_an_answer_reads_straight_into_a_dataclass_as_strictly(things: Things) -> None:
    one = respx.get(f"{BASE}/v1/things/t1").respond(
        200, json={"thing_id": "t1", "count": 2, "new": 1}
    )
    assert await things.get("/v1/things/t1", Stock) == Stock("t1", 2)
    listed = respx.get(f"{BASE}/v1/things").respond(
        200, json={"things": [{"thing_id": "t1", "count": 2}]}
    )
    assert await things.get_listed("/v1/things", "things", Stock) == [Stock("t1", 2)]
    # Not coerced ("2", true), not outside its check (-1): an answer we cannot trust.
    for count in ("2", True, -1):
        one.respond(200, json={"thing_id": "t1", "count": count})
        with pytest.raises(ThingsUnavailable, match="could not read"):
            await things.get("/v1/things/t1", Stock)
        listed.respond(200, json={"things": [{"thing_id": "t1", "count": count}]})
        with pytest.raises(ThingsUnavailable, match="could not read"):
            await things.get_listed("/v1/things", "things", Stock)


@respx.mock
async def test_get_listed_reads_the_items_with_the_query(things: Things) -> None:
    route = respx.get(f"{BASE}/v1/things").respond(
        200, json={"things": [{"thing_id": "t1", "count": 2}]}
    )
    assert await things.get_listed("/v1/things", "things", Thing, start="t") == [
        Thing(thing_id="t1", count=2)
    ]
    assert route.calls.last.request.url.params["start"] == "t"
    route.respond(200, json={"items": []})
    with pytest.raises(ThingsUnavailable, match="could not read"):
        await things.get_listed("/v1/things", "things", Thing)


async def change(things: Things, count: int = 2, **kwargs: Any) -> Thing:
    return await things.change(
        "/v1/things",
        Thing,
        idempotency_key="k-1",
        json={"thing_id": "t1", "count": count},
        refused=lambda response: ThingRefused(f"refused (HTTP {response.status_code})"),
        echoes={"thing_id": "t1", "count": count},
        what="thing",
        **kwargs,
    )


@respx.mock
async def test_change_posts_under_its_key_and_checks_the_answer_echoes_it(
    things: Things,
) -> None:
    route = respx.post(f"{BASE}/v1/things").respond(201, json={"thing_id": "t1", "count": 2})
    assert await change(things) == Thing(thing_id="t1", count=2)
    sent = route.calls.last.request
    assert sent.headers["idempotency-key"] == "k-1"
    assert json.loads(sent.content) == {"thing_id": "t1", "count": 2}
    # Another amount, or another thing, is never reported as this change.
    with pytest.raises(ThingsUnavailable, match=r"^things system answered for a different thing"):
        await change(things, count=3)
    route.respond(201, json={"thing_id": "t9", "count": 2})
    with pytest.raises(ThingsUnavailable, match="different thing"):
        await change(things)


@respx.mock
async def test_change_turns_the_systems_no_into_the_lines_exception(things: Things) -> None:
    route = respx.post(f"{BASE}/v1/things")
    for status in (409, 422):
        route.respond(status, json={"code": "sold_out"})
        with pytest.raises(ThingRefused, match=f"HTTP {status}"):
            await change(things)
    route.respond(404)
    with pytest.raises(ThingsUnavailable, match="HTTP 404"):
        await change(things)
    with pytest.raises(ThingRefused, match="HTTP 404"):
        await change(things, refused_on=(404,))
    route.respond(503)
    with pytest.raises(ThingsUnavailable, match="HTTP 503"):
        await change(things)


def test_read_refusal_reads_known_codes_only(things: Things) -> None:
    refusal = things.read_refusal(
        httpx.Response(409, json={"code": "sold_out", "left": 0}), SoldOut, codes=("sold_out",)
    )
    assert (refusal.code, refusal.left) == ("sold_out", 0)
    with pytest.raises(ThingsUnavailable, match=r"refused \(HTTP 409, duplicate\)"):
        things.read_refusal(
            httpx.Response(409, json={"code": "duplicate"}), SoldOut, codes=("sold_out",)
        )
    for unreadable in (httpx.Response(422, json={"detail": "x"}), httpx.Response(409, text="no")):
        with pytest.raises(ThingsUnavailable, match="unreadable body"):
            things.read_refusal(unreadable, Refusal, codes=("sold_out",))
