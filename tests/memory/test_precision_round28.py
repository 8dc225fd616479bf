"""Round 28: counts asked one after another, each answered in a word. Phrased for these tests,
not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import of_kind


def test_the_count_said_back_then_the_next_thing_asked() -> None:
    conversation = (
        "a: How many radiators? | u: Eleven. | a: Eleven radiators. Towel rails? | u: Three."
    )
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "11 radiators"),
        ("towel rail", "3 towel rails"),
    }


def test_the_count_said_back_then_how_many_of_the_next_thing() -> None:
    conversation = (
        "a: How many boilers? | u: Two. | a: Two boilers. And how many thermostats? | u: Four."
    )
    assert of_kind(conversation, "equipment_count") == {
        ("boiler", "2 boilers"),
        ("thermostat", "4 thermostats"),
    }


def test_a_count_of_the_next_thing_with_where_it_is_leaves_the_first_count() -> None:
    conversation = (
        "a: How many radiators? | u: Six. | a: Six. Any towel rails? | u: Just one upstairs."
    )
    assert ("radiator", "6 radiators") in of_kind(conversation, "equipment_count")


def test_a_count_said_again_on_the_way_to_another_is_not_kept() -> None:
    conversation = (
        "a: How many radiators? "
        "| u: Seven. Well, seven plus the tiny one in the utility, so eight really."
    )
    assert ("radiator", "7 radiators") not in of_kind(conversation, "equipment_count")


def test_a_time_said_after_the_count_leaves_it() -> None:
    conversation = "a: How many radiators? | u: Eight. I'm out till 8 tonight, mind."
    assert of_kind(conversation, "equipment_count") == {("radiator", "8 radiators")}


def test_the_count_said_again_beside_one_of_them_is_kept() -> None:
    conversation = "a: How many radiators? | u: Four. Well four, and the one in the hall leaks."
    assert of_kind(conversation, "equipment_count") == {("radiator", "4 radiators")}


def test_a_count_of_the_next_thing_that_names_the_first_thing_again_is_a_word_about_it() -> None:
    conversation = (
        "a: How many radiators? | u: Six. | a: Six. Towel rails? "
        "| u: One, and the radiators might be seven, not sure."
    )
    assert ("radiator", "6 radiators") not in of_kind(conversation, "equipment_count")
