"""Service credits on the billing system: the local SQLite default and the REST client (respx).

A credit is applied once per idempotency key, a replay answers with the original, a key
reused for another customer or amount is refused loudly, and an answer lost after sending is
`BillingOutcomeUnknown` (look the credit up by its key before saying anything).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import respx

from billing_client import (
    BillingError,
    BillingOutcomeUnknown,
    BillingUnavailable,
    Credit,
    CreditRefused,
    HttpBilling,
    LocalBilling,
)

BASE = "https://billing.test/api"
CREDIT_JSON = {"credit_id": "cr_1", "customer_id": "cust-1", "pence": 2500}


# -- local ---------------------------------------------------------------------------------


@pytest.fixture
def local(tmp_path: Path) -> LocalBilling:
    return LocalBilling(tmp_path / "billing.sqlite3")


async def test_a_key_applies_one_credit_and_a_replay_returns_it(local: LocalBilling) -> None:
    first = await local.apply_credit("cust-1", 2500, idempotency_key="k1")
    again = await local.apply_credit("cust-1", 2500, idempotency_key="k1")
    assert again == first and first.pence == 2500
    assert await local.credits_for("cust-1") == [first]
    assert await local.credit_for_key("k1") == first
    assert await local.credit_for_key("k2") is None


async def test_a_key_reused_for_another_credit_is_refused(local: LocalBilling) -> None:
    await local.apply_credit("cust-1", 2500, idempotency_key="k1")
    with pytest.raises(BillingError, match="different credit"):
        await local.apply_credit("cust-2", 2500, idempotency_key="k1")
    with pytest.raises(BillingError, match="different credit"):
        await local.apply_credit("cust-1", 3000, idempotency_key="k1")
    assert await local.credits_for("cust-2") == []


async def test_credits_need_a_positive_amount_and_an_account_not_on_hold(
    local: LocalBilling,
) -> None:
    with pytest.raises(CreditRefused):
        await local.apply_credit("cust-1", 0, idempotency_key="k0")
    await local.place_hold("cust-1")
    with pytest.raises(CreditRefused):
        await local.apply_credit("cust-1", 2500, idempotency_key="k1")
    assert await local.credits_for("cust-1") == []


async def test_blocked_actors_and_held_accounts_may_not_credit(local: LocalBilling) -> None:
    assert await local.can_credit("web-1", "cust-1", 2500)
    await local.block_actor("web-1")
    assert not await local.can_credit("web-1", "cust-1", 2500)
    await local.place_hold("cust-2")
    assert not await local.can_credit("web-2", "cust-2", 2500)


# -- REST ----------------------------------------------------------------------------------


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


@pytest.fixture
async def http() -> AsyncIterator[HttpBilling]:
    client = HttpBilling(BASE, api_key="bill-key", timeout_s=1)
    yield client
    await client.aclose()


async def test_apply_credit_sends_the_key_and_maps_the_answer(
    api: respx.MockRouter, http: HttpBilling
) -> None:
    route = api.post("/v1/credits").respond(201, json=CREDIT_JSON)
    credit = await http.apply_credit("cust-1", 2500, idempotency_key="k1")
    assert credit == Credit("cr_1", "cust-1", 2500)
    request = route.calls.last.request
    assert request.headers["Idempotency-Key"] == "k1"
    assert json.loads(request.content) == {"customer_id": "cust-1", "pence": 2500}


@pytest.mark.parametrize("status", [409, 422])
async def test_a_refused_credit_is_credit_refused(
    api: respx.MockRouter, http: HttpBilling, status: int
) -> None:
    api.post("/v1/credits").respond(status, json={"code": "credit_refused"})
    with pytest.raises(CreditRefused):
        await http.apply_credit("cust-1", 2500, idempotency_key="k1")


@pytest.mark.parametrize(
    "answer",
    [
        {**CREDIT_JSON, "customer_id": "cust-2"},  # someone else's credit
        {**CREDIT_JSON, "pence": 250},  # another amount
        {**CREDIT_JSON, "pence": "2500"},  # not a number
        {"credit_id": "cr_1"},
    ],
)
async def test_a_credit_answer_that_is_not_this_credit_is_unavailable(
    api: respx.MockRouter, http: HttpBilling, answer: dict[str, object]
) -> None:
    api.post("/v1/credits").respond(200, json=answer)
    with pytest.raises(BillingUnavailable):
        await http.apply_credit("cust-1", 2500, idempotency_key="k1")


@pytest.mark.parametrize("wrong", [{"pence": 0}, {"credit_id": ""}, {"credit_id": "c" * 201}])
async def test_a_credit_outside_its_checks_is_not_trusted(
    api: respx.MockRouter, http: HttpBilling, wrong: dict[str, object]
) -> None:
    api.get("/v1/credits").respond(200, json={"credits": [{**CREDIT_JSON, **wrong}]})
    with pytest.raises(BillingUnavailable, match="could not read"):
        await http.credit_for_key("k1")


async def test_a_lost_answer_to_a_credit_is_an_unknown_outcome(
    api: respx.MockRouter, http: HttpBilling
) -> None:
    api.post("/v1/credits").mock(side_effect=httpx.ReadTimeout("lost"))
    with pytest.raises(BillingOutcomeUnknown):
        await http.apply_credit("cust-1", 2500, idempotency_key="k1")


async def test_credit_for_key_and_credits_for(api: respx.MockRouter, http: HttpBilling) -> None:
    by_key = api.get("/v1/credits").respond(200, json={"credits": [CREDIT_JSON]})
    assert await http.credit_for_key("k1") == Credit("cr_1", "cust-1", 2500)
    assert by_key.calls.last.request.url.params["idempotency_key"] == "k1"
    by_key.respond(200, json={"credits": []})
    assert await http.credit_for_key("k1") is None
    by_key.respond(200, json={"credits": [CREDIT_JSON, {**CREDIT_JSON, "credit_id": "cr_2"}]})
    with pytest.raises(BillingUnavailable, match="several"):
        await http.credit_for_key("k1")
    listed = api.get("/v1/customers/cust%2F1/credits").respond(200, json={"credits": [CREDIT_JSON]})
    assert await http.credits_for("cust/1") == [Credit("cr_1", "cust-1", 2500)]
    assert listed.called


async def test_can_credit_asks_the_host(api: respx.MockRouter, http: HttpBilling) -> None:
    route = api.post("/v1/credits/authorizations/check").respond(200, json={"allowed": False})
    assert not await http.can_credit("web-1", "cust-1", 2500)
    assert json.loads(route.calls.last.request.content) == {
        "actor_id": "web-1",
        "customer_id": "cust-1",
        "pence": 2500,
    }
    route.respond(200, json={"allowed": "yes"})
    with pytest.raises(BillingUnavailable):
        await http.can_credit("web-1", "cust-1", 2500)
