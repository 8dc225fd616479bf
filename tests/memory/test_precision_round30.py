"""Round 30: read-backs taken in ("Got it.", "- for you.") and a day put right after an
answering "no". Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days, of_kind


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


def test_a_favourite_taken_back_says_nothing_of_whether_the_day_works() -> None:
    conversation = (
        "a: So Monday is your best day? | u: Yes. | a: Any days to avoid? "
        "| u: Actually, Monday isn't best after all, Tuesday's best. No days to avoid."
    )
    assert ("monday", "unavailable") not in days(conversation)


def test_their_helper_as_the_subject_mid_run_on_is_not_the_caller() -> None:
    conversation = (
        "u: my dads got a system boiler and his plumber only comes on fridays we just want a quote"
    )
    assert days(conversation) == set()


def test_the_callers_own_kind_after_their_helper_is_the_callers() -> None:
    conversation = "u: his boiler is a baxi ours is a glow worm"
    assert of_kind(conversation, "equipment_make") == {(None, "Glow-worm")}


def test_the_callers_own_day_after_their_helper_is_the_callers() -> None:
    conversation = "u: her cleaner is there mondays and i can only do saturdays myself"
    assert ("saturday", "available") in days(conversation)


def test_their_kind_before_the_callers_own_is_theirs() -> None:
    conversation = "u: his flat is on the ninth floor and we have a combi"
    assert of_kind(conversation, "floor") == set()
    assert of_kind(conversation, "boiler_type") == {(None, "combi")}


def test_make_it_afternoons_puts_the_time_right() -> None:
    conversation = (
        "a: Mornings or afternoons? | u: Mornings. | a: Mornings, fine. "
        "| u: Oh no, the physio comes mornings. Make it afternoons."
    )
    assert of_kind(conversation, "preferred_time") == {(None, "afternoon")}


def test_make_it_a_morning_asks_for_the_visit() -> None:
    assert of_kind("u: make it a morning this time", "preferred_time") == set()
