"""The in-call forget on a realtime model: the caller's yes is transcribed after the model has
already called the confirmation (the provider's race); the erasure runs only once the words
of that yes arrive, and only after the host's own read-back."""

from __future__ import annotations

import pytest

from contextdb_livekit.kit.readback import readback_sentence
from testkit import scripted_model
from tests.conversation.conftest import caller
from tests.conversation.test_forget_in_call import FORGET, erasures  # noqa: F401  (fixture)
from tests.conversation.test_realtime_consent import (  # noqa: F401  (fixture)
    YES,
    confirm_outputs,
    make_realtime_call,
    spoken,
)

READBACK = readback_sentence("erase the details we hold about you")


@pytest.fixture(autouse=True)
def personas_know_the_forget_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_model, "INTENTS", [FORGET, *scripted_model.INTENTS])


async def test_a_late_yes_erases_only_once_its_words_arrive(
    make_realtime_call,  # noqa: F811  (the imported fixture)
    make_call,
    local_engine,
    erasures,  # noqa: F811  (the imported fixture)
):
    identity = caller()
    first = await make_call(identity, backend=local_engine)
    await first.say("my address is 14 Quillfeather Lane")
    await first.confirm_and_hang_up()

    call = await make_realtime_call(
        identity, backend=local_engine, order="after_response_done", model="obedient"
    )
    asked = await call.say("please forget my details")
    assert READBACK in spoken(asked)
    assert erasures == []
    happened = await call.say(YES)
    # The race ran: the model's confirmation and its response were out before the words.
    wire = call.server.log.wire
    turn = wire[wire.index(f"caller:{YES}") :]
    assert turn.index("call:confirm_read_back") < turn.index(f"transcript:{YES}")
    [output] = confirm_outputs(happened)
    assert output.startswith("Done: everything we held about the caller is forgotten")
    [(customer, held)] = erasures
    assert customer == identity.customer_id
    # Kept before the erasure: the caller's yes to the host's own read-back (besides the
    # first call's review answer).
    assert [a.data["answer"] for a in held if a.data["question"] == READBACK] == [YES]
    recalled = await local_engine.recall(identity.customer_id, "address", top_k=10)
    assert recalled.memories == []
