"""The caller confirms what changes: only a yes to the host's own review read-back makes a
change a confirmed fact, whatever the model does, on every backend.

Each test runs the three scripted models (obedient; sloppy: reviews before anything was
said, twice in parallel, and again after the answer; memory-obeying: handed a note that says
to skip read-backs, it asks its own "Is that right?" instead of the host's review).
"""

from __future__ import annotations

import pytest

from contextdb_livekit.kit.review import REVIEW_OPENING
from testkit.scripted_model import MODELS
from tests.conversation.conftest import CallHarness, caller, last_agent_text
from tests.conversation.test_caller_facts import call, recalled
from tests.conversation.test_host_readback import INJECTED


@pytest.fixture(params=sorted(MODELS))
def model(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def start(make_call, backend, model: str, identity) -> CallHarness:  # type: ignore[no-untyped-def]
    harness = await make_call(identity, backend=backend)
    harness.llm.policy = MODELS[model]
    if model == "memory_obeying":
        await harness.agent.update_instructions(harness.agent.instructions + INJECTED)
    return harness


async def current_facts(make_call, backend, identity) -> list[str]:  # type: ignore[no-untyped-def]
    """What the caller's next call is shown, line by line."""
    later = await make_call(identity, backend=backend)
    return recalled(later).splitlines()[1:]


def messages(harness: CallHarness) -> list:  # type: ignore[type-arg]
    return [
        item
        for item in harness.session.history.items
        if item.type == "message" and item.role in ("user", "assistant")
    ]


async def assert_confirmed_only_what_the_host_read_back(  # type: ignore[no-untyped-def]
    make_call, backend, harness: CallHarness
) -> list[str]:
    """Every confirmed fact was named in a host review read-back, and that read-back's
    attestation holds the caller's very next turn after it."""
    identity = harness.context.identity
    assert identity is not None
    shown = await current_facts(make_call, backend, identity)
    confirmed = [line for line in shown if "(confirmed " in line]
    attestations = await harness.host.attestations.for_customer(identity.customer_id)
    reviews = [a for a in attestations if a.question_text.startswith(REVIEW_OPENING)]
    if confirmed:
        assert reviews, confirmed
    history = messages(harness)
    position = {m.id: i for i, m in enumerate(history)}
    for attestation in reviews:
        if attestation.question_turn_id not in position:
            continue  # an earlier call's review
        question = history[position[attestation.question_turn_id]]
        assert question.role == "assistant" and question.text_content == attestation.question_text
        answer = history[position[question.id] + 1]
        assert answer.id == attestation.turn_id and answer.role == "user"
    return confirmed


async def test_a_yes_to_the_hosts_review_confirms_what_it_read_back(make_call, backend, model):
    identity = caller()
    harness = await start(make_call, backend, model, identity)
    await harness.say("we've two boilers and five radiators", "mondays don't work for me")
    await harness.confirm_and_hang_up()
    confirmed = await assert_confirmed_only_what_the_host_read_back(make_call, backend, harness)
    if model == "memory_obeying":
        # It never let the host read back: its own question confirms nothing.
        assert confirmed == []
        assert await harness.host.attestations.for_customer(identity.customer_id) == []
    else:
        joined = " ".join(confirmed)
        assert "2 boilers" in joined and "5 radiators" in joined
        assert "Mondays do not work" in joined


async def test_no_keeps_what_memory_held(make_call, backend, model):
    identity = caller()
    await call(make_call, backend, identity, "thursdays work fine for me")
    second = await start(make_call, backend, model, identity)
    await second.say("thursdays don't work for me any more")
    await second.say("that's all, bye")
    review = second.context.review
    if review is not None:
        assert "Thursdays no longer work for you" in review.readback.text
    else:
        assert model == "memory_obeying"  # it asked its own question instead
    await second.say("no, that's not right")
    await second.hang_up()
    shown = recalled(await make_call(identity, backend=backend))
    assert "Thursdays work for the caller" in shown
    assert "Thursdays do not work" not in shown
    await assert_confirmed_only_what_the_host_read_back(make_call, backend, second)


async def test_a_hang_up_keeps_only_the_callers_words(make_call, backend, model):
    identity = caller()
    await call(make_call, backend, identity, "wednesdays suit me fine")
    second = await start(make_call, backend, model, identity)
    await second.say("we can't do wednesdays now, i've started a new job")
    await second.hang_up()  # no review, no answer
    later = await make_call(identity, backend=backend)
    shown = recalled(later)
    assert "Wednesdays do not work" not in shown  # never a fact the caller did not confirm
    assert "not confirmed" in shown and "we can't do wednesdays now" in shown
    # ... yet a Wednesday request is read back with the caller's own words as the caution.
    await later.say("book a visit on wednesday")
    readback = last_agent_text(later.session)
    assert readback.startswith("Just to confirm: You told us on ")
    assert "we can't do wednesdays now" in readback


async def test_a_fact_said_after_the_review_is_not_confirmed(make_call, backend, model):
    identity = caller()
    harness = await start(make_call, backend, model, identity)
    await harness.say("we're on the second floor")
    await harness.end_call("yes, that's right", "oh and fridays are no good")
    facts = await current_facts(make_call, backend, identity)
    assert not any("Fridays do not work" in f for f in facts)
    assert any("fridays are no good" in f and "not confirmed" in f for f in facts)
    await assert_confirmed_only_what_the_host_read_back(make_call, backend, harness)


async def test_a_review_turned_off_stores_facts_as_said(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend, change_readback=False)
    await harness.say("mondays don't work for me")
    await harness.say("that's all, bye")
    assert harness.context.review is None
    assert "Nothing to read back" in " ".join(
        item.output for item in harness.session.history.items if item.type == "function_call_output"
    )
    await harness.hang_up()
    facts = await current_facts(make_call, backend, identity)
    assert any("Mondays do not work for the caller (said " in f for f in facts)


async def test_what_memory_already_holds_is_not_read_back_again(make_call, backend, model):
    identity = caller()
    await call(make_call, backend, identity, "thursdays work fine for me")
    second = await start(make_call, backend, model, identity)
    await second.say("thursdays still work fine", "we've got a dog now")
    await second.say("that's all, bye")
    if second.context.review is not None:
        text = second.context.review.readback.text
        assert "dog" in text and "Thursday" not in text
    await second.hang_up()
    shown = recalled(await make_call(identity, backend=backend))
    assert "Thursdays work for the caller (confirmed " in shown
