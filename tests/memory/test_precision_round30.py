"""Round 30: read-backs taken in ("Got it.", "- for you.") and a day put right after an
answering "no". Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days


def test_a_read_back_taken_in_with_got_it_keeps_each_days_sign() -> None:
    conversation = (
        "a: Which days suit? | u: Tuesdays suit. | a: And Thursdays? | u: No, not Thursdays. "
        "| a: So Tuesdays good, Thursdays out. Got it. | u: That's right."
    )
    assert days(conversation) == {("tuesday", "available"), ("thursday", "unavailable")}


def test_a_read_back_said_for_the_caller_keeps_each_days_sign() -> None:
    conversation = (
        "a: Which days work for you? | u: My wife can't do Saturdays. | a: And for you? "
        "| u: Saturdays are fine for me, Sundays I can't. "
        "| a: So Saturday available, Sunday not - for you. | u: Yes."
    )
    assert ("saturday", "unavailable") not in days(conversation)


def test_no_then_a_day_not_the_day_read_back_is_no_day_denied() -> None:
    conversation = (
        "a: which days work | u: monday and tuesday | a: monday and thursday "
        "| u: no tuesday not thursday"
    )
    assert ("tuesday", "unavailable") not in days(conversation)
