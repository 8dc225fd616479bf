"""Round 12 of the rule reader, tuned on sets 1-10: a value as the subject of what "used to"
be, a later sentence that denies the value held or names another floor, "nothing but" a day,
the caller as a new subject after somebody else's negation, and "only"/"just" said of a day
rather than anywhere in a run-on. Phrasings of its own (not the scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, of_kind, quoted


@pytest.mark.parametrize(
    "said",
    [
        "u: Email used to be best for me, but these days I'd sooner you phoned.",
        "u: The mobile used to be the way to get me, not now though.",
    ],
)
def test_a_channel_that_used_to_suit_is_not_the_current_one(said: str) -> None:
    assert of_kind(said, "contact_preference") <= {(None, "phone call")}
    assert (None, "email") not in of_kind(said, "contact_preference")
    assert (None, "mobile") not in of_kind(said, "contact_preference")


def test_a_channel_said_as_it_is_now_still_counts() -> None:
    assert of_kind("u: Email me please, that's best.", "contact_preference") == {(None, "email")}


def test_a_later_sentence_denying_the_boiler_type_takes_it_back() -> None:
    said = (
        "u: The boiler's a combi. | a: Do you have a hot water tank at all? "
        "| u: Oh, there is one in the loft. So maybe it isn't a combi after all."
    )
    assert not of_kind(said, "boiler_type") & {(None, "combi")}
    assert quoted(said)


def test_a_later_sentence_restating_the_boiler_type_keeps_it() -> None:
    said = "u: The boiler's a combi. | a: Anything else? | u: Yes, it's a combi, fitted last year."
    assert of_kind(said, "boiler_type") == {(None, "combi")}


def test_a_later_turn_naming_another_floor_takes_the_floor_back() -> None:
    said = "u: We're on the first floor. | a: First floor. | u: well more the basement really"
    assert not of_kind(said, "floor")
    assert quoted(said)


def test_the_same_floor_said_again_another_way_is_no_doubt() -> None:
    # "2nd" and "second" are one floor: naming it again is no word against it.
    said = "u: We're on the 2nd floor. | a: Got it. | u: the second level is a long climb, mind"
    assert of_kind(said, "floor") == {(None, "2nd floor")}


def test_nothing_but_a_day_is_never_that_day_not_working() -> None:
    said = "u: Nothing but Thursdays, I'm afraid - weekday mornings are impossible."
    assert ("thursday", "unavailable") not in days(said)


def test_the_caller_as_a_new_subject_ends_somebody_elses_negation() -> None:
    said = "u: my lodger isnt around fridays he never is and i can do fridays no bother"
    assert ("friday", "unavailable") not in days(said)


def test_a_new_subject_still_carries_its_own_negation() -> None:
    said = "u: Mondays are fine for me and I can't do Tuesdays."
    assert days(said) == {("monday", "available"), ("tuesday", "unavailable")}


def test_just_far_from_the_day_does_not_make_it_the_only_one() -> None:
    said = "u: mondays are easy for me to be honest im just sat at home most of the time"
    assert not of_kind(said, "preferred_day")
    assert days(said) == {("monday", "available")}


@pytest.mark.parametrize(
    "said",
    [
        "u: I can only really do Wednesdays.",
        "u: Wednesday is the only day I'm around.",
        "u: We're only ever in on a Wednesday.",
        "u: Wednesday's my one and only free day.",
    ],
)
def test_only_said_of_a_day_makes_it_the_only_one(said: str) -> None:
    assert of_kind(said, "preferred_day") == {(None, "wednesday only")}
