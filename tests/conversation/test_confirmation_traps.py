"""One yes, one booking: the ask → confirm → act loop against ordinary conversations.

Every test here runs on the in-process engine, the engine process (Cloud client over its
socket) and the real Cloud client against a Cloud stand-in (`backend` fixture).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from testkit.scripted_model import CallTool, Say
from tests.conversation.conftest import caller, last_agent_text, next_weekday, tool_outputs

BOOK_THURSDAY = CallTool("book_visit", {"day": "thursday"})
CONFIRM = CallTool("confirm_read_back", {})


async def bookings(harness, identity) -> list:  # type: ignore[no-untyped-def]
    return await harness.calendar.bookings_for(identity.customer_id)


async def assert_one_receipt_per_decision(trail, identity) -> list:  # type: ignore[no-untyped-def]
    records = await trail(identity.customer_id)
    assert all(r.status is not None for r in records), records
    return records


async def test_a_yes_that_predates_the_question_books_nothing(make_call, backend, trail):
    identity = caller()
    # The model calls book and confirm together inside the caller's first turn: the
    # caller's "yes" was said before anything was read back to them.
    harness = await make_call(
        identity,
        backend=backend,
        script=[[BOOK_THURSDAY, CONFIRM], CONFIRM, Say("Done.")],
    )
    await harness.say("Yes, I'd like to book a visit on Thursday")
    assert await bookings(harness, identity) == []
    assert await harness.host.attestations.for_customer(identity.customer_id) == []
    await assert_one_receipt_per_decision(trail, identity)


async def test_confirm_before_the_caller_answers_the_readback(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("yes please, book me in for thursday")
    # The agent read the day back; the model confirms on its own before any answer.
    harness.llm.script = [CONFIRM, Say("ok")]
    await harness.session.generate_reply(instructions="continue")
    assert await bookings(harness, identity) == []
    assert await harness.host.attestations.for_customer(identity.customer_id) == []


async def test_a_yes_to_another_question_is_not_a_yes_to_the_booking(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("can you book a visit on thursday")
    # The agent asks something else before the caller answers the read-back.
    harness.llm.script = [Say("Before that, are you still at 12 Elm Road?")]
    await harness.session.generate_reply(instructions="ask about the address")
    harness.llm.script = [CONFIRM]
    result = await harness.say("Yes, still there")
    [refusal] = tool_outputs(result, "confirm_read_back")
    assert "I have read it back to them again" in refusal
    assert await bookings(harness, identity) == []
    assert last_agent_text(harness.session).startswith("Just to confirm: shall I book")
    await harness.say("yes")  # to the host's fresh read-back
    assert len(await bookings(harness, identity)) == 1


async def test_replies_that_are_not_a_yes_never_book(make_call, backend):
    not_yes = [
        "yes, friday",
        "perfect, can we make it friday instead",
        "ok hold on",
        "sure, let me check my calendar first",
        "right?",
        "no thanks",
        "actually no, wait",
        "hmm i'm not sure",
        "is that in the morning?",
    ]
    for reply in not_yes:
        identity = caller()
        harness = await make_call(identity, backend=backend)
        await harness.say("book a visit on thursday")
        harness.llm.script = [CONFIRM, Say("ok")]
        await harness.say(reply)
        assert await bookings(harness, identity) == [], reply
        assert await harness.host.attestations.for_customer(identity.customer_id) == [], reply


async def test_a_different_day_in_the_reply_is_a_new_request(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("book a visit on thursday")
    harness.llm.script = [CONFIRM, Say("ok")]
    result = await harness.say("yes, friday")
    [text] = tool_outputs(result, "confirm_read_back")
    assert "asked for friday instead" in text
    assert harness.context.offer is None  # the Thursday offer is gone


async def test_ordinary_yeses_book(make_call, backend, trail):
    for reply in ["yes", "yeah that's fine", "yes please", "sure, go ahead"]:
        identity = caller()
        harness = await make_call(identity, backend=backend)
        await harness.say("book a visit on thursday")
        harness.llm.script = [CONFIRM]
        await harness.say(reply)
        [booking] = await bookings(harness, identity)
        assert booking.day == next_weekday("thursday"), reply
        records = await assert_one_receipt_per_decision(trail, identity)
        assert [r.outcome for r in records][-1] == "act"


async def test_one_yes_is_not_standing_permission(make_call, backend, trail):
    identity = caller()
    first = await make_call(identity, backend=backend)
    await first.say("book a visit on thursday", "yes")
    await first.hang_up()
    assert len(await bookings(first, identity)) == 1

    # A later call, the Thursday after: asked again, never booked on the old yes.
    week_later = (next_weekday("thursday") + timedelta(days=7)).isoformat()
    second = await make_call(identity, backend=backend)
    result = await second.say(f"book a visit on {week_later}")
    [text] = tool_outputs(result, "book_visit")
    assert text.startswith("Not done yet")
    assert len(await bookings(second, identity)) == 1
    records = await assert_one_receipt_per_decision(trail, identity)
    # Exactly one decision acted (the first call's); the plain Cloud client records the
    # service's unscoped outcome, which the host then narrows to the slot.
    assert [r.outcome for r in records].count("act") == 1
    assert [r.status for r in records].count("succeeded") == 1


async def test_asking_twice_for_the_same_day_books_once(make_call, backend):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("book a visit on thursday", "yes")
    result = await harness.say("and book a visit on thursday too")
    [text] = tool_outputs(result, "book_visit")
    assert "already has a visit booked" in text
    assert len(await bookings(harness, identity)) == 1


async def test_parallel_tool_calls_book_once(make_call, backend, trail):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    await harness.say("book a visit on thursday")
    harness.llm.script = [[CONFIRM, CONFIRM], [BOOK_THURSDAY, BOOK_THURSDAY], Say("done")]
    result = await harness.say("yes")
    confirms = [
        ev.item for ev in result.events
        if ev.type == "function_call_output" and ev.item.name == "confirm_read_back"
    ]  # fmt: skip
    # One confirm claims the offer and books; the other finds nothing left to confirm.
    assert sorted(item.is_error for item in confirms) == [False, True]
    assert next(i.output for i in confirms if not i.is_error).startswith("Booked")
    texts = tool_outputs(result, "book_visit")
    assert all("already has a visit booked" in t for t in texts)
    assert len(await bookings(harness, identity)) == 1
    await assert_one_receipt_per_decision(trail, identity)


async def test_cancel_visit_is_gated_confirmed_and_receipted(make_call, backend, trail):
    identity = caller()
    harness = await make_call(identity, backend=backend)
    result = await harness.say("please cancel my visit on thursday")
    [text] = tool_outputs(result, "cancel_visit")
    assert "nothing to cancel" in text
    await harness.say("book a visit on thursday", "yes")
    [booking] = await bookings(harness, identity)

    asked = await harness.say("actually, cancel the thursday visit")
    [text] = tool_outputs(asked, "cancel_visit")
    assert text.startswith("Not done yet")
    assert len(await bookings(harness, identity)) == 1
    done = await harness.say("yes please")
    [text] = tool_outputs(done, "confirm_read_back")
    assert text.startswith("Cancelled the visit") and booking.booking_id in text
    assert await bookings(harness, identity) == []
    records = await assert_one_receipt_per_decision(trail, identity)
    assert records[-1].outcome == "act" and records[-1].external_ref == booking.booking_id

    # Rebooking the same day needs a new yes: the first one was used up.
    again = await harness.say("book a visit on thursday")
    [text] = tool_outputs(again, "book_visit")
    assert text.startswith("Not done yet")
    await harness.hang_up()


class SlowCalendar:
    def __init__(self, inner, delay_s: float) -> None:  # type: ignore[no-untyped-def]
        self._inner, self.delay_s = inner, delay_s

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def book(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay_s)
        return await self._inner.book(*args, **kwargs)


async def test_barge_in_during_the_booking_does_not_cut_it_short(
    make_call, calendar, trail, backend
):
    identity = caller()
    harness = await make_call(identity, backend=backend, calendar=SlowCalendar(calendar, 0.5))
    await harness.say("book a visit on thursday")
    running = asyncio.create_task(harness.say("yes"))
    await asyncio.sleep(0.3)  # inside calendar.book
    harness.session.interrupt()  # the caller talks over the agent
    await asyncio.wait_for(running, timeout=10)
    assert len(await calendar.bookings_for(identity.customer_id)) == 1
    records = await assert_one_receipt_per_decision(trail, identity)
    assert (records[-1].outcome, records[-1].status) == ("act", "succeeded")
