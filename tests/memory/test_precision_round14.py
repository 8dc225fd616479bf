"""Round 14 of the rule reader, for precision on the spent sets: facts the caller did not
state, or stated the other way round, and which are now left unsaid. Phrasings of its own
(not the scored sets')."""

from __future__ import annotations

from tests.memory.spoken_calls import days, facts, of_kind, typed

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


# -- "just" a day that was said not to work --------------------------------------------------


def test_just_one_of_the_days_the_agent_asked_about_narrows_the_no() -> None:
    said = "a: Are Tuesdays and Fridays no good for you? | u: Just Fridays."
    assert typed(said) == {("availability", "friday", "unavailable")}


def test_just_the_day_left_after_taking_one_back_is_still_the_bad_one() -> None:
    said = (
        "u: we're busy thursdays and saturdays | a: ok | u: sorry saturdays are fine"
        " | u: just thursdays"
    )
    assert typed(said) == {
        ("availability", "saturday", "available"),
        ("availability", "thursday", "unavailable"),
    }


def test_just_a_day_with_nothing_against_it_is_still_the_only_day() -> None:
    assert typed("u: just thursdays") == {
        ("preferred_day", None, "thursday only"),
        ("availability", "thursday", "available"),
    }


def test_just_a_day_taken_back_into_the_week_is_the_only_day() -> None:
    said = (
        "u: mondays are no good | a: noted | u: oh no wait, mondays are fine | a: ok"
        " | u: just mondays"
    )
    assert ("preferred_day", None, "monday only") in typed(said)


# -- a "yeah" that opens a new subject ---------------------------------------------------------


def test_a_negator_after_yeah_and_a_new_subject_is_not_the_days() -> None:
    assert days("u: saturdays suit us yeah we are not football people") == {
        ("saturday", "available")
    }


# -- things on a floor ---------------------------------------------------------------------------


def test_the_floor_plural_things_are_on_is_not_the_homes_floor() -> None:
    assert not of_kind("u: there are four radiators on the top floor and five downstairs", "floor")


def test_the_home_said_to_be_on_a_floor_beside_a_count_keeps_its_floor() -> None:
    said = "u: we live on the top floor and there are four radiators"
    assert of_kind(said, "floor") == {(None, "top floor")}


# -- "I'm fairly certain" -------------------------------------------------------------------------


def test_a_boiler_type_the_caller_is_only_pretty_certain_of_is_not_stored() -> None:
    assert not of_kind("u: it's a system boiler, i'm pretty certain", "boiler_type")


def test_a_make_we_are_fairly_sure_of_is_not_stored() -> None:
    assert not of_kind("u: it's a vaillant, we're fairly sure", "equipment_make")


def test_a_hedge_the_caller_takes_back_leaves_the_fact() -> None:
    said = "u: it's a combi, i'm pretty sure, no, i'm positive, the badge says so"
    assert of_kind(said, "boiler_type") == {(None, "combi")}


# -- those who work at the home ---------------------------------------------------------------


def test_the_caretakers_working_day_is_not_the_callers() -> None:
    assert not days("u: the caretaker works fridays, he has the spare keys")


def test_the_housekeepers_day_in_is_who_is_home_not_the_callers_day() -> None:
    said = "u: the housekeeper is in on wednesdays"
    assert not days(said)
    assert any(f.kind == "who_home" for f in facts(said))


# -- a yes to "is it your favourite day?" -------------------------------------------------------


def test_yes_to_is_it_your_favourite_day_is_the_favourite_only() -> None:
    said = "a: Would Thursday be your favourite day? | u: Yes."
    assert typed(said) == {("preferred_day", None, "thursday")}


def test_no_to_is_it_your_best_day_says_nothing_of_the_day() -> None:
    assert not typed("a: Is Monday the best day for you? | u: No.")


def test_yes_then_the_words_to_is_it_your_preferred_day_store_no_availability() -> None:
    said = "a: Is Tuesday your preferred day? | u: Yes, Tuesdays are best."
    assert typed(said) == {("preferred_day", None, "tuesday")}


def test_yes_run_into_the_words_to_is_it_your_preferred_day_store_no_availability() -> None:
    said = "a: Is Saturday your preferred day? | u: yes saturdays are best"
    assert typed(said) == {("preferred_day", None, "saturday")}


# -- "used to ... but not now" after a day that works ---------------------------------------------


def test_not_now_after_a_past_clause_ends_the_past_not_the_day() -> None:
    said = "u: mondays are great, used to be stuck at work but not now"
    assert days(said) == {("monday", "available")}


def test_a_run_on_used_to_after_a_predicate_is_a_clause_of_its_own() -> None:
    said = "u: thursdays are free for me used to be busy with a night class but not now"
    assert days(said) == {("thursday", "available")}


# -- a correction's "just" day run into the next day's clause -----------------------------------


def test_a_corrections_just_day_run_into_the_next_days_clause_keeps_its_no() -> None:
    said = (
        "u: wednesdays and fridays are no good | a: right not wednesday or friday"
        " | u: sorry just wednesdays fridays are fine"
    )
    assert days(said) == {("wednesday", "unavailable"), ("friday", "available")}
