"""Round 19: run-on read-backs that say days both ways, with a day left open ("friday tbc"),
answered "monday no tuesday yes" or with a favourite said before its day; a run-on clause with
a subject of its own before a day's own predicate; and a "now" that belongs to a later clause.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A day read back as not known yet: the other days keep their own signs.
        (
            "a: right so to recap tuesday no wednesday yes friday yes and monday to be confirmed"
            " | u: yep that's right",
            {("tuesday", "unavailable"), ("wednesday", "available"), ("friday", "available")},
        ),
        (
            "a: so sunday yes saturday maybe and thursday no | u: spot on",
            {("sunday", "available"), ("thursday", "unavailable")},
        ),
        # "definitely" says the day works.
        (
            "a: so that's tuesday definitely and thursday no | u: yes",
            {("tuesday", "available"), ("thursday", "unavailable")},
        ),
    ],
)
def test_a_read_back_with_a_day_left_open(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_read_back_said_both_ways_whose_signs_are_not_all_read_confirms_nothing() -> None:
    # "mondays whatever" has no sign the reader knows: a yes must not give every day one sign.
    assert days("a: so fridays out mondays whatever and tuesdays good | u: yeah") == set()


def test_a_favourite_said_before_its_day_is_that_days() -> None:
    conversation = (
        "a: so that's tuesdays and fridays no good and you'd rather a wednesday is that right"
        " | u: yeah"
    )
    assert days(conversation) == {("tuesday", "unavailable"), ("friday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: tuesdays were a no before but now i am on nights tuesdays are actually fine",
            {("tuesday", "available")},
        ),
        ("u: we have the grandkids thursdays are fine though", {("thursday", "available")}),
        # A doubt about the day is not a clause of its own.
        ("u: I'm not sure if Tuesdays are free yet.", set()),
    ],
)
def test_a_day_with_its_own_predicate_after_a_clause_with_a_subject(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_now_after_the_old_day_does_not_turn_it_round() -> None:
    conversation = (
        "u: friday no saturday no sunday yeah but actually sunday is now when my son visits"
    )
    assert days(conversation) == {("friday", "unavailable"), ("saturday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: saturday is best oh no wait sunday sunday is best saturday i am at work",
            {("saturday", "unavailable")},
        ),
        (
            "u: mondays are fine tuesdays we are at the caravan",
            {("monday", "available"), ("tuesday", "unavailable")},
        ),
    ],
)
def test_a_days_predicate_then_another_day_with_a_subject_of_its_own(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_bare_not_day_set_against_days_said_not_to_work_is_not_read_either_way() -> None:
    assert days("u: It's Monday and Friday we can't do, not Wednesday.") == {
        ("monday", "unavailable"),
        ("friday", "unavailable"),
    }
    # A list of negated days is still one list.
    assert days("u: Not Monday, not Wednesday.") == {
        ("monday", "unavailable"),
        ("wednesday", "unavailable"),
    }


@pytest.mark.parametrize(
    "conversation",
    [
        "a: So your husband has the key, and he can't do Thursdays? | u: That's right.",
        "a: so your daughter cannot do saturdays | u: yeah",
    ],
)
def test_a_yes_to_somebody_elses_days_read_back_stores_nothing(conversation: str) -> None:
    assert days(conversation) == set()


def test_a_yes_to_who_will_be_home_on_a_day_still_says_the_day_works() -> None:
    assert days("a: so your partner will be in on wednesdays to let us in | u: yes") == {
        ("wednesday", "available")
    }
    # "your mondays" are the caller's own.
    assert days("a: so your mondays are out? | u: yes") == {("monday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Saturdays are no use, that's our church day.", {("saturday", "unavailable")}),
        ("u: thursday is my golf day", {("thursday", "unavailable")}),
    ],
)
def test_a_day_given_over_to_something_else(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_something_in_for_a_service_is_not_the_caller_at_home() -> None:
    conversation = (
        "u: Tuesday works. | a: Tuesday, great. | u: Sorry, not Tuesday, Tuesday the van is in"
        " for a service and I'll be stuck."
    )
    assert days(conversation) == {("tuesday", "unavailable")}
    # The caller's own "can't" beside it still counts.
    assert days("u: i cant do monday the car is in for its service") == {("monday", "unavailable")}
