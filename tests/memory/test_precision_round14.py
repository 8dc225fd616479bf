"""Round 14 of the rule reader, for precision on the spent sets: facts the caller did not
state, or stated the other way round, and which are now left unsaid. Phrasings of its own
(not the scored sets')."""

from __future__ import annotations

from tests.memory.spoken_calls import days, typed

# -- "long weekends" --------------------------------------------------------------------------


def test_long_weekends_away_say_nothing_of_saturday_or_sunday() -> None:
    said = "u: no thursdays or mondays please, we take long weekends away in the van"
    assert days(said) == {("thursday", "unavailable"), ("monday", "unavailable")}


def test_plain_weekends_are_still_the_weekend_days() -> None:
    assert days("u: weekends are no good for me") == {
        ("saturday", "unavailable"),
        ("sunday", "unavailable"),
    }


# -- a weekday that "was" -----------------------------------------------------------------------


def test_a_day_that_was_the_day_off_no_longer_works() -> None:
    assert days("u: friday was my day off but the shifts got moved round") == {
        ("friday", "unavailable")
    }


def test_a_day_that_was_always_the_favourite_is_no_longer_preferred() -> None:
    said = "u: tuesday was always our favourite day, then the kids started clubs"
    assert not typed(said)


def test_a_day_that_was_fine_once_says_nothing_of_it_now() -> None:
    assert not days("u: saturday was fine the last time you came")
