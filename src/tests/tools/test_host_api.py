"""A business system's REST API (`api.HostApi`, `api.ResponseBody`, library `kit/host_api.py`):
a client that subclasses it names its system once, and `one_for_key` answers what an
idempotency key did. The failure semantics are also exercised through the starter's clients
(`tests/calendar_client/test_http.py`, `tests/billing_client/`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import respx
from pydantic import ValidationError

from contextdb_livekit.api import HostApi, HostSystemUnavailable, OutcomeUnknown, ResponseBody

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
