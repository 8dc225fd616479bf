"""Round 6 of the rule reader (issue 27), precision first: a guess, a supposition or a wish
types nothing, a number said digit by digit is one number, and the kinds whose value is a
sentence are kept as the caller's words under their topic. Each guard is pinned by phrasings
of its own (not the held-out sets')."""

from __future__ import annotations

import pytest

from memory.extract import Turn, extract_call_facts
from tests.memory.spoken_calls import TODAY, facts, typed


@pytest.mark.parametrize(
    ("conversation", "never"),
    [
        # A count given as a guess is not a count.
        ("u: There's roughly 9 radiators in the house.", "equipment_count"),
        ("u: fifteen rads or so i've never actually counted", "equipment_count"),
        ("u: we have at least three storage heaters", "equipment_count"),
        # A sentence that supposes states nothing.
        ("u: If we're on the sixth floor does the engineer need a lift?", "floor"),
        ("u: Hypothetically, if it was a Baxi, would you service it?", "equipment_make"),
        ("u: if it's the flat on the fourth floor the lift will be out", "floor"),
        ("u: Say it's a Worcester, then the engineer brings the part.", "equipment_make"),
        # What the caller wants fitted is not what they have.
        ("u: We want a Vaillant put in next year.", "equipment_make"),
        ("u: we're thinking of getting a system boiler", "boiler_type"),
        ("u: Could I get a quote for two new radiators?", "equipment_count"),
    ],
)
def test_nothing_of_that_kind_is_typed(conversation: str, never: str) -> None:
    assert never not in {kind for kind, _, _ in typed(conversation)}
    if not conversation.endswith("?"):  # a question states nothing at all
        assert any(f.kind == "quote" for f in facts(conversation))  # the words are kept


@pytest.mark.parametrize(
    ("conversation", "kept"),
    [
        # A guess taken back with the same number is sure.
        (
            "u: Around 7 radiators. Actually exactly seven, I just checked.",
            ("equipment_count", "radiator", "7 radiators"),
        ),
        # Only the guessed count is in doubt, not the other things counted.
        (
            "u: One boiler and about twenty radiators.",
            ("equipment_count", "boiler", "1 boiler"),
        ),
        # An age is not a count.
        ("u: It's a Glow-worm, about 8 years old.", ("equipment_make", None, "Glow-worm")),
        # Asking for a visit to look at the boiler is not a wish for another.
        (
            "u: I'd like someone to come and look at the Vaillant.",
            ("equipment_make", None, "Vaillant"),
        ),
        # Remembering the old boiler is not wanting one.
        (
            "u: It's a Baxi, no hang on, I'm thinking of the old one, it's a Potterton.",
            ("equipment_make", None, "Potterton"),
        ),
        # Digit by digit.
        ("u: flat seven oh three", ("flat", None, "Flat 703")),
        ("u: It's apartment two two one on the top floor.", ("flat", None, "Apartment 221")),
    ],
)
def test_what_the_caller_is_sure_of_is_kept(
    conversation: str, kept: tuple[str, str | None, str]
) -> None:
    assert kept in typed(conversation)


def test_no_digit_run_is_read_outside_a_flat_number() -> None:
    # "no seven seven": a correction and a repeat, not number 77.
    found = typed("u: we got six radiators | a: Six, thanks. | u: sorry no seven seven")
    assert ("equipment_count", "radiator", "77 radiators") not in found


@pytest.mark.parametrize(
    ("said", "kind", "shown"),
    [
        ("We had a dog but he passed away in the spring.", "pets", "Pets"),
        ("You can park on the drive behind the van.", "parking", "Parking"),
        ("The meter's in the cupboard under the stairs.", "meter_location", "Where the meter is"),
        ("My son will be in to let you in.", "who_home", "Who is home for visits"),
    ],
)
def test_a_sentence_valued_kind_is_the_callers_words_under_its_topic(
    said: str, kind: str, shown: str
) -> None:
    kept = [f for f in facts(f"u: {said}") if f.kind == kind]
    assert [f.value for f in kept] == [said.rstrip(".")]
    assert kept[0].sentence == f'{shown}, in the caller\'s words: "{said.rstrip(".")}"'


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "I mean" after the value: the value said last is the correction.
        (
            "u: Fridays are bad, er, Saturdays I mean.",
            {("availability", "saturday", "unavailable")},
        ),
        # A correction between two days is not a list running on.
        (
            "u: Wednesday - scrap that, Thursdays are no good for me.",
            {("availability", "thursday", "unavailable")},
        ),
        ("u: Tuesdays are out, sorry, Mondays", {("availability", "monday", "unavailable")}),
        # The channel compared against is not the one preferred.
        (
            "u: Email is far better than a phone call for me.",
            {("contact_preference", None, "email")},
        ),
        # A named phone is the channel, not a call in general.
        (
            "u: The home phone is easiest, I don't have a mobile.",
            {("contact_preference", None, "landline")},
        ),
        # Somebody named by where they live.
        ("u: Pat across the road can't do Fridays.", set()),
        ("u: Alan at number 12 is off Wednesdays.", set()),
    ],
)
def test_corrections_comparisons_and_other_people(
    conversation: str, expected: set[tuple[str, str | None, str]]
) -> None:
    assert typed(conversation) == expected


def test_an_agents_note_about_a_relative_is_not_the_callers_fact() -> None:
    found = extract_call_facts(
        [Turn("user", "hello")], ["Wife works Mondays."], today=TODAY, call_id="call-1"
    )
    assert not any(f.kind == "availability" for f in found)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # What was counted once is not what is there now.
        ("u: We used to have four storage heaters.", set()),
        # ...but the count said as current stands beside it.
        (
            "u: we used to have 3 tanks, we have one tank now",
            {("equipment_count", "tank", "1 tank")},
        ),
        # Another number offered for the count, in the sentence or the next turn.
        ("u: Six radiators, well, seven if you count the towel rail.", set()),
        (
            "u: We've got five radiators. | a: Five, thanks. | u: Hmm, my son reckons six.",
            set(),
        ),
        # A number of years is not another count.
        (
            "u: Three radiators, all of them put in, well, 10 years ago.",
            {("equipment_count", "radiator", "3 radiators")},
        ),
    ],
)
def test_a_count_in_doubt_is_not_kept(
    conversation: str, expected: set[tuple[str, str | None, str]]
) -> None:
    assert typed(conversation) == expected
