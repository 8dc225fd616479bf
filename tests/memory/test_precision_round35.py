"""Round 35: who will be home, asked as "who'll meet the engineer" or "who's letting them in",
and answered by the caller themselves. Phrased for these tests, not taken from any set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind


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


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which suits you better, mornings or afternoons?", "afternoon"),
        ("What would you rather, evenings or mornings?", "morning"),
    ],
)
def test_the_question_before_a_list_is_no_option(question: str, value: str) -> None:
    assert of_kind(f"a: {question} | u: The second one.", "preferred_time") == {(None, value)}


def test_a_kind_word_after_an_asking_word_is_the_option() -> None:
    # "call" is the first option, not a word naming them all: the second is the text.
    call = "a: Would you prefer a call or a text? | u: The second one."
    assert of_kind(call, "contact_preference") == {(None, "text message")}


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


# -- a yes or no said in more words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("yeah yeah", "available"),
        ("Mm hm.", "available"),
        ("Of course, yes.", "available"),
        ("mm not really no", "unavailable"),
        ("Nah, nope.", "unavailable"),
        ("I'm afraid not.", "unavailable"),
    ],
)
def test_a_yes_or_no_in_more_words_answers_the_day_asked(answer: str, value: str) -> None:
    assert days(f"a: Is Wednesday okay for you usually? | u: {answer}") == {("wednesday", value)}


def test_more_words_than_an_answer_are_not_a_bare_yes() -> None:
    assert days("a: Is Wednesday okay for you usually? | u: yeah yeah whatever") == set()


# -- a bare yes to what the agent put to the caller ------------------------------------------------


@pytest.mark.parametrize(
    ("call", "kind", "word"),
    [
        ("a: Is the water meter in the garage? | u: Yep.", "meter_location", "garage"),
        ("a: can your engineer park on the street | u: yeah of course", "parking", "street"),
        ("a: can the engineer use the drive | u: yeah course", "parking", "drive"),
        ("a: Will your neighbour be letting us in? | u: That's right.", "who_home", "neighbour"),
        ("a: And are you on the top floor? | u: Yes.", "floor", "top"),
    ],
)
def test_a_bare_yes_keeps_what_the_agent_put_to_the_caller(call: str, kind: str, word: str) -> None:
    (said,) = [f.value for f in facts(call) if f.kind == kind]
    assert word in said.lower()


@pytest.mark.parametrize(
    ("call", "kind", "kept"),
    [
        (
            "a: Will your son be there to let us in? | u: Yes.",
            "who_home",
            "my son will be there to let you in",
        ),
        (
            "a: Will you be the one letting us in? | u: yep",
            "who_home",
            "i will be the one letting you in",
        ),
        (
            "a: Is the gas meter by the back door? | u: Yes.",
            "meter_location",
            "the gas meter is by the back door",
        ),
    ],
)
def test_a_yes_kept_is_said_as_the_caller_would_say_it(call: str, kind: str, kept: str) -> None:
    assert [f.value for f in facts(call) if f.kind == kind] == [kept]


def test_a_yes_to_a_date_offered_is_no_standing_day() -> None:
    assert days("a: Are you free on Monday the 14th? | u: Yes.") == set()


@pytest.mark.parametrize(
    "call",
    [
        # More than a yes: what else was said may change it.
        "a: Is the water meter in the garage? | u: Yes, well, it was.",
        # A check of the agent's own words, not a statement put to the caller.
        "a: Is that right? | u: Yes.",
        # Not a statement put to the caller: a question about something else.
        "a: Do you know where the meter is? | u: Yes.",
        # A no says nothing of where it is, and a yes to two places does not say which.
        "a: Is the water meter in the garage? | u: No.",
        "a: Is the water meter in the garage or the hall? | u: Yes.",
    ],
)
def test_anything_but_a_bare_yes_to_a_statement_keeps_no_meter(call: str) -> None:
    assert [f for f in facts(call) if f.kind == "meter_location"] == []


def test_a_yes_to_a_day_is_read_as_the_day_was_asked() -> None:
    # Days are the reader's: "that is out" restated would lose which day.
    assert days("a: Is Monday out for you? | u: Yep.") == {("monday", "unavailable")}


@pytest.mark.parametrize(
    "call",
    ["a: Anything else? | u: I'll let the engineer in myself.", "a: ok | u: we will let them in"],
)
def test_the_caller_letting_the_engineer_in_is_who_is_home(call: str) -> None:
    assert len(who_home(call)) == 1


def test_a_yes_to_a_day_question_is_left_to_the_reader() -> None:
    # Restated ("i am out mondays and in fridays") the "out" would be read of both days.
    assert ("friday", "unavailable") not in days("a: Are you out Mondays and in Fridays? | u: yes")


# -- a read-back that sets days against others, "not Thursdays" said last -------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "a: So it's Saturdays that are a problem, not Sundays? | u: Yes.",
            {("saturday", "unavailable")},
        ),
        ("a: so you can do tuesday not wednesday | u: yeah thats it", {("tuesday", "available")}),
        (
            "a: Mondays and Fridays are out for you, but not Wednesdays? | u: Correct.",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
        ("a: So Thursday suits you, not Friday. | u: Exactly.", {("thursday", "available")}),
    ],
)
def test_a_yes_to_days_set_against_others_confirms_the_days_kept(
    call: str, expected: set[tuple[str, str]]
) -> None:
    assert days(call) == expected


def test_a_no_to_days_set_against_others_says_nothing_of_either() -> None:
    assert days("a: So it's Saturdays that are a problem, not Sundays? | u: No.") == set()
    assert days("a: So Thursday suits you, not Friday? | u: No.") == set()
    call = "a: So Thursday suits you, not Friday? | u: No, other way round, Friday suits."
    assert days(call) == {("friday", "available")}


def test_days_set_against_others_with_no_word_of_how_they_are_ask_nothing() -> None:
    assert days("a: Which one then, Monday, not Tuesday? | u: Yes.") == set()


def test_days_read_back_with_no_predicate_then_one_denied_are_each_their_own_way() -> None:
    assert days("a: So Monday and Tuesday, not Wednesday. | u: Yes, that's it.") == {
        ("monday", "available"),
        ("tuesday", "available"),
        ("wednesday", "unavailable"),
    }


def test_a_read_back_of_one_day_denied_alone_is_still_that_day() -> None:
    assert days("a: Okay, so not a Tuesday. | u: That's right.") == {("tuesday", "unavailable")}


# -- days denied, then the caller's reason, no punctuation between --------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "a: what days are you around | u: none of thursday or friday work for me im at my "
            "daughters",
            {("thursday", "unavailable"), ("friday", "unavailable")},
        ),
        (
            "a: which days are bad | u: neither monday nor wednesday really i do the school run",
            {("monday", "unavailable"), ("wednesday", "unavailable")},
        ),
        (
            "a: any days no good | u: not tuesday not thursday not saturday ive got the kids",
            {("tuesday", "unavailable"), ("thursday", "unavailable"), ("saturday", "unavailable")},
        ),
        (
            "a: any days no good | u: no mondays no fridays",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
    ],
)
def test_days_denied_then_a_reason_run_on(call: str, expected: set[tuple[str, str]]) -> None:
    assert days(call) == expected


def test_neither_day_with_a_predicate_of_their_own_is_not_split_off() -> None:
    # "is a problem" is the days' own predicate: neither is a problem, so both may work.
    call = "a: any days to avoid | u: neither monday nor tuesday is a problem"
    assert ("monday", "unavailable") not in days(call)


def test_for_me_then_a_hedge_is_not_a_new_clause() -> None:
    # The doubt is the days': split off, it would leave them sure.
    call = "a: hello | u: none of monday or tuesday work for me i reckon im away a lot"
    assert days(call) == set()


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "neither tuesday nor friday really like both of them im away at work",
            {("tuesday", "unavailable"), ("friday", "unavailable")},
        ),
        (
            "not monday not tuesday not wednesday basically not the start of the week",
            {("monday", "unavailable"), ("tuesday", "unavailable")},
        ),
    ],
)
def test_days_denied_run_on_said_unasked(said: str, expected: set[tuple[str, str]]) -> None:
    # Said unasked, the reading with commas put back cannot add the days on its own.
    assert days(f"a: Anything else I can help with? | u: {said}") == expected


def test_each_day_answered_in_turn_is_not_a_run_of_denials() -> None:
    call = "a: Run me through the week? | u: monday no tuesday no wednesday yes"
    assert days(call) == {
        ("monday", "unavailable"),
        ("tuesday", "unavailable"),
        ("wednesday", "available"),
    }


def test_a_reason_after_for_me_beside_one_day_keeps_the_day() -> None:
    call = "a: any days to avoid | u: thursdays are dead for me im up to my neck at work"
    assert days(call) == {("thursday", "unavailable")}


def test_a_list_read_as_one_option_picks_nothing() -> None:
    # Only "thursdays" is read as an option here; "the first one" is Mondays, not it.
    call = "a: Is it Mondays you can't do, or Thursdays? | u: The first one."
    assert ("thursday", "unavailable") not in days(call)
