"""Round 15 of the rule reader, for precision: a typed day only from a reading a second, cruder
reading of the same sentence agrees with, and never from a sentence whose subject has become
somebody else. Phrasings of its own (not the scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, quoted, typed

# -- a clause that refers back to the day and says it the other way round ---------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: I work at the depot on Wednesdays so there's no way I'm home then.",
        "u: we work in town on wednesdays so there's no chance of us being home then",
        "u: Wednesdays are a washout, I'm home anyway.",
        "u: I'm off work on Wednesdays.",
        # "any more" is not "any day": the clause after still refers back.
        "u: I don't do Wednesdays at the café any more, so I'm free then.",
        # "only" does not stop the caller's day off being heard in the day's own clause.
        "u: I'm off work Wednesdays only, so that's my day.",
    ],
)
def test_a_day_the_rest_of_the_sentence_says_the_other_way_round_is_kept_as_words(
    said: str,
) -> None:
    assert not days(said)
    assert quoted(said)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: I can't do Mondays, I'm at work.", {("monday", "unavailable")}),
        ("u: Mondays are fine, I'm not working.", {("monday", "available")}),
        ("u: Tuesdays are out, I work.", {("tuesday", "unavailable")}),
        ("u: no thursdays, i'm at the gym then", {("thursday", "unavailable")}),
        ("u: fridays are grand, i'm home all day", {("friday", "available")}),
    ],
)
def test_a_reason_that_agrees_with_the_day_leaves_it_typed(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # Given up, not busy.
        (
            "u: Sundays are free now, I did shifts then but I packed them in.",
            {("sunday", "available")},
        ),
        # An acknowledgement, not a sign.
        ("u: right okay, thursday is out", {("thursday", "unavailable")}),
        # The job, not "works for me".
        ("u: Tuesday's a no-go, I've got work.", {("tuesday", "unavailable")}),
        # What was, not what is.
        ("u: Mondays are fine now, I used to be busy then.", {("monday", "available")}),
        # A correction: what it takes back is not the day's last word.
        ("u: thursdays are bad, no wait, they're fine", {("thursday", "available")}),
        # A clause refers back to the day named last before it, not to every day.
        (
            "u: Mondays are fine, Tuesdays are out, I'm at work then.",
            {("monday", "available"), ("tuesday", "unavailable")},
        ),
        # The caller's work is the other days'.
        ("u: its only ever fridays for me i work the rest", None),
        # The rest of the week.
        ("u: Thursdays are out, I'm easy the rest of the week.", {("thursday", "unavailable")}),
        # A clause about what changed is the change rules' to read.
        (
            "u: wednesdays were my day off but they changed the rota, so not wednesdays now",
            {("wednesday", "unavailable")},
        ),
    ],
)
def test_a_clause_about_something_else_is_no_second_reading_of_the_day(
    said: str, expected: set[tuple[str, str]] | None
) -> None:
    if expected is None:
        assert typed(said) == {
            ("preferred_day", None, "friday only"),
            ("availability", "friday", "available"),
        }
    else:
        assert days(said) == expected


# -- somebody else as the subject ---------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: My neighbour can't do Mondays, so if you're doing both houses, skip Monday.",
        "u: The landlord says the tenant can only do Thursdays.",
        "u: my sister is never in on wednesdays so wednesdays are useless",
        "u: our lodger works saturdays, so saturday's a write-off",
    ],
)
def test_days_said_after_somebody_else_became_the_subject_are_not_the_callers(said: str) -> None:
    assert not typed(said)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "u: My partner can't do Thursdays but I can, so Thursday's fine.",
            {("thursday", "available")},
        ),
        ("u: My husband works Fridays, but Friday's fine for me.", {("friday", "available")}),
        ("u: my wife and i can't do tuesdays", {("tuesday", "unavailable")}),
        ("u: I can't do Tuesdays, I'm at my mum's.", {("tuesday", "unavailable")}),
        ("u: Mondays are no good, I've got the grandkids.", {("monday", "unavailable")}),
    ],
)
def test_the_callers_own_days_beside_somebody_else_are_still_typed(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


# -- a question about days with no predicate of its own ------------------------------------------


def test_a_day_added_after_an_echo_question_keeps_the_sign_of_the_answer_it_adds_to() -> None:
    said = "a: Any days that are no good? | u: Mondays. | a: Only Mondays? | u: And Fridays."
    assert days(said) == {("monday", "unavailable"), ("friday", "unavailable")}
    said = "a: Which days suit you? | u: Tuesdays. | a: Just Tuesdays? | u: And Thursdays."
    assert days(said) == {("tuesday", "available"), ("thursday", "available")}


def test_a_bare_day_answering_a_question_with_no_sign_is_not_typed() -> None:
    assert not days("a: Which day is worst for you? | u: Monday.")
    assert not days("a: Which days? | u: Monday.")


def test_a_yes_or_no_question_about_a_day_still_asks_whether_it_works() -> None:
    assert days("a: Can you do Mondays? | u: No.") == {("monday", "unavailable")}
    assert days("a: Is anyone home on Fridays? | u: Yes, I am.") == {("friday", "available")}


# -- a day said on a condition -------------------------------------------------------------


def test_a_day_said_on_a_condition_is_kept_as_words() -> None:
    said = "u: I'm in Tuesdays unless I'm at my daughter's."
    assert not days(said)
    assert quoted(said)
    assert not days("u: fridays are fine unless the football's on")


# -- a count shared out over rooms ------------------------------------------------------------


def test_one_of_a_thing_in_each_of_several_rooms_is_not_a_count_of_one() -> None:
    said = "u: Three bathrooms, each with a towel rail, and nine radiators."
    assert ("equipment_count", "towel rail", "1 towel rail") not in typed(said)
    assert ("equipment_count", "radiator", "9 radiators") in typed(said)


def test_a_total_said_beside_rooms_is_not_a_count_of_rooms() -> None:
    said = "u: two in the lounge and one in each of the four bedrooms so six altogether"
    assert not {key for kind, key, _ in typed(said) if kind == "equipment_count"} & {"bedroom"}


def test_things_one_in_each_room_keep_their_own_count() -> None:
    said = "u: We've four thermostats, one in each zone."
    assert typed(said) == {("equipment_count", "thermostat", "4 thermostats")}


def test_rooms_counted_beside_each_with_no_total_keep_their_count() -> None:
    said = "u: Two bathrooms, each with a shower, and eight radiators."
    assert ("equipment_count", "bathroom", "2 bathrooms") in typed(said)


# -- "before" a happening --------------------------------------------------------------------


def test_a_day_said_before_a_happening_with_no_tense_is_kept_as_words() -> None:
    said = "u: we could do mondays before the new job"
    assert not days(said)
    assert quoted(said)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: Mondays are fine before the school run", {("monday", "available")}),
        ("u: i can do tuesdays before 10", {("tuesday", "available")}),
        ("u: Fridays were great before I changed jobs.", {("friday", "unavailable")}),
        ("u: before i could do thursdays but not any more", {("thursday", "unavailable")}),
        ("u: before i could do thursdays", {("thursday", "unavailable")}),
    ],
)
def test_before_a_time_of_day_or_with_the_tense_said_still_types_the_day(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


# -- doubts, alternatives and part of a count ----------------------------------------------


def test_a_value_the_caller_doubts_aloud_is_not_typed() -> None:
    assert not typed("u: we're on the sixth floor, or is it the seventh, I can never remember")
    assert typed("u: we're on the sixth floor") == {("floor", None, "6th floor")}


def test_two_ways_to_reach_the_caller_offered_as_alternatives_are_no_preference() -> None:
    assert not typed("u: a text or an email, whichever suits you")
    assert typed("u: text me, not email") == {("contact_preference", None, "text message")}


def test_a_count_of_how_many_work_out_of_more_is_not_the_count() -> None:
    said = "u: just the one thermostat works out of three"
    assert ("equipment_count", "thermostat", "1 thermostat") not in typed(said)
    assert typed("u: eight radiators") == {("equipment_count", "radiator", "8 radiators")}


def test_somebody_else_as_a_new_subject_without_a_comma_takes_their_days() -> None:
    said = "u: i'm home on tuesdays my husband is home on thursdays"
    assert days(said) == {("tuesday", "available")}
    said = "u: I can't do Tuesdays, and Saturdays I'm always at my sister's in Hull."
    assert days(said) == {("tuesday", "unavailable"), ("saturday", "unavailable")}


# -- speech-to-text run-ons and corrections said in other words --------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: er fridays don't work i'm at my brother's all day", {("friday", "unavailable")}),
        (
            "u: so tuesday i can't i'm at the hospital all day tuesdays",
            {("tuesday", "unavailable")},
        ),
        ("u: Thursday works — oops, I meant to say it doesn't.", {("thursday", "unavailable")}),
        ("u: Before the operation I could do Fridays.", {("friday", "unavailable")}),
    ],
)
def test_a_reason_run_on_or_a_correction_in_other_words_reads_the_right_way_round(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


def test_or_no_takes_back_what_was_just_said() -> None:
    assert ("monday", "available") not in days("u: I can do Monday, or no, I can't, I'm at work.")


def test_a_turn_that_opens_i_tell_a_lie_takes_back_the_day_it_corrects() -> None:
    said = (
        "u: Tuesday is no good. | a: Right, Tuesday's out."
        " | u: Hmm, I tell a lie, it's Monday that's no good."
    )
    assert days(said) == {("monday", "unavailable")}


# -- after sets 14 and 15 were scored: their misreadings, in other words ------------------------


def test_digits_with_a_spoken_zero_are_one_number() -> None:
    assert typed("u: it's flat three-oh-two") == {("flat", None, "Flat 302")}
    assert typed("u: we're at seven oh one station road") == {("address", None, "701 Station Road")}


def test_nothing_on_a_day_is_free() -> None:
    assert days("u: I've got nothing on Wednesdays.") == {("wednesday", "available")}


def test_a_day_negated_beside_a_negative_that_carries_its_own_not_is_kept_as_words() -> None:
    said = "u: not tuesday not a chance"
    assert not days(said)
    assert quoted(said)
    assert days("u: no fridays, no way") == {("friday", "unavailable")}


def test_a_count_of_nothing_the_line_counts_is_not_typed() -> None:
    assert not typed("u: we had four goldfish, we're down to two now")
    assert typed("u: we had two boilers, down to one now") == {
        ("equipment_count", "boiler", "1 boiler")
    }


def test_digits_said_with_hyphens_are_one_number() -> None:
    assert typed("u: flat one-one-four") == {("flat", None, "Flat 114")}


def test_no_before_a_day_is_the_days_own_negation_not_a_second_one() -> None:
    said = (
        "u: mondays are out | a: Okay, not Mondays."
        " | u: no no mondays are fine its tuesdays i cant do"
    )
    assert days(said) == {("monday", "available"), ("tuesday", "unavailable")}


def test_units_the_caller_names_are_still_counted() -> None:
    assert typed("u: we've got three units on the roof") == {("equipment_count", "unit", "3 units")}


def test_a_reason_about_somebody_else_is_no_second_reading_of_the_callers_day() -> None:
    assert days("u: no more fridays, the grandkids are home") == {("friday", "unavailable")}


def test_may_is_a_hedge() -> None:
    assert not days("u: I may be away on Thursday, it's all up in the air.")
    assert not days("u: Fridays may be tricky.")


def test_a_lower_ground_flat_is_the_basement() -> None:
    assert typed("u: it's a lower ground flat") == {("floor", None, "basement")}
    assert typed("u: First floor, sorry, basement - it's a lower ground flat.") == {
        ("floor", None, "basement")
    }
