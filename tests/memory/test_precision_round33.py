"""Round 33: a "no" that says the read-back is wrong (not that its days are the other way),
a yes that agrees to the part of a read-back the caller names, a day said to be a work day, and
what was so before said beside what is so now. Phrased for these tests, not taken from any
set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, of_kind

# -- a "no" to a read-back: the read-back is wrong, not the days the other way round ------------


@pytest.mark.parametrize(
    "answer",
    [
        "no that's wrong it's wednesdays i can't do",
        "No, that is not right. Wednesdays I can't do.",
        "no its wednesdays i cant do",
        "nope that's all wrong",
    ],
)
def test_no_to_a_read_back_of_days_out_does_not_make_them_fine(answer: str) -> None:
    said = days(f"a: so you can't do saturdays | u: {answer}")
    assert ("saturday", "available") not in said


def test_no_its_fine_to_a_read_back_of_days_out_still_says_they_are_fine() -> None:
    fine = {("saturday", "available")}
    assert days("a: So Saturdays are out? | u: No, they're fine now.") == fine
    assert days("a: So Saturdays are out? | u: No, it's fine.") == fine


def test_the_day_put_right_after_the_no_is_kept() -> None:
    said = days("a: you cant do saturdays then | u: no it's sundays i cant do")
    assert said == {("sunday", "unavailable")}


# -- a yes to part of a read-back ------------------------------------------------------------------


def test_a_yes_after_naming_part_of_the_read_back_agrees_to_that_part_only() -> None:
    call = (
        "a: Which days are bad? | u: Wednesdays and Fridays, I'm at my mum's."
        " | a: So Wednesdays and Fridays out, and Mondays are fine, yes?"
        " | u: Wednesdays and Fridays out, yes. I haven't said anything about Mondays."
    )
    assert days(call) == {("wednesday", "unavailable"), ("friday", "unavailable")}


def test_a_yes_that_names_one_day_of_the_read_back() -> None:
    call = "a: So Tuesdays out and Saturdays fine? | u: yes tuesdays out"
    assert days(call) == {("tuesday", "unavailable")}


def test_a_bare_yes_still_agrees_to_the_whole_read_back() -> None:
    call = "a: So Tuesdays out and Saturdays fine? | u: Yes, that's it."
    assert days(call) == {("tuesday", "unavailable"), ("saturday", "available")}


# -- a work day --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "thursday is a work day for me",
        "Thursdays are a long working day.",
        "thursday's a full work day now",
    ],
)
def test_a_day_said_to_be_a_work_day_is_out(said: str) -> None:
    assert days(f"a: any days no good | u: {said}") == {("thursday", "unavailable")}


# -- what was so before, then what is so now ---------------------------------------------------


def test_before_then_now_of_the_same_day_keeps_now() -> None:
    call = (
        "a: any days | u: so before we could never do tuesdays"
        " but since i went part time tuesdays are fine"
    )
    assert days(call) == {("tuesday", "available")}


def test_before_then_now_of_the_time_of_day_keeps_now() -> None:
    call = (
        "a: mornings or afternoons | u: it used to be afternoons were better"
        " but since the new job mornings are better"
    )
    assert of_kind(call, "preferred_time") == {(None, "morning")}


def test_before_then_now_of_other_days_still_says_what_changed() -> None:
    # What was so of Saturdays is read from the first part; the second names Sundays.
    call = "a: any days | u: we used to do saturdays but these days sundays are better for us"
    assert ("saturday", "unavailable") in days(call)


def test_before_then_now_read_whole_when_the_whole_is_sure() -> None:
    call = "a: any days | u: tuesdays were always fine but these days i'm at the allotment tuesdays"
    assert days(call) == {("tuesday", "unavailable")}


def test_before_then_now_of_another_day_keeps_the_day_that_changed() -> None:
    # The second part names Saturdays, not the Tuesdays of the first: what changed of
    # Tuesdays is read from the whole sentence.
    call = (
        "a: any change | u: i used to be home tuesdays"
        " but from now on it's saturdays i'm home so saturday's good"
    )
    assert ("tuesday", "unavailable") in days(call)


def test_before_then_now_read_whole_when_the_second_part_alone_says_less() -> None:
    call = "a: any days | u: we used to be in on fridays but now we go to the caravan every friday"
    assert days(call) == {("friday", "unavailable")}


# -- the rest of the week on a list, and "it's DAY now" putting a day right ----------------------


@pytest.mark.parametrize(
    "said",
    [
        "I'm tied up Tuesdays, Fridays, and every other day apart from Wednesday.",
        "im busy fridays and every other day except wednesday",
    ],
)
def test_every_other_day_except_on_a_list_turns_the_exception_round(said: str) -> None:
    got = days(f"a: Which days are out? | u: {said}")
    assert ("wednesday", "available") in got
    assert ("wednesday", "unavailable") not in got
    assert ("friday", "unavailable") in got


def test_every_day_except_alone_still_reads_as_before() -> None:
    assert days("a: any days | u: any day except Monday suits me") == {("monday", "unavailable")}


def test_its_day_now_in_a_correcting_turn_takes_the_sign_of_what_it_corrects() -> None:
    call = (
        "a: Which days can't you do? | u: Fridays. | a: Right, Fridays out."
        " | u: Oh sorry, my mistake. It's Mondays now, Fridays are okay."
    )
    assert days(call) == {("monday", "unavailable"), ("friday", "available")}


def test_its_day_now_outside_a_correction_is_a_day_that_works() -> None:
    assert days("a: Any days? | u: Now it's Thursdays.") == {("thursday", "available")}


def test_anything_but_after_a_sentence_saying_the_same_day_is_out() -> None:
    call = "a: Any days that are awkward? | u: Not Wednesday. Anything but Wednesday really."
    assert days(call) == {("wednesday", "unavailable")}


# -- a yes the caller hedges ----------------------------------------------------------------------


@pytest.mark.parametrize("answer", ["yeah tuesdays i reckon", "Yes, I think so.", "yep probably"])
def test_a_hedged_yes_to_a_question_about_a_day_stores_no_day(answer: str) -> None:
    assert days(f"a: can you do tuesdays | u: {answer}") == set()


def test_a_sure_yes_to_a_question_about_a_day_still_says_it_works() -> None:
    assert days("a: can you do tuesdays | u: yes definitely") == {("tuesday", "available")}


def test_thats_about_it_after_a_list_of_days_out_is_not_a_day() -> None:
    call = "a: any days to steer clear of | u: no tuesdays no thursdays thats about it"
    assert days(call) == {("tuesday", "unavailable"), ("thursday", "unavailable")}
