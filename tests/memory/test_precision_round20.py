"""Round 20: street names whose last word says the kind ("Park View Close", "Hill Rise",
"Green Lanes"); messages that came, not ways to reach the caller; doubts said after the
statement ("not promising", "not yet"); idioms with hyphens; a shift given up, a team
packed in; what the caller said told again; a one-off week; a basement car park.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, of_kind


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: We're at 7 Park View Close.", "7 Park View Close"),
        ("u: it's 12 hill rise", "12 Hill Rise"),
        ("u: 58 Green Lanes, that's us.", "58 Green Lanes"),
    ],
)
def test_a_street_keeps_its_last_kind_word(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "address") == {(None, expected)}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: I got a text on Tuesday saying you had cancelled, I didn't cancel anything.",
        "u: I copied the number off a text you sent.",
    ],
)
def test_a_message_that_came_is_not_how_to_reach_the_caller(conversation: str) -> None:
    assert of_kind(conversation, "contact_preference") == set()


def test_a_preference_for_a_text_is_still_read() -> None:
    conversation = "u: My son likes email, but I'd rather you sent me a text."
    assert of_kind(conversation, "contact_preference") == {(None, "text message")}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: Wednesdays could work, but I'm not promising.",
        "u: Fridays might suit, I would have to check with my manager.",
        "u: From March I'll be off on Tuesdays, but not yet.",
    ],
)
def test_a_doubt_said_after_the_statement(conversation: str) -> None:
    assert days(conversation) == set()


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("a: Any days that are off-limits? | u: Thursdays.", {("thursday", "unavailable")}),
        ("u: Tuesdays are a no-go.", {("tuesday", "unavailable")}),
        (
            "u: Sundays are free now the lads have packed in rugby.",
            {("sunday", "available")},
        ),
        (
            "u: thursdays are fine now my new job replaced my thursday shift",
            {("thursday", "available")},
        ),
    ],
)
def test_idioms_and_reasons(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_what_the_caller_said_told_again_is_not_the_past() -> None:
    conversation = "a: So Tuesdays are fine? | u: No, I said Tuesdays were no good."
    assert days(conversation) == {("tuesday", "unavailable")}


def test_a_one_off_week_answers_nothing_about_the_day() -> None:
    conversation = (
        "a: and are thursdays usually good for you | u: no not usually i have just got this one off"
    )
    assert days(conversation) == set()


def test_a_basement_car_park_is_not_the_callers_floor() -> None:
    assert of_kind("u: Our bay is in the basement car park, number 4.", "floor") == set()
    assert of_kind("u: We live in the basement.", "floor") == {(None, "basement")}


def test_a_day_after_what_changed_is_not_turned_round() -> None:
    conversation = (
        "a: i have got no thursdays on your record | u: yes before we said not thursday but "
        "thats changed thursday is fine now the lads are at college"
    )
    assert ("thursday", "unavailable") not in days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: How many radiators are there? | u: lounge two kitchen one bedrooms two so five",
            {("radiator", "5 radiators")},
        ),
        (
            "a: How many radiators? | u: Hall, kitchen, study, the bathroom, that makes four.",
            {("radiator", "4 radiators")},
        ),
    ],
)
def test_rooms_counted_through_are_where_the_radiators_are(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert of_kind(conversation, "equipment_count") == expected


def test_rooms_said_as_rooms_are_still_counted() -> None:
    conversation = "a: Any towel rails? | u: Three bathrooms, so three towel rails."
    assert ("towel rail", "3 towel rails") in of_kind(conversation, "equipment_count")


def test_a_note_after_sorry_leaves_no_correction_open_for_another_kind() -> None:
    # Two flats in one turn with nothing changed between them: neither is typed.
    conversation = "u: we're in flat 3. mondays suit me, sorry, we have a cat. it's flat 8"
    assert of_kind(conversation, "flat") == set()


def test_a_day_negated_then_said_again_with_its_own_word() -> None:
    conversation = (
        "a: so thats tuesdays and thursdays | u: oh no not thursday thursdays fine its mondays"
        " i cant do"
    )
    assert days(conversation) == {("thursday", "available"), ("monday", "unavailable")}


def test_days_read_back_as_somebody_elses_store_nothing() -> None:
    conversation = (
        "a: so your daughter lets us in and fridays are no good for her | u: yes thats it"
    )
    assert days(conversation) == set()


def test_a_day_read_back_as_not_known_keeps_the_others() -> None:
    conversation = "a: so tuesday out thursday fine and friday dont know | u: yes"
    assert days(conversation) == {("tuesday", "unavailable"), ("thursday", "available")}


def test_a_cleft_about_somebody_else_in_a_run_on_sentence() -> None:
    conversation = "u: no we are in a cottage its my son that is on the third floor in town"
    assert of_kind(conversation, "floor") == set()


@pytest.mark.parametrize(
    "conversation",
    [
        "a: Good week? | u: Went to the market on Tuesday, bought some apples, that was about it.",
        "a: What can I do for you? | u: The boiler's leaking. Could someone come out? Monday if"
        " possible.",
    ],
)
def test_a_day_something_happened_or_a_visit_asked_for_is_no_standing_day(
    conversation: str,
) -> None:
    assert days(conversation) == set()
