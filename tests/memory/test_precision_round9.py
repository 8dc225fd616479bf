"""Round 9 of the rule reader, aimed at days stored the wrong way round and somebody else's
facts: negators never cancel below none, a "no" that is a noun's puts the sign in doubt, a
note may not state a day the caller spoke of, and what is said of somebody stays theirs.
Phrasings of its own (not the scored sets')."""

from __future__ import annotations

from datetime import date

import pytest

from memory.extract import Turn, extract_call_facts
from tests.memory.spoken_calls import days, facts, typed


def test_two_negated_days_and_a_negative_word_stay_negative() -> None:
    # "no fridays", "no saturdays" and "hopeless" are one negation, not three.
    assert days("u: no fridays no saturdays they're both hopeless") == {
        ("friday", "unavailable"),
        ("saturday", "unavailable"),
    }


@pytest.mark.parametrize(
    "conversation",
    [
        # The only negator is a "no" that belongs to a noun the reader does not know.
        "u: sunday's no skin off my back i'm home",
        "u: tuesdays are no biggie im always in",
    ],
)
def test_a_no_that_is_a_nouns_puts_the_sign_in_doubt(conversation: str) -> None:
    assert not days(conversation)
    assert any(f.kind == "quote" for f in facts(conversation))


def test_a_no_that_answers_still_leaves_the_sign() -> None:
    assert days("u: no mondays are fine") == {("monday", "available")}


def test_two_days_run_together_after_a_correction_are_a_guess() -> None:
    assert not days("u: sorry i was thinking of monday fridays are bad")


@pytest.mark.parametrize(
    ("said", "note"),
    [
        ("maybe friday, I will have to ask", "Friday available"),
        ("my dad cannot do tuesdays", "Tuesday unavailable"),
    ],
)
def test_a_note_does_not_state_a_day_the_caller_spoke_of(said: str, note: str) -> None:
    found = extract_call_facts(
        [Turn("user", said)], [note], today=date(2026, 12, 3), call_id="call-1"
    )
    assert not [f for f in found if f.kind == "availability"]
    assert [f.value for f in found if f.kind == "note"] == [note]  # kept as the note it is


def test_a_note_still_states_a_day_the_caller_did_not_speak_of() -> None:
    found = extract_call_facts(
        [Turn("user", "hello")], ["Tuesday unavailable"], today=date(2026, 12, 3), call_id="c"
    )
    assert [(f.kind, f.key, f.value) for f in found] == [("availability", "tuesday", "unavailable")]


def test_how_many_somebody_has_is_not_the_callers() -> None:
    conversation = "u: our lass has nine radiators in her flat"
    assert not {f for f in typed(conversation) if f[0] == "equipment_count"}


@pytest.mark.parametrize(
    ("conversation", "kept"),
    [
        # A thing of the home is no person ("my boiler is", "my system has").
        ("u: my new address is 4 elm road", ("address", None, "4 Elm Road")),
        ("u: my boiler is a combi", ("boiler_type", None, "combi")),
        ("u: our house has 8 radiators", ("equipment_count", "radiator", "8 radiators")),
        ("u: my system has 8 radiators", ("equipment_count", "radiator", "8 radiators")),
        ("u: our heating has 8 radiators", ("equipment_count", "radiator", "8 radiators")),
        # No pronoun shows the subject is a person: the count is the caller's.
        ("u: my card is on file and we have 3 boilers", ("equipment_count", "boiler", "3 boilers")),
    ],
)
def test_the_callers_own_things_stay_theirs(
    conversation: str, kept: tuple[str, str | None, str]
) -> None:
    assert kept in typed(conversation)


def test_a_day_said_for_somebody_else_stays_theirs() -> None:
    conversation = "u: My brother can't do Fridays, so you'll want to keep Friday clear for him."
    assert not days(conversation)


def test_what_changed_for_the_caller_is_not_the_days_sign() -> None:
    assert ("preferred_day", None, "wednesday") in typed(
        "u: wednesday is best now my shifts have changed"
    )
    assert not days("u: wednesday is best now my shifts have changed")
