"""Round 34: days said of the parking (street cleaning, a market, a permit zone) are the road's,
not the caller's. Phrased for these tests, not taken from any set."""

from __future__ import annotations

import pytest

from memory.extract import Turn, extract_call_facts
from tests.memory.spoken_calls import TODAY, days, facts, of_kind

# -- days said of the parking ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        "a: Can the engineer park outside? | u: The street's fine, not Thursdays, they sweep it.",
        "a: Where's best to park? | u: There's a bay by the chemist, free all day on a Sunday.",
        "a: Is parking okay round yours? | u: not saturdays the car boot sale takes the whole road",
        "a: Any parking? | u: Try the drive. I told you this before. Never Tuesdays, bins.",
        "a: Hello. | u: The drive is empty Mondays and Fridays, my son has the car then.",
        "a: Hello. | u: Leave the van on the verge, weekends anyway, weekdays it's permit only.",
    ],
)
def test_days_said_of_the_parking_are_not_the_callers(call: str) -> None:
    assert days(call) == set()
    assert any(f.kind == "parking" for f in facts(call))


def test_the_callers_own_days_beside_the_parking_are_kept() -> None:
    call = "a: Parking? | u: Park on the drive, but I'm out Wednesdays so not then."
    assert days(call) == {("wednesday", "unavailable")}


def test_days_said_before_the_parking_are_the_callers() -> None:
    call = "a: Anything else? | u: Thursdays are out, and parking, just use the drive."
    assert days(call) == {("thursday", "unavailable")}


def test_days_after_a_parking_answer_that_speak_of_the_caller_are_kept() -> None:
    call = "a: Is there parking? | u: Yes, on the road. Mondays are no good for us though."
    assert days(call) == {("monday", "unavailable")}


def test_a_caller_who_goes_back_to_the_days_after_a_parking_answer() -> None:
    call = (
        "a: Which day suits? | u: Friday's best. | a: And is there parking? "
        "| u: Yes, the drive. Oh, sorry, I've just remembered, Friday's no good. Thursday's best."
    )
    assert ("friday", "unavailable") in days(call)
    assert of_kind(call, "preferred_day") == {(None, "thursday")}


def test_a_day_after_a_parking_answer_with_the_caller_in_the_sentence_is_theirs() -> None:
    call = "a: Is there parking? | u: Yes, the road. Sunday's no good though, we're at church."
    assert days(call) == {("sunday", "unavailable")}


# -- the day before "I work" -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    ["It's Saturdays I work now.", "saturdays i work", "Saturdays we work, so no."],
)
def test_the_day_before_i_work_is_a_day_worked(answer: str) -> None:
    assert days(f"a: Which days are no good? | u: {answer}") == {("saturday", "unavailable")}


@pytest.mark.parametrize(
    "answer",
    [
        "sundays and tuesdays i work wed to sat",
        "only tuesdays i work the rest",
        "Tuesdays I work from home, so that's fine.",
    ],
)
def test_i_work_starting_a_new_clause_is_not_said_of_the_day_before(answer: str) -> None:
    assert ("tuesday", "unavailable") not in days(f"a: What days are you free? | u: {answer}")


# -- before, then now ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "We couldn't do Tuesdays before my wife retired - now we can.",
        "I couldn't do Tuesdays before my wife retired — but now I can.",
        "i could never do tuesdays before the operation but now i can",
    ],
)
def test_now_i_can_after_the_days_that_could_not_be_done_before(answer: str) -> None:
    assert days(f"a: How about a Tuesday? | u: {answer}") == {("tuesday", "available")}


def test_now_i_cant_after_the_days_that_could_be_done_before() -> None:
    call = "a: Still fine on Thursdays? | u: I could do Thursdays before the new job, now I can't."
    assert days(call) == {("thursday", "unavailable")}


def test_not_now_after_a_past_already_read_does_not_turn_the_day_round_again() -> None:
    call = "a: Hello. | u: Mondays used to be my day off. Not any more, sadly."
    assert days(call) == {("monday", "unavailable")}


def test_not_any_more_after_a_past_read_as_nothing_says_what_is_now() -> None:
    call = "a: Anything changed? | u: I used to work Mondays. Not any more, I've retired."
    assert days(call) == {("monday", "available")}


def test_the_new_day_takes_what_was_said_of_the_old_one() -> None:
    call = (
        "a: Still out on Mondays? | u: Changed - used to be Mondays I was busy, now it's Fridays."
    )
    assert ("friday", "unavailable") in days(call)
    assert ("friday", "available") not in days(call)


# -- the agent's tag question ----------------------------------------------------------------------


def test_a_yes_to_a_question_with_a_tag_agrees_with_the_statement_not_the_tag() -> None:
    assert days("a: Mondays are your day off, aren't they? | u: Yes.") == {("monday", "available")}
    assert days("a: Saturdays are good for you, aren't they? | u: yeah") == {
        ("saturday", "available")
    }


def test_a_no_to_a_question_with_a_tag_is_the_other_way() -> None:
    call = "a: Thursdays are fine for you, aren't they? | u: No, not really."
    assert days(call) == {("thursday", "unavailable")}


def test_somebody_else_moving_the_callers_rota_is_not_a_yes() -> None:
    assert days("a: Is Friday your day off? | u: They moved my shifts.") == set()
    assert days("a: Is Friday your day off? | u: Not now, my boss moved my rota.") == {
        ("friday", "unavailable")
    }


# -- a note's "works DAY" ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "Caller works Saturdays.",
        "customer now works Saturdays",
        "Caller was off Saturdays, now works Saturdays.",
    ],
)
def test_a_note_saying_the_caller_works_a_day_is_a_day_out(note: str) -> None:
    said = {
        (f.key, f.value)
        for f in extract_call_facts(
            [Turn("assistant", "Anything else?"), Turn("user", "No, that's it.")],
            [note],
            today=TODAY,
            call_id="call-1",
        )
        if f.kind == "availability"
    }
    assert said == {("saturday", "unavailable")}


# -- somebody the caller named ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "introduced",
    ["My son, Idris, will be in.", "Idris, my son, will be in.", "My son's called Idris."],
)
def test_days_of_somebody_named_earlier_in_the_call_are_not_the_callers(introduced: str) -> None:
    call = (
        f"a: Who will let the engineer in? | u: {introduced} "
        "| a: Any days that don't work? | u: Well, Idris can't do Wednesdays, he's at college. "
        "I can't do Mondays."
    )
    assert days(call) == {("monday", "unavailable")}


def test_a_day_after_a_relation_is_not_a_name() -> None:
    call = (
        "a: Who will be in? | u: My wife, Saturdays anyway. "
        "| a: Any days you can't do? | u: Saturdays are out for me, I'm at work. Sundays too."
    )
    assert days(call) == {("saturday", "unavailable"), ("sunday", "unavailable")}


def test_a_day_after_the_agent_asks_about_the_driveway_is_the_drives() -> None:
    call = "a: Can the engineer use your driveway? | u: Not Thursdays, the skip's on it."
    assert days(call) == set()
