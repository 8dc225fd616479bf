"""Round 27: a day taken back in one unpunctuated breath, and the words run on after it.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days


def test_a_day_before_its_verb_then_another_day_before_its_own() -> None:
    assert days("u: saturdays we cant do sundays we can") == {
        ("saturday", "unavailable"),
        ("sunday", "available"),
    }


def test_a_day_that_can_be_done_then_the_one_that_cannot() -> None:
    assert days("u: tuesday i can do monday is the one i cant") == {
        ("tuesday", "available"),
        ("monday", "unavailable"),
    }


def test_i_was_wrong_takes_back_the_day_said_before() -> None:
    conversation = (
        "a: so mondays are out | u: yes mondays | a: anything else "
        "| u: oh i was wrong mondays fine its fridays i cant do i checked my diary"
    )
    assert days(conversation) == {("monday", "available"), ("friday", "unavailable")}


def test_two_correction_words_in_a_row_take_back_the_day() -> None:
    conversation = (
        "a: tuesdays no good | u: yeah | a: ok | u: actually i was wrong tuesdays are fine"
    )
    assert days(conversation) == {("tuesday", "available")}


def test_a_new_subject_after_the_days_verb_starts_a_clause() -> None:
    assert days("u: its thursday we cant do we checked the calendar") == {
        ("thursday", "unavailable")
    }


def test_a_hedge_after_the_days_verb_still_hedges_it() -> None:
    assert days("u: monday i can do i think") == set()
    assert days("u: monday i can do we will see") == set()


def test_a_shift_moved_away_is_no_day_worked() -> None:
    assert days("u: friday i can do now they moved my shift") == {("friday", "available")}


def test_a_shift_moved_to_a_day_is_that_day_worked() -> None:
    assert days("u: they moved my shift to friday") == {("friday", "unavailable")}


def test_not_the_day_said_out_taken_back_is_left_in_doubt() -> None:
    conversation = (
        "a: which days are bad | u: thursdays | a: right thursdays | u: oh no sorry not thursdays"
    )
    assert ("thursday", "unavailable") not in days(conversation)


def test_not_a_day_said_to_work_is_still_ruled_out_when_put_right() -> None:
    conversation = "a: which days | u: thursdays are fine | a: ok | u: sorry not thursdays"
    assert days(conversation) == {("thursday", "unavailable")}


def test_no_not_one_day_then_another_to_a_read_back_says_neither_way() -> None:
    conversation = "a: so tuesday and saturday are out | u: no not saturday sunday"
    assert ("saturday", "unavailable") not in days(conversation)
    assert ("sunday", "unavailable") not in days(conversation)
