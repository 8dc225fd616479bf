"""Round 14 of the rule reader, for precision on the spent sets: facts the caller did not
state, or stated the other way round, and which are now left unsaid. Phrasings of its own
(not the scored sets')."""

from __future__ import annotations

from tests.memory.spoken_calls import days

# -- "long weekends" --------------------------------------------------------------------------


def test_long_weekends_away_say_nothing_of_saturday_or_sunday() -> None:
    said = "u: no thursdays or mondays please, we take long weekends away in the van"
    assert days(said) == {("thursday", "unavailable"), ("monday", "unavailable")}


def test_plain_weekends_are_still_the_weekend_days() -> None:
    assert days("u: weekends are no good for me") == {
        ("saturday", "unavailable"),
        ("sunday", "unavailable"),
    }
