"""`apply_service_credit`: the kit's second kind of target (an amount, not a day).

Through the real AgentSession, with each scripted model (obedient, sloppy, memory-obeying) on
every backend: a yes to the host's read-back applies exactly one credit with exactly one
receipt; no yes applies nothing; a different amount in the answer is not a yes to this one;
an answer lost after the credit landed is recovered by the credit's key through the outbox.
"""

from __future__ import annotations

import re
import sqlite3

import pytest

from billing_client import BillingOutcomeUnknown, BillingUnavailable
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.kit.readback import readback_sentence
from testkit import scripted_model
from testkit.scripted_model import MODELS, Intent
from tests.conversation.conftest import CallHarness, caller, last_agent_text, tool_outputs
from tests.conversation.test_host_readback import INJECTED, assert_each_yes_answered_the_host
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

CREDIT = Intent(
    "apply_service_credit",
    re.compile(r"\bcredit\b", re.IGNORECASE),
    "amount",
    re.compile(r"£?\s*([0-9]+(?:\.[0-9]{2})?)"),
)
READ_BACK = readback_sentence("apply a service credit of £25.00")


@pytest.fixture(autouse=True)
def models_know_the_credit_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_model, "INTENTS", [CREDIT, *scripted_model.INTENTS])


@pytest.fixture(params=sorted(MODELS))
def model(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def start(make_call, backend, model: str, identity, **kwargs) -> CallHarness:  # type: ignore[no-untyped-def]
    harness = await make_call(identity, backend=backend, **kwargs)
    harness.llm.policy = MODELS[model]
    if model == "memory_obeying":
        await harness.agent.update_instructions(harness.agent.instructions + INJECTED)
    return harness


async def answer_until_applied(harness: CallHarness, customer_id: str, reply: str) -> None:
    """A model that stalls with its own question gets read back to again; answer that."""
    for _ in range(3):
        await harness.say(reply)
        if await harness.billing.credits_for(customer_id):
            return


async def succeeded(trail, customer_id: str) -> list[str | None]:  # type: ignore[no-untyped-def]
    return [r.external_ref for r in await trail(customer_id) if r.status == "succeeded"]


async def test_a_yes_to_the_hosts_readback_applies_exactly_one_credit(
    make_call, backend, model, trail
):
    identity = caller()
    harness = await start(make_call, backend, model, identity)
    await harness.say("can you apply a credit of 25 pounds please")
    assert READ_BACK in [
        i.text_content for i in harness.session.history.items if i.type == "message"
    ]
    await answer_until_applied(harness, identity.customer_id, "yes please")
    [credit] = await harness.billing.credits_for(identity.customer_id)
    assert credit.pence == 2500
    assert await succeeded(trail, identity.customer_id) == [credit.credit_id]
    assert await assert_each_yes_answered_the_host(harness, identity.customer_id) == 1
    # The sloppy model asks again after the result: nothing more is applied.
    await harness.say("thanks")
    assert len(await harness.billing.credits_for(identity.customer_id)) == 1
    assert await succeeded(trail, identity.customer_id) == [credit.credit_id]


async def test_without_a_yes_nothing_is_credited(make_call, backend, model, trail):
    identity = caller()
    harness = await start(make_call, backend, model, identity)
    for line in [
        "can you apply a credit of 25 pounds",
        "hmm what is that for",
        "erm hang on let me check",
        "not sure yet, i'll call you back",
    ]:
        await harness.say(line)
    assert await harness.billing.credits_for(identity.customer_id) == []
    assert await harness.host.attestations.for_customer(identity.customer_id) == []
    assert await succeeded(trail, identity.customer_id) == []


@pytest.mark.parametrize(
    "reply",
    [
        "yes, 30 pounds",
        "yes £30",
        "yeah make it thirty pounds",
        # The whole number, never its tail "twenty five pounds".
        "yes, one hundred and twenty five pounds",
    ],
)
async def test_another_amount_in_the_answer_is_not_a_yes_to_this_one(
    make_call, backend, reply, trail
):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("can you apply a credit of 25 pounds")
    assert last_agent_text(harness.session) == READ_BACK
    await harness.say(reply)
    assert await harness.billing.credits_for(identity.customer_id) == []
    assert await succeeded(trail, identity.customer_id) == []


async def test_the_offered_amount_in_the_answer_is_a_yes(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("can you apply a credit of 25 pounds")
    result = await harness.say("yes, £25 is right, apply it")
    [text] = tool_outputs(result, "confirm_read_back")
    assert text.startswith("Applied a service credit of £25.00")
    assert [c.pence for c in await harness.billing.credits_for(identity.customer_id)] == [2500]


class LosingCredits:
    """The booking system applies the credit, but its answer is lost (`lands=True`), or the
    request never arrives (`lands=False`); lookups by key fail until the call is gone."""

    def __init__(self, inner, *, lands: bool) -> None:  # type: ignore[no-untyped-def]
        self._inner, self.lands = inner, lands

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def apply_credit(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.lands:
            await self._inner.apply_credit(*args, **kwargs)
        raise BillingOutcomeUnknown("read timeout")

    async def credit_for_key(self, key):  # type: ignore[no-untyped-def]
        raise BillingUnavailable("down")


@pytest.mark.parametrize("lands", [True, False])
async def test_a_lost_answer_is_recovered_by_key_through_the_outbox(
    make_call, backend, billing, calendar, trail, lands
):
    identity = caller()
    harness = await make_call(
        identity, backend=backend, billing=LosingCredits(billing, lands=lands)
    )
    await harness.say("can you apply a credit of 25 pounds")
    [text] = tool_outputs(await harness.say("yes"), "confirm_read_back")
    assert "can't tell yet" in text
    [undecided] = [r for r in await trail(identity.customer_id) if r.outcome == "act"]
    assert undecided.status is None  # no guess: the receipt waits for the facts
    # The call is gone. Once its lease runs out the drain resolves the intent by its key.
    outbox = harness.host.outbox
    [intent] = await outbox.items()
    assert intent.state == "intent"
    with sqlite3.connect(outbox.path) as conn:
        conn.execute("UPDATE outbox SET lease_until = 0")
    flusher = OutboxFlusher(
        outbox, backend, LINE_ACTIONS.resolvers(VisitSystems(calendar, billing))
    )
    assert await flusher.flush_once() == 1
    assert await outbox.items() == []
    credits = await billing.credits_for(identity.customer_id)
    [record] = [r for r in await trail(identity.customer_id) if r.outcome == "act"]
    if lands:
        assert [c.pence for c in credits] == [2500]
        assert (record.status, record.external_ref) == ("succeeded", credits[0].credit_id)
    else:
        assert credits == []
        assert (record.status, record.error_code) == ("failed", "interrupted_before_crediting")


async def test_the_credit_is_kept_as_a_host_record(make_call, local_engine):
    identity = caller()
    harness = await make_call(identity)
    await harness.say("can you apply a credit of 25 pounds", "yes")
    [credit] = await harness.billing.credits_for(identity.customer_id)
    await harness.hang_up()
    facts = await local_engine.clients.db.factual.list_facts(limit=50, user_id=identity.customer_id)
    [kept] = [f for f in facts if f.entity_key == "account"]
    assert f"reference {credit.credit_id}" in kept.content and "£25.00" in kept.content


async def test_the_accounts_credit_cap_is_checked_first(make_call, billing, local_engine, trail):
    identity = caller()
    await billing.apply_credit(identity.customer_id, 19_000, idempotency_key="earlier")
    harness = await make_call(identity)
    [text] = tool_outputs(await harness.say("can you apply a credit of 25 pounds"), CREDIT.tool)
    assert text.startswith("The account already holds £190.00 in service credits")
    assert len(await billing.credits_for(identity.customer_id)) == 1
    assert await trail(identity.customer_id) == []  # host state first: nothing was decided


async def test_an_account_that_may_not_be_credited_is_refused(make_call, billing, trail):
    identity = caller()
    await billing.block_actor(identity.actor_id)
    harness = await make_call(identity)
    [text] = tool_outputs(await harness.say("can you apply a credit of 25 pounds"), CREDIT.tool)
    assert "can't make that change" in text
    assert await billing.credits_for(identity.customer_id) == []
    assert await trail(identity.customer_id) == []
