"""Round 11 of the rule reader, tuned on sets 1-9: a doubt said after a sentence, a subject and
verb read into a value, a thing's place read as the home's floor, a phone spoken of as a
thing, lists said noun first, a job "every day", "working from home", a time said on its own
before its clause, days set against each other with "instead", "the rest of the week", the
agent's "any other days?", and small numbers said as words. Phrasings of its own (not the
scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind, quoted


@pytest.mark.parametrize("doubt", ["I think.", "Not certain though.", "Maybe, I'd have to ask."])
def test_a_sentence_that_is_only_a_doubt_doubts_the_one_before(doubt: str) -> None:
    said = f"u: Tuesdays are good for us. {doubt}"
    assert not days(said)
    assert quoted(said)


def test_a_doubt_in_the_next_turn_is_about_the_agents_question() -> None:
    # The agent spoke in between: the doubt answers it, not the caller's last sentence.
    said = "u: Tuesdays are good for us. | a: Anything else we should know? | u: Not sure."
    assert days(said) == {("tuesday", "available")}


def test_a_subject_and_verb_inside_a_value_is_a_misreading() -> None:
    assert not of_kind("u: I live at 12 we are on Ashby Road", "address")


@pytest.mark.parametrize(
    "said",
    ["u: it's in the basement behind the freezer", "u: its in the basement under the stairs"],
)
def test_a_things_place_is_not_the_homes_floor(said: str) -> None:
    assert not of_kind(said, "floor")


def test_the_home_in_the_basement_is_still_its_floor() -> None:
    assert of_kind("u: we live in the basement", "floor") == {(None, "basement")}


@pytest.mark.parametrize(
    "said",
    [
        "u: Email me please. | a: Email, noted. | u: Yes. My mobile keeps dying on me.",
        "u: On second thoughts, email. My phone's always dead.",
    ],
)
def test_a_phone_spoken_of_as_a_thing_is_not_the_way_to_reach_them(said: str) -> None:
    assert of_kind(said, "contact_preference") <= {(None, "email")}


def test_a_list_said_noun_first_is_a_guess() -> None:
    said = "u: er radiators nine towel rails two boilers one"
    assert not of_kind(said, "equipment_count")
    assert quoted(said)


def test_a_list_said_number_first_is_read() -> None:
    assert of_kind("u: two boilers and nine radiators", "equipment_count") == {
        ("boiler", "2 boilers"),
        ("radiator", "9 radiators"),
    }


@pytest.mark.parametrize(
    ("said", "free"),
    [
        ("u: I work every day except Thursday", "thursday"),
        ("u: we work all week apart from Wednesdays", "wednesday"),
    ],
)
def test_a_job_every_day_but_one_leaves_that_day_free(said: str, free: str) -> None:
    assert days(said) == {(free, "available")}


def test_working_from_home_is_being_in() -> None:
    assert days("u: I'm working from home on Fridays so that's fine") == {("friday", "available")}


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("u: Previously, Thursdays were no good, but now they're fine.", "thursday"),
        ("u: Before, I couldn't manage Wednesdays, but now I can.", "wednesday"),
    ],
)
def test_a_time_said_on_its_own_belongs_to_the_next_clause(said: str, day: str) -> None:
    assert days(said) == {(day, "available")}


@pytest.mark.parametrize(
    "said",
    [
        "u: not mondays the dentist tuesday instead im around tuesday",
        "u: mondays work | a: Mondays. | "
        "u: oh wait no mondays the gym tuesday instead im around tuesday",
    ],
)
def test_days_set_against_each_other_with_instead_are_a_guess(said: str) -> None:
    assert ("monday", "available") not in days(said)


@pytest.mark.parametrize(
    "said",
    [
        "u: Only Wednesdays really. I'm at the shop the rest of the week.",
        "u: Nothing but Wednesdays, I'm at the shop the rest of the week.",
    ],
)
def test_the_rest_of_the_week_is_not_the_day_said_before(said: str) -> None:
    assert ("wednesday", "unavailable") not in days(said)


@pytest.mark.parametrize(
    ("conversation", "day", "value"),
    [
        # The agent reads one day back and asks about the others: the answer is its own.
        (
            "u: Fridays are out. | a: So Friday's no good. Any other days that don't suit? | "
            "u: Oh, I meant Saturday.",
            "saturday",
            "unavailable",
        ),
        (
            "u: I can't do Wednesdays. | a: So no Wednesdays. Anything else? | "
            "u: Sorry, I meant Thursdays.",
            "thursday",
            "unavailable",
        ),
    ],
)
def test_an_answer_to_any_other_days_takes_the_questions_sign(
    conversation: str, day: str, value: str
) -> None:
    assert (day, value) in days(conversation)


def test_a_count_said_in_words_in_the_past_is_not_current() -> None:
    said = "u: we used to have two boilers but now it's just the combi"
    assert ("boiler", "2 boilers") not in of_kind(said, "equipment_count")


@pytest.mark.parametrize(
    "said",
    [
        "u: Three towel rails. | a: Three. | u: Well, two, one came off the wall.",
        "u: Three towel rails. Well, two.",
    ],
)
def test_another_count_said_in_words_is_a_doubt(said: str) -> None:
    assert ("towel rail", "3 towel rails") not in of_kind(said, "equipment_count")


def test_a_count_changed_in_words_in_a_later_turn_is_a_doubt() -> None:
    said = "u: one boiler | a: One boiler. | u: oh two, there's the old one in the garage"
    assert ("boiler", "1 boiler") not in of_kind(said, "equipment_count")


def meter_words(conversation: str) -> list[str]:
    return [f.value for f in facts(conversation) if f.kind == "meter_location"]


@pytest.mark.parametrize(
    ("said", "place"),
    [
        ("u: The meter used to be in the hall, but they moved it to a box outside.", "outside"),
        ("u: the meters not in the hall any more they put it in the garage", "garage"),
        ("u: Gas meter got moved to the porch in the summer.", "porch"),
    ],
)
def test_where_the_meter_is_now_is_kept_in_the_callers_words(said: str, place: str) -> None:
    kept = meter_words(said)
    assert kept and place in kept[0]


@pytest.mark.parametrize(
    "said",
    [
        "u: I reckon the meter's in the shed, don't quote me.",
        "u: My neighbour's meter is in the porch.",
        "u: The meter was in the hall when we bought the place.",
    ],
)
def test_a_guess_somebody_elses_meter_or_where_it_was_is_not_where_it_is(said: str) -> None:
    assert not meter_words(said)


WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday"}


@pytest.mark.parametrize(
    ("said", "value", "named"),
    [
        ("u: any weekday suits me now I'm retired", "available", WEEKDAYS),
        ("u: I can't do weekdays at all", "unavailable", WEEKDAYS),
        ("u: the weekend days are no good", "unavailable", {"saturday", "sunday"}),
    ],
)
def test_a_group_of_days_is_the_days_themselves(said: str, value: str, named: set[str]) -> None:
    assert days(said) == {(day, value) for day in named}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # An exception says nothing of the rest: only the excepted day is typed.
        ("u: weekdays are fine except Tuesdays", {("tuesday", "unavailable")}),
        ("u: any day but Friday", {("friday", "unavailable")}),
        # A day of a coming week, or a time of day, is no standing availability.
        ("u: any day next week would do", set()),
        ("u: I'm away at the weekend", set()),
        # "Any day" is said loosely ("I'm fine any day"): not each day of the week (set 10).
        ("u: to be honest any day is fine", set()),
    ],
)
def test_a_group_of_days_is_not_expanded_where_it_is_not_every_day(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


@pytest.mark.parametrize(
    ("note", "kind", "key", "value"),
    [
        ("Cannot do Tues or Thurs", "availability", "tuesday", "unavailable"),
        ("Fri only", "preferred_day", None, "friday only"),
    ],
)
def test_a_notes_shorthand_is_read(note: str, kind: str, key: str | None, value: str) -> None:
    from datetime import date

    from memory.extract import Turn, extract_call_facts

    found = extract_call_facts(
        [Turn("user", "that's all, thanks")], [note], today=date(2026, 12, 3), call_id="c"
    )
    assert (kind, key, value) in {(f.kind, f.key, f.value) for f in found}


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("u: Friday is the only day I can't manage.", "friday"),
        ("u: Only Monday's a problem, the rest are fine.", "monday"),
    ],
)
def test_the_only_day_that_does_not_work(said: str, day: str) -> None:
    assert (day, "unavailable") in days(said)


def test_a_not_tacked_on_in_jest_is_a_guess() -> None:
    assert not days("u: thursdays are just perfect for me not")


def test_a_verb_and_its_not_at_the_end_are_no_jest() -> None:
    assert days("u: Wednesdays suited us once, but these days they don't") == {
        ("wednesday", "unavailable")
    }


def test_a_run_on_sentence_splits_where_a_new_day_is_spoken_of() -> None:
    assert days("u: thursdays are good for me saturdays are bad") == {
        ("thursday", "available"),
        ("saturday", "unavailable"),
    }


@pytest.mark.parametrize(
    ("said", "count"),
    [
        (
            "u: we've got three radiators | a: Three radiators. | "
            "u: and the two in the new bathroom, so five in all",
            "5 radiators",
        ),
        (
            "u: Five towel rails. | a: Five. | u: And the one we put in the en suite, so six.",
            "6 towel rails",
        ),
        (
            "u: four rads | a: Four radiators. | u: we took one out last year so it's three now",
            "3 radiators",
        ),
    ],
)
def test_a_total_after_the_callers_own_count_is_of_the_same_thing(said: str, count: str) -> None:
    number, thing = count.split(" ", 1)
    assert [(key, value.split()[0]) for key, value in of_kind(said, "equipment_count")] == [
        (thing.removesuffix("s"), number)
    ]


@pytest.mark.parametrize(
    "said",
    [
        # No count of the caller's before it.
        "u: Mondays are fine. | a: And how old is the boiler? | u: so eight now",
        # A number that is no total of the count before it.
        "u: Two boilers. | a: Two boilers. And how old is the newer one? | u: six",
    ],
)
def test_a_bare_number_that_is_no_total_is_no_count(said: str) -> None:
    assert not {(k, v) for k, v in of_kind(said, "equipment_count") if k != "boiler"}
    assert ("boiler", "6 boilers") not in of_kind(said, "equipment_count")


def test_the_street_after_the_comma_is_read_without_it_is() -> None:
    assert of_kind("u: Number 9, it's Mill Road.", "address") == {(None, "9 Mill Road")}


def test_a_note_does_not_state_a_favoured_day_the_caller_only_hedged_on() -> None:
    from datetime import date

    from memory.extract import Turn, extract_call_facts

    found = extract_call_facts(
        [Turn("user", "I think Fridays, not sure")],
        ["Available Friday only"],
        today=date(2026, 12, 3),
        call_id="c",
    )
    assert not [f for f in found if f.kind in ("preferred_day", "availability")]
