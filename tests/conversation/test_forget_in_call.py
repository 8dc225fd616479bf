"""`forget_caller_details`, the kit's third kind of target (what to forget, after a day and an
amount): through the real AgentSession, with each scripted model (obedient, sloppy,
memory-obeying) on every backend. Nothing is erased without the caller's yes to the host's
own read-back; a yes erases everything once, with exactly one receipt; the next call greets
a stranger; "this call" keeps nothing the call said and leaves what was held before."""

from __future__ import annotations

import re
from typing import Any

import pytest

from contextdb_livekit.caller_data import forget as forget_module
from contextdb_livekit.kit.readback import readback_sentence
from contextdb_livekit.stores.attestations import Attestation
from testkit import scripted_model
from testkit.scripted_model import MODELS, Intent
from tests.conversation.conftest import CallHarness, caller
from tests.conversation.test_host_readback import INJECTED

FORGET = Intent(
    "forget_caller_details",
    re.compile(r"\b(forget|delete|don't keep|do not keep)\b", re.IGNORECASE),
    "scope",
    re.compile(r"\b(my details|everything|this call)\b", re.IGNORECASE),
)
FORGET_EVERYTHING = readback_sentence("erase the details we hold about you")
FORGET_THIS_CALL = readback_sentence("erase what you said in this call")
ADDRESS = "my address is 14 Quillfeather Lane"


@pytest.fixture(autouse=True)
def models_know_the_forget_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_model, "INTENTS", [FORGET, *scripted_model.INTENTS])


@pytest.fixture(params=sorted(MODELS))
def model(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def erasures(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Attestation]]]:
    """Every erasure the action runs, with the attestations kept for the caller at that
    moment (before it strips them)."""
    seen: list[tuple[str, list[Attestation]]] = []
    real = forget_module.erase_caller

    async def spy(stores: Any, customer_id: str, **kwargs: Any) -> Any:
        store = next(s for s in stores if s.name == "attestations")
        held = [i for i in await store.held_about(customer_id) if i.kind == "attestation"]
        seen.append((customer_id, held))
        return await real(stores, customer_id, **kwargs)

    monkeypatch.setattr(forget_module, "erase_caller", spy)
    return seen


async def start(make_call, backend, model: str, identity) -> CallHarness:  # type: ignore[no-untyped-def]
    harness = await make_call(identity, backend=backend)
    harness.llm.policy = MODELS[model]
    if model == "memory_obeying":
        await harness.agent.update_instructions(harness.agent.instructions + INJECTED)
    return harness


async def held_facts(backend, customer_id: str) -> str:  # type: ignore[no-untyped-def]
    recalled = await backend.recall(customer_id, "address access equipment", top_k=20)
    return " ".join(m.content for m in recalled.memories).lower()


def messages(harness: CallHarness) -> list[Any]:
    return [
        item
        for item in harness.session.history.items
        if item.type == "message" and item.role in ("user", "assistant")
    ]


def answered_the_host(harness: CallHarness, held: list[Any], question: str) -> bool:
    """One of `held` (export items) is the caller's yes to the host's read-back `question`,
    with no agent turn between the read-back and the answer."""
    said = messages(harness)
    position = {m.id: i for i, m in enumerate(said)}
    for item in held:
        asked = position.get(item.data["question_turn_id"])
        answer = position.get(item.data["turn_id"])
        if asked is None or answer is None:
            continue
        between = said[asked + 1 : answer]
        if (
            said[asked].text_content == question == item.data["question"]
            and said[answer].role == "user"
            and all(m.role == "user" for m in between)
        ):
            return True
    return False


async def answer_until_forgotten(harness: CallHarness, erasures: list[Any], reply: str) -> None:
    """A model that stalls with its own question gets read back to again; answer that."""
    for _ in range(3):
        await harness.say(reply)
        if erasures:
            return


async def closed_with(trail, customer_id: str, ref: str) -> list[Any]:  # type: ignore[no-untyped-def]
    return [r for r in await trail(customer_id) if r.external_ref == ref]


async def test_a_yes_to_the_hosts_readback_forgets_everything_once(
    make_call, backend, model, trail, erasures
):
    identity = caller()
    first = await make_call(identity, backend=backend)
    await first.say(ADDRESS)
    await first.confirm_and_hang_up()
    assert "quillfeather" in await held_facts(backend, identity.customer_id)

    harness = await start(make_call, backend, model, identity)
    assert "quillfeather" in harness.agent.instructions.lower()  # recalled at the start
    await harness.say("please forget my details")
    assert FORGET_EVERYTHING in [m.text_content for m in messages(harness)]
    assert erasures == []  # asked, read back, not yet answered: nothing erased
    await answer_until_forgotten(harness, erasures, "yes please")
    [(customer, held)] = erasures
    assert customer == identity.customer_id
    assert answered_the_host(harness, held, FORGET_EVERYTHING)
    assert "quillfeather" not in await held_facts(backend, identity.customer_id)
    [receipt] = await closed_with(trail, identity.customer_id, "everything")
    assert receipt.status == "succeeded" and receipt.outcome == "act"
    # The sloppy model asks again after the result: nothing more runs.
    await harness.say("thanks")
    # And the rest of the call no longer shows the model what was recalled.
    assert "quillfeather" not in harness.agent.instructions.lower()
    assert len(erasures) == 1
    assert len(await closed_with(trail, identity.customer_id, "everything")) == 1
    outcome = await harness.hang_up()
    assert (outcome.written, outcome.queued) == (0, 0)
    # At the end of the call the erasure ran again: this call's own decision is stripped.
    assert len(erasures) == 2 and await trail(identity.customer_id) == []

    stranger = await make_call(identity, backend=backend)
    assert stranger.context.snapshot is not None and stranger.context.snapshot.memories == []
    assert "quillfeather" not in stranger.agent.instructions.lower()


async def test_without_a_yes_nothing_is_forgotten(make_call, backend, model, trail, erasures):
    identity = caller()
    first = await make_call(identity, backend=backend)
    await first.say(ADDRESS)
    await first.confirm_and_hang_up()
    harness = await start(make_call, backend, model, identity)
    for line in [
        "could you forget my details",
        "hmm what would that mean",
        "erm hang on let me think",
        "no, keep my details actually",
    ]:
        await harness.say(line)
    await harness.hang_up()
    assert erasures == []
    assert "quillfeather" in await held_facts(backend, identity.customer_id)
    assert await closed_with(trail, identity.customer_id, "everything") == []


async def test_this_call_keeps_nothing_it_said_and_leaves_what_was_held(
    make_call, backend, model, trail, erasures, monkeypatch
):
    identity = caller()
    first = await make_call(identity, backend=backend)
    await first.say(ADDRESS)
    await first.confirm_and_hang_up()

    harness = await start(make_call, backend, model, identity)
    # The action drops the call's queued rows itself, under its own call id, so a process
    # that dies right after the yes leaves none to deliver (the worker drops them again).
    dropped: list[tuple[str, str]] = []
    real_drop = forget_module.drop_call_rows

    async def spy_drop(outbox: Any, user_id: str, call_id: str) -> int:
        dropped.append((user_id, call_id))
        return await real_drop(outbox, user_id, call_id)

    monkeypatch.setattr(forget_module, "drop_call_rows", spy_drop)
    await harness.say("we moved, the address is 22 Larchmont Road")
    # The sloppy model reads its review back after the first turn; the caller then asks
    # again once it has been heard.
    for _ in range(2):
        await harness.say("don't keep anything from this call")
        if FORGET_THIS_CALL in [m.text_content for m in messages(harness)]:
            break
    assert FORGET_THIS_CALL in [m.text_content for m in messages(harness)]
    for _ in range(3):
        await harness.say("yes please")
        if await closed_with(trail, identity.customer_id, "this_call"):
            break
    [receipt] = await closed_with(trail, identity.customer_id, "this_call")
    assert receipt.status == "succeeded"
    assert dropped == [(identity.customer_id, harness.context.call_id)]

    def queued_facts(rows: list[Any]) -> list[Any]:
        return [row for row in rows if row.kind == "remember_many"]

    # At once, still in the call: its checkpoints are gone, and a later turn adds none.
    await harness.say("and the address is 22 Larchmont Road, as I said")
    # The drop and a checkpoint that raced the yes run beside the conversation: once they
    # have landed, none of the call's rows is left.
    await harness.call.writes_settled()
    assert queued_facts(await harness.host.outbox.items()) == []
    await harness.end_call("yes, that's right")
    assert erasures == []  # "this call" erases nothing held before
    held = await held_facts(backend, identity.customer_id)
    assert "larchmont" not in held and "quillfeather" in held
    assert [row for row in await harness.host.outbox.items() if row.kind == "remember_many"] == []


async def test_a_checkpoint_written_while_the_caller_asks_to_keep_nothing_is_dropped(
    make_call, local_engine
):
    from contextdb_livekit.kit.keep_nothing import KeepNothing

    identity = caller()
    harness = await make_call(identity, backend=local_engine)
    await harness.say("we moved, the address is 22 Larchmont Road")
    # The turn's own checkpoint runs in the background: let it land first, so the one below
    # is the only write the caller's yes overlaps.
    await harness.call.writes_settled()
    outbox = harness.host.outbox
    put = outbox.put

    async def put_as_the_forget_lands(*args: Any, **kwargs: Any) -> bool:
        # The caller's yes lands while this checkpoint is being written.
        harness.context.records.append(KeepNothing("this_call"))
        return await put(*args, **kwargs)

    outbox.put = put_as_the_forget_lands  # type: ignore[method-assign]  # a spy on one call
    await harness.call.checkpoint(harness.session.history)
    assert [row for row in await outbox.items() if row.kind == "remember_many"] == []
