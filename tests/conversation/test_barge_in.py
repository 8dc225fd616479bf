"""A caller turn said while a side effect speaks is kept (issue 21.4): the real AgentSession,
the production booking path (`disallow_interruptions` from the side effect to the end of its
result), and the caller's text arriving while the booking's result is being said (livekit
1.8.9's own text handling raises "does not allow interruptions" there and drops it)."""

from __future__ import annotations

import asyncio

from livekit.agents import room_io
from livekit.agents.voice.events import UserInputTranscribedEvent

from contextdb_livekit.worker.barge_in import deliver_text, keeper_for
from testkit.scripted_llm import ScriptedLLM
from tests.conversation import conftest
from tests.conversation.conftest import caller, last_agent_text

LINE = "we have three boilers"


class ResultHeldLLM(ScriptedLLM):
    """The scripted model, holding the booking's result sentence until released: the window
    in which the side effect's speech ("Booked ...") may not be interrupted."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.reached, self.release = asyncio.Event(), asyncio.Event()

    def chat(self, *, chat_ctx, **kwargs):  # type: ignore[no-untyped-def]
        stream = super().chat(chat_ctx=chat_ctx, **kwargs)
        last = chat_ctx.items[-1] if chat_ctx.items else None
        if last is not None and last.type == "function_call_output" and "Booked" in last.output:
            answer = stream._run

            async def held() -> None:
                self.reached.set()
                await self.release.wait()
                await answer()

            stream._run = held  # type: ignore[method-assign]
        return stream


def user_lines(session) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        item.text_content or ""
        for item in session.history.items
        if item.type == "message" and item.role == "user"
    ]


async def kept_unconfirmed(local_engine, customer_id: str, words: str) -> bool:  # type: ignore[no-untyped-def]
    """The caller's words reached memory: quoted and unconfirmed, since the call ended without
    the host's review read-back (tools.review)."""
    facts = await local_engine.clients.db.factual.list_facts(limit=100, user_id=customer_id)
    return any(
        f'"{words}"' in f.content and "not confirmed" in f.content
        for f in facts
        if f.superseded_by is None
    )


async def booking_result_speaking(make_call, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(conftest, "ScriptedLLM", ResultHeldLLM)
    identity = caller()
    harness = await make_call(identity)
    keeper = keeper_for(harness.session)
    await harness.say("I'd like to book a visit on thursday")
    yes = asyncio.ensure_future(harness.session.run(user_input="yes please"))
    await asyncio.wait_for(harness.llm.reached.wait(), 10)
    # Booked, and its result is being said: this speech may not be cut off.
    assert keeper.side_effect_speaking() is not None
    return identity, harness, keeper, yes


async def test_text_typed_while_the_booking_result_is_said_is_answered_after_it(
    make_call, calendar, local_engine, monkeypatch
) -> None:
    identity, harness, keeper, yes = await booking_result_speaking(make_call, monkeypatch)
    await deliver_text(harness.session, room_io.TextInputEvent(text=LINE))
    harness.llm.release.set()
    await yes
    for _ in range(100):
        if LINE in user_lines(harness.session) and not keeper.pending:
            break
        await asyncio.sleep(0.05)
    assert LINE in user_lines(harness.session)
    assert keeper.kept == 1
    assert [b.customer_id for b in await calendar.bookings_for(identity.customer_id)] == [
        identity.customer_id
    ]
    assert "Booked" in " ".join(
        item.text_content or ""
        for item in harness.session.history.items
        if item.type == "message" and item.role == "assistant"
    )
    assert last_agent_text(harness.session)  # the kept turn got its own answer
    await harness.session.aclose()
    outcome = await harness.hang_up()
    assert outcome.written > 0
    assert await kept_unconfirmed(local_engine, identity.customer_id, LINE)


async def test_a_kept_turn_reaches_the_end_of_call_facts_even_after_a_hang_up(
    make_call, local_engine, monkeypatch
) -> None:
    """The caller types, then hangs up before the kept turn was answered."""
    identity, harness, keeper, yes = await booking_result_speaking(make_call, monkeypatch)
    await deliver_text(harness.session, room_io.TextInputEvent(text=LINE))
    assert keeper.pending == [LINE]
    await harness.session.aclose()  # the session closes: the queued reply never runs
    yes.cancel()
    await asyncio.gather(yes, return_exceptions=True)
    assert LINE in user_lines(harness.session)
    await harness.hang_up()
    assert await kept_unconfirmed(local_engine, identity.customer_id, LINE)


async def test_a_kept_turn_livekit_would_not_schedule_still_reaches_the_history(
    make_call, local_engine, monkeypatch
) -> None:
    """The session is draining (livekit refuses new speech: "cannot schedule new speech")
    when the caller types: the turn is written into the history the end-of-call write reads."""
    identity, harness, keeper, yes = await booking_result_speaking(make_call, monkeypatch)

    def draining(**_: object) -> None:
        raise RuntimeError("cannot schedule new speech, the speech scheduling is draining")

    monkeypatch.setattr(harness.session, "generate_reply", draining)
    await deliver_text(harness.session, room_io.TextInputEvent(text=LINE))
    assert keeper.pending == [LINE]
    harness.llm.release.set()
    await harness.session.aclose()
    await asyncio.gather(yes, return_exceptions=True)
    assert user_lines(harness.session).count(LINE) == 1
    await harness.hang_up()
    assert await kept_unconfirmed(local_engine, identity.customer_id, LINE)


async def test_text_outside_a_side_effect_is_handled_by_livekit_as_before(
    make_call, calendar
) -> None:
    harness = await make_call(caller())
    keeper = keeper_for(harness.session)
    await deliver_text(harness.session, room_io.TextInputEvent(text="hello there"))
    for _ in range(100):
        if "hello there" in user_lines(harness.session):
            break
        await asyncio.sleep(0.05)
    assert "hello there" in user_lines(harness.session)
    assert keeper.kept == 0


async def test_a_spoken_turn_heard_while_the_result_is_said_is_kept(
    make_call, local_engine, monkeypatch
) -> None:
    """Voice: the final transcript arrives while the result is said (LiveKit would skip the
    turn); once the speech is over and LiveKit has not committed it, the keeper queues it."""
    _, harness, keeper, yes = await booking_result_speaking(make_call, monkeypatch)
    assert harness.session.options.interruption["discard_audio_if_uninterruptible"] is False
    harness.session.emit(
        "user_input_transcribed", UserInputTranscribedEvent(transcript=LINE, is_final=True)
    )
    harness.llm.release.set()
    await yes
    for _ in range(100):
        if LINE in user_lines(harness.session):
            break
        await asyncio.sleep(0.05)
    assert user_lines(harness.session).count(LINE) == 1
    assert keeper.kept == 1
