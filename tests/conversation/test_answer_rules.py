"""The confirmation's rules through the real AgentSession (issue 31: each of these mutations
used to survive): the answer is the caller's latest turn, and a no closes the offer. (A
read-back still playing is waited for: tests/tools/test_answer_window.py.)"""

from __future__ import annotations

from testkit.scripted_model import CallTool, Say
from tests.conversation.conftest import caller

BOOK_THURSDAY = CallTool("book_visit", {"day": "thursday"})
CONFIRM = CallTool("confirm_read_back", {})


def readbacks(harness) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        item.text_content or ""
        for item in harness.session.history.items
        if item.type == "message"
        and item.role == "assistant"
        and (item.text_content or "").startswith("Just to confirm")
    ]


def outputs(result, name: str) -> list:  # type: ignore[no-untyped-def]
    return [
        ev.item
        for ev in result.events
        if ev.type == "function_call_output" and ev.item.name == name
    ]


async def test_yes_then_wait_no_books_nothing(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("can you book a visit on thursday")
    assert len(readbacks(harness)) == 1
    # The caller says yes, the model says nothing yet; then the caller takes it back.
    harness.llm.script = [Say("")]
    await harness.say("yes")
    harness.llm.script = [CONFIRM, Say("ok")]
    result = await harness.say("wait, no")
    [output] = outputs(result, "confirm_read_back")
    assert "said no" in output.output
    assert await harness.calendar.bookings_for(identity.customer_id) == []
    assert await harness.host.attestations.for_customer(identity.customer_id) == []


async def test_a_no_closes_the_offer(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("can you book a visit on thursday")
    harness.llm.script = [CONFIRM, Say("Nothing changed.")]
    await harness.say("no")
    # A later yes has nothing to confirm: no read-back again, nothing booked.
    harness.llm.script = [CONFIRM, Say("ok")]
    result = await harness.say("yes")
    [output] = outputs(result, "confirm_read_back")
    assert output.is_error and "Nothing is waiting for confirmation" in output.output
    assert len(readbacks(harness)) == 1
    assert await harness.calendar.bookings_for(identity.customer_id) == []
