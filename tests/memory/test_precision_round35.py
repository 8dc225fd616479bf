"""Round 35: who will be home, asked as "who'll meet the engineer" or "who's letting them in",
and answered by the caller themselves. Phrased for these tests, not taken from any set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import facts, of_kind


def who_home(call: str) -> list[str]:
    """What the call keeps of who will be home (the caller's words, under that topic)."""
    return [f.value for f in facts(call) if f.kind == "who_home"]


# -- who will be home, asked another way ---------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "word"),
    [
        ("a: and who will meet the engineer | u: my stepdad ron he's retired", "stepdad"),
        ("a: Who's letting the engineer in? | u: The warden of the block, Bev.", "warden"),
        ("a: Who'll open up for us? | u: My neighbour Lisa has our spare.", "neighbour"),
        ("a: wholl answer the door | u: er our lodger kofi", "lodger"),
        ("a: who is meeting our engineer | u: the housekeeper mrs dale", "housekeeper"),
        ("a: whos home in the day | u: um the childminder shes got the kids", "childminder"),
        ("a: wholl be around | u: our handyman terry", "handyman"),
    ],
)
def test_who_will_be_home_asked_as_who_will_meet_or_let_in(call: str, word: str) -> None:
    (said,) = who_home(call)
    assert word in said.lower()


def test_a_question_about_meeting_that_is_not_who_asks_nothing_of_who_is_home() -> None:
    call = "a: Would you like to meet the engineer at the door? | u: my son, yes"
    assert who_home(call) == []


# -- the caller is the one at home -----------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        "a: Who will be at home? | u: Me, I'm retired so I'm always about.",
        "a: who'll let them in | u: just me",
        "a: Who's going to be in? | u: I will be in, all day.",
    ],
)
def test_the_caller_answering_who_will_be_home_with_themself(call: str) -> None:
    assert len(who_home(call)) == 1


@pytest.mark.parametrize(
    "call",
    [
        "a: Who will be at home? | u: Me? No, I'm at work all week.",
        "a: who'll be in | u: me not likely im on nights",
        "a: Who's going to be in? | u: Myself, though I won't be in before ten.",
        "a: who'll be in | u: me i wont be there im away that week",
        "a: Who will be home? | u: Me? Depends on my shifts.",
    ],
)
def test_the_caller_saying_they_will_not_be_home_is_not_who_is_home(call: str) -> None:
    assert who_home(call) == []


def test_me_said_when_nobody_asked_who_is_home_is_nothing() -> None:
    call = "a: Which engineer did you have last time? | u: me I can't remember his name"
    assert who_home(call) == []


# -- an option picked by its place in the agent's list ------------------------------------------


@pytest.mark.parametrize(
    ("call", "kind", "value"),
    [
        (
            "a: Mornings or afternoons, usually? | u: The second one, please.",
            "preferred_time",
            "afternoon",
        ),
        (
            "a: Is it a combi, a system or a conventional boiler? | u: the middle one",
            "boiler_type",
            "system",
        ),
        ("a: By email or by text? | u: Oh, the former.", "contact_preference", "email"),
        (
            "a: Right, okay, so, mornings or afternoons? | u: The first one.",
            "preferred_time",
            "morning",
        ),
        ("a: Is it a combi boiler or a system boiler? | u: The first one.", "boiler_type", "combi"),
        (
            "a: What make is it: Vaillant, Worcester, Baxi or Potterton? | u: The fourth.",
            "equipment_make",
            "Potterton",
        ),
        (
            "a: Email, a text, or a phone call? | u: um the last one",
            "contact_preference",
            "phone call",
        ),
        (
            "a: Which suits best — Monday or Friday? | u: The first one.",
            "preferred_day",
            "monday",
        ),
    ],
)
def test_an_option_picked_by_its_place_is_the_option(call: str, kind: str, value: str) -> None:
    assert (None, value) in of_kind(call, kind)


@pytest.mark.parametrize(
    "call",
    [
        # Two options have no middle, and no fourth.
        "a: Mornings or afternoons? | u: The middle one.",
        "a: Text or email? | u: the third one",
        # More than a place: the caller said something else too.
        "a: Mornings or afternoons? | u: The second one, unless it's a Friday.",
        # No list in the question, or two.
        "a: What time of day suits you? | u: The first one.",
        "a: Is that mornings or evenings, and by text or email? | u: The second one.",
    ],
)
def test_a_place_that_picks_no_option_keeps_nothing(call: str) -> None:
    call = f"{call} | a: And the floor? | u: Second."
    assert of_kind(call, "preferred_time") | of_kind(call, "contact_preference") == set()
    assert of_kind(call, "floor") == {(None, "2nd floor")}  # the rest of the call is read


def test_a_place_that_is_itself_an_option_is_that_option() -> None:
    call = "a: Ground floor or first? | u: First."
    assert of_kind(call, "floor") == {(None, "1st floor")}


def test_a_pick_after_the_callers_own_list_is_the_option_picked() -> None:
    call = "a: How do we reach you? | u: Text or email. | u: The first one, actually."
    assert of_kind(call, "contact_preference") == {(None, "text message")}


def test_a_pick_answers_only_the_question_just_before_it() -> None:
    call = "a: Mornings or afternoons? | u: Mornings. | a: Anything else? | u: The second one."
    assert of_kind(call, "preferred_time") == {(None, "morning")}


# -- a prompt of a few words about the floor or contact --------------------------------------------


@pytest.mark.parametrize(
    ("call", "value"),
    [
        ("a: Floor? | u: Fourth.", "4th floor"),
        ("a: and whats the floor | u: ninth", "9th floor"),
        ("a: Ground floor or first floor? | u: Ground.", "ground floor"),
    ],
)
def test_a_floor_named_alone_answering_a_short_floor_prompt(call: str, value: str) -> None:
    assert of_kind(call, "floor") == {(None, value)}


@pytest.mark.parametrize(
    "call",
    [
        "a: Is the boiler on the ground floor or the first? | u: First.",
        "a: Is the meter on the ground floor or upstairs? | u: The first.",
        "a: Did the leak come through the ceiling on the first floor? | u: No, the second.",
    ],
)
def test_where_a_thing_is_in_the_house_is_not_the_callers_floor(call: str) -> None:
    assert of_kind(call, "floor") == set()


@pytest.mark.parametrize(
    ("call", "value"),
    [
        ("a: Contact preference? | u: Email.", "email"),
        ("a: Preferred contact? | u: texts", "text message"),
    ],
)
def test_a_channel_named_alone_answering_a_short_contact_prompt(call: str, value: str) -> None:
    assert of_kind(call, "contact_preference") == {(None, value)}


def test_contact_in_a_longer_question_is_not_asking_how_to_reach_the_caller() -> None:
    call = "a: Do you have a contact at the housing association? | u: Karen. Text."
    assert of_kind(call, "contact_preference") == set()


def test_a_channel_the_caller_never_sees_is_not_the_preference() -> None:
    call = "a: How should we get in touch? | u: Emails I never check. Ring me."
    assert of_kind(call, "contact_preference") == {(None, "phone call")}
    call = "a: Contact preference? | u: Texts I always miss."
    assert of_kind(call, "contact_preference") == set()
