"""Which caller turn answers a host read-back (kit.confirmation.find_answer) and when the
read-back counts as heard (kit.readback.ReadBack): each rule pinned on its own, so breaking
it fails here (issue 31: these mutations used to survive)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from livekit.agents.llm import ChatMessage

from contextdb_livekit.kit.confirmation import (
    ANSWER_WINDOW_S,
    MAX_TURNS_AFTER_READBACK,
    WAIT,
    find_answer,
)
from contextdb_livekit.kit.readback import ReadBack
from tests.conversation.conftest import caller
from tests.tools.test_tools import FakeRunContext, open_call, tools_of

READBACK = "Just to confirm: shall I book a service visit on Thursday 10 December?"
T0 = 1_000_000.0


def message(role: str, text: str, at: float) -> ChatMessage:
    return ChatMessage(role=role, content=[text], created_at=at)  # type: ignore[arg-type]


def after_readback(*turns: tuple[str, str]) -> tuple[list[ChatMessage], ChatMessage]:
    readback = message("assistant", READBACK, T0)
    return [
        message("user", "book thursday", T0 - 5),
        readback,
        *(message(role, text, T0 + 1 + n) for n, (role, text) in enumerate(turns)),
    ], readback


def test_the_answer_is_the_callers_latest_turn():
    messages, readback = after_readback(("user", "yes"), ("user", "wait, no"))
    answer, why_not = find_answer(messages, readback)
    assert answer is not None and answer.text_content == "wait, no" and why_not == ""


def test_two_caller_turns_may_answer_but_not_three():
    assert MAX_TURNS_AFTER_READBACK == 2
    messages, readback = after_readback(("user", "mm, let me think"), ("user", "yes"))
    answer, _ = find_answer(messages, readback)
    assert answer is not None and answer.text_content == "yes"
    messages, readback = after_readback(("user", "mm"), ("user", "hold on"), ("user", "yes"))
    assert find_answer(messages, readback) == (None, "answer_too_late")


def test_an_agent_turn_between_makes_it_an_answer_to_something_else():
    messages, readback = after_readback(("assistant", "Is that the morning?"), ("user", "yes"))
    assert find_answer(messages, readback) == (None, "answered_another_question")
    # The model's preamble after the caller's latest turn does not matter.
    messages, readback = after_readback(("user", "yes"), ("assistant", "Let me book that."))
    answer, _ = find_answer(messages, readback)
    assert answer is not None and answer.text_content == "yes"


def test_an_answer_after_the_window_is_too_late():
    readback = message("assistant", READBACK, T0)
    late = message("user", "yes", T0 + ANSWER_WINDOW_S + 1)
    assert find_answer([readback, late], readback) == (None, "answer_too_late")
    in_time = message("user", "yes", T0 + ANSWER_WINDOW_S - 1)
    assert find_answer([readback, in_time], readback) == (in_time, "")


def test_no_answer_yet_and_a_readback_not_in_the_conversation():
    messages, readback = after_readback()
    assert find_answer(messages, readback) == (None, "no_answer_yet")
    assert find_answer(messages[:1], readback) == (None, "not_heard")


@dataclass
class Speech:
    """The parts of a SpeechHandle a ReadBack reads."""

    finished: bool = False
    chat_items: list[Any] = field(default_factory=list)

    def done(self) -> bool:
        return self.finished


def test_a_readback_is_playing_until_it_is_in_the_conversation():
    assert ReadBack(READBACK, Speech()).playing  # type: ignore[arg-type]
    played = Speech(finished=True, chat_items=[message("assistant", READBACK, T0)])
    assert not ReadBack(READBACK, played).playing  # type: ignore[arg-type]


def test_a_talked_over_readback_is_not_heard():
    """LiveKit stores what was played: a read-back cut short by the caller is not heard, so
    nothing said over it answers it."""
    cut = Speech(finished=True, chat_items=[message("assistant", "Just to confirm: shall I", T0)])
    assert ReadBack(READBACK, cut).heard_message() is None  # type: ignore[arg-type]
    whole = message("assistant", READBACK, T0)
    assert ReadBack(READBACK, Speech(True, [whole])).heard_message() is whole  # type: ignore[arg-type]


async def test_a_confirmation_while_the_readback_plays_waits_and_reads_nothing_again(
    tmp_path, local_engine
):
    """The model confirms before the host's read-back has played: the tool says wait — it
    neither reads the request back a second time nor books."""
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    tools = tools_of(call)
    context = FakeRunContext(call.context)
    await tools["book_visit"](context, "thursday")
    assert len(context.session.said) == 1 and context.session.said[0].startswith("Just to")
    result = await tools["confirm_read_back"](context)
    assert result is WAIT
    assert len(context.session.said) == 1  # not read back again over itself
    assert call.context.offer is not None  # still open for the caller's answer
    calendar = call.context.host.line.calendar
    assert await calendar.bookings_for(identity.customer_id) == []
