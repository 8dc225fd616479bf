"""Round 32: a number said and then spelt out again ("eighty two eight two"), and the
unpunctuated "no" that puts a misheard number right. Phrased for these tests, not taken from
any set."""

from __future__ import annotations

import pytest

from contextdb_livekit.reading.sentences import normal
from tests.memory.spoken_calls import days, of_kind

# -- a number said again, digit by digit or whole ------------------------------------------------


@pytest.mark.parametrize(
    ("said", "as_read"),
    [
        ("no eighty two eight two", "no 82"),
        ("number forty two forty two orchard close", "number 42 orchard close"),
        ("flat twelve one two", "flat 12"),
    ],
)
def test_a_number_spelt_again_is_one_number(said: str, as_read: str) -> None:
    assert normal(said) == as_read


@pytest.mark.parametrize(
    ("said", "as_read"),
    [
        ("twelve two four", "12 2 4"),  # the digits spell another number
        ("ten two thermostats", "10 2 thermostats"),  # another count beside it
        ("fifteen one six", "15 1 6"),
    ],
)
def test_numbers_that_do_not_spell_it_again_stay_apart(said: str, as_read: str) -> None:
    assert normal(said) == as_read


def test_a_misheard_house_number_put_right_without_a_comma() -> None:
    call = (
        "a: whats the address | u: eighty two cherry lane | a: eighteen cherry lane"
        " | u: no eighty two eight two | a: eighty two cherry lane | u: yep"
    )
    assert of_kind(call, "address") == {(None, "82 Cherry Lane")}


def test_a_misheard_count_put_right_without_a_comma() -> None:
    call = "a: how many radiators | u: twelve | a: twenty radiators | u: no twelve one two"
    assert of_kind(call, "equipment_count") == {("radiator", "12 radiators")}


def test_a_house_number_said_twice_before_its_street() -> None:
    call = "a: and the house number | u: er number forty two forty two orchard close"
    assert of_kind(call, "address") == {(None, "42 Orchard Close")}


def test_no_before_a_number_in_writing_is_still_the_house() -> None:
    assert of_kind("a: Address? | u: No 14 Elm Road.", "address") == {(None, "14 Elm Road")}


# -- which number the "no" puts right --------------------------------------------------------------


def test_a_number_put_right_after_a_flat_and_house_read_back_is_not_the_house() -> None:
    # The agent read back the flat and the house; 31 corrects the flat's 13, not the house.
    call = (
        "a: can i take your address | u: yeah its flat thirty one er ninety nine park lane"
        " | a: thats flat thirteen ninety nine park lane | u: no thirty one three one"
    )
    assert of_kind(call, "address") == set()
    assert of_kind(call, "flat") == {(None, "Flat 31")}


def test_the_end_of_a_misheard_house_number_said_again_keeps_the_house() -> None:
    # "two hundred and fifty?" "no, fifteen": the caller says again the part misheard; the
    # house is not number 15.
    call = (
        "a: whats the address | u: two hundred and fifteen mill road"
        " | a: two hundred and fifty mill road | u: no fifteen one five"
    )
    assert (None, "15 Mill Road") not in of_kind(call, "address")


def test_the_house_number_put_right_in_the_callers_own_sentence_still_changes() -> None:
    assert of_kind("a: Address? | u: 19 Mill Lane, sorry, 9.", "address") == {(None, "9 Mill Lane")}


def test_a_spelt_number_that_says_another_number_is_not_taken_as_the_house() -> None:
    call = "a: address | u: fifteen kings road | a: fifty kings road | u: no fifteen one six"
    assert of_kind(call, "address") == set()


# -- a count said with "we've got" after somebody else's ------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "We've only got four.",
        "i have just got four",
        "Ours has four.",
        "My cousin has got eleven in her house. We have only got four.",
        "my cousins got eleven in hers but weve got four",
    ],
)
def test_the_callers_own_count_said_with_got(answer: str) -> None:
    call = f"a: How many radiators have you got? | u: {answer}"
    assert of_kind(call, "equipment_count") == {("radiator", "4 radiators")}


@pytest.mark.parametrize(
    "answer",
    [
        "My cousin has got eleven in her house.",
        "They've only got eleven next door.",
        "she has got eleven",
    ],
)
def test_somebody_elses_count_alone_is_not_the_callers(answer: str) -> None:
    call = f"a: How many radiators have you got? | u: {answer}"
    assert of_kind(call, "equipment_count") == set()


# -- the caller's own way to be reached, after somebody else's ------------------------------------


@pytest.mark.parametrize(
    ("answer", "channel"),
    [
        ("My daughter likes texts, but for me it's email.", "email"),
        ("my lodger likes texts but as for me email is best", "email"),
        ("My husband likes texts, but a phone call is easier for me.", "phone call"),
    ],
)
def test_the_callers_channel_after_somebody_elses(answer: str, channel: str) -> None:
    call = f"a: What's the best way to reach you? | u: {answer}"
    assert of_kind(call, "contact_preference") == {(None, channel)}


@pytest.mark.parametrize(
    "answer",
    [
        "My daughter likes texts, and email is best for her.",
        "My brother says email is best for him.",
        "My son likes calls, but for him a text is best.",
    ],
)
def test_somebody_elses_channel_is_not_the_callers(answer: str) -> None:
    call = f"a: What's the best way to reach you? | u: {answer}"
    assert of_kind(call, "contact_preference") == set()


# -- days the comma reading alone finds, in a plain answer to the question asked -----------------


def test_days_cut_apart_by_the_commas_answer_the_question_as_asked() -> None:
    call = (
        "a: which days are no good for you"
        " | u: um yeah not tuesdays or saturdays them two im on shift"
    )
    assert days(call) == {("tuesday", "unavailable"), ("saturday", "unavailable")}


def test_days_said_the_other_way_from_the_question_are_not_added() -> None:
    # Asked which days work, answered with days that do not: not a plain answer to it.
    call = "a: which days work for you | u: er not tuesdays or saturdays them two im on shift"
    assert days(call) == set()


_ASKED_BAD = "a: which days are no good for you | u: "


@pytest.mark.parametrize(
    "call",
    [
        # A "no" answering the agent's read-back before the days.
        _ASKED_BAD + "no not tuesdays or saturdays them two im on shift",
        "a: so ive got thursday as your day off"
        " | u: no its friday fridays my day off thursday im at work",
        # A correction inside the answer.
        "a: what days cant you do | u: tuesday no wait not tuesday thursday i cant do thursday",
        "a: any day thats better than others"
        " | u: thursdays best or er monday monday is my best day actually not thursday",
        # A hedge.
        _ASKED_BAD + "um yeah not tuesdays or saturdays them two im on shift most likely",
        # Somebody else's days.
        _ASKED_BAD + "my wife cant do tuesdays or saturdays them two shes on shift",
    ],
)
def test_no_day_is_added_from_an_answer_that_is_not_plain(call: str) -> None:
    assert days(call) == set()


# -- false facts: the line's slots, a channel the caller cannot abide, the meter's floor --------


@pytest.mark.parametrize(
    "answer",
    ["yeah thursday is fine", "Yes, Thursday's good for the booking.", "go on then thursday"],
)
def test_a_yes_to_the_lines_slots_is_no_word_on_the_days(answer: str) -> None:
    call = f"a: so we have got monday or thursday available | u: {answer}"
    assert days(call) == set()


def test_the_days_read_back_still_answer_a_yes() -> None:
    call = "a: so mondays are out and thursdays are fine | u: yeah thats right"
    assert days(call) == {("monday", "unavailable"), ("thursday", "available")}


@pytest.mark.parametrize(
    ("answer", "channel"),
    [
        ("text me please i cant be doing with phone calls", "text message"),
        ("Ring me. I can't be bothered with emails.", "phone call"),
    ],
)
def test_a_channel_the_caller_cannot_abide_is_not_the_way_to_reach_them(
    answer: str, channel: str
) -> None:
    call = f"a: how should we get in touch | u: {answer}"
    assert of_kind(call, "contact_preference") == {(None, channel)}


def test_the_meters_basement_is_not_the_callers_floor() -> None:
    call = (
        "a: Where's the gas meter?"
        " | u: The flat upstairs has theirs in the porch, but ours is in the basement laundry room."
    )
    assert of_kind(call, "floor") == set()


def test_the_callers_own_floor_said_while_asked_about_the_meter_stands() -> None:
    call = "a: Where's the gas meter? | u: We live in the basement flat, the meter's by the door."
    assert of_kind(call, "floor") == {(None, "basement")}


# -- a yes to the values the agent said back ---------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "kind", "value"),
    [
        ("Is that 27 Linden Way?", "address", "27 Linden Way"),
        ("So flat 5, second floor.", "floor", "2nd floor"),
        ("Can I check the address? 3 Poplar Row?", "address", "3 Poplar Row"),
        ("And it's a system boiler?", "boiler_type", "system"),
    ],
)
def test_a_yes_to_a_value_said_back_confirms_it(agent: str, kind: str, value: str) -> None:
    assert (None, value) in of_kind(f"a: {agent} | u: Yes, that's right.", kind)


def test_a_yes_to_a_read_back_confirms_each_value_in_it() -> None:
    call = "a: Just to confirm: 40 Aspen Road, flat 6, top floor. | u: Yep."
    assert of_kind(call, "address") == {(None, "40 Aspen Road")}
    assert of_kind(call, "flat") == {(None, "Flat 6")}
    assert of_kind(call, "floor") == {(None, "top floor")}


@pytest.mark.parametrize(
    ("call", "kind", "not_stored"),
    [
        # A choice offered, not a value said back.
        ("a: Is it a Vaillant or a Baxi? | u: Yes.", "equipment_make", "Baxi"),
        ("a: Is it flat 5 or flat 6? | u: Yes.", "flat", "Flat 6"),
        # Two values of one kind said: which one the yes is to is a guess.
        ("a: So flat 5. And flat 6 as well? | u: Yes.", "flat", "Flat 6"),
        # A yes that goes on to say something else is no plain yes to the values.
        (
            "a: So flat 5, second floor? | u: Yes, flat 5, but we're on the third.",
            "floor",
            "2nd floor",
        ),
        # Not a kind a yes confirms: texting a code is not how the caller wants reaching.
        (
            "a: Key safe by the shed, and you'll text us the code. | u: Yes.",
            "contact_preference",
            "text message",
        ),
        # Somebody else's value, said back.
        ("a: And your son lives on the fifth floor? | u: Yes.", "floor", "5th floor"),
        # "flat twenty fourth floor" without a comma: flat 20 on the 4th, not the 24th floor.
        ("a: so flat twenty fourth floor | u: yeah", "floor", "24th floor"),
    ],
)
def test_no_value_is_confirmed_by_a_yes_that_does_not_say_which(
    call: str, kind: str, not_stored: str
) -> None:
    assert (None, not_stored) not in of_kind(call, kind)


# -- "the rest is right": the values said back that the caller does not put right -----------


def test_the_rest_of_a_read_back_is_confirmed_beside_the_value_put_right() -> None:
    call = (
        "a: Reading that back: 9 Holly Road, flat 2, a Baxi. | u: The flat is 12, not 2."
        " Everything else is correct."
    )
    assert of_kind(call, "address") == {(None, "9 Holly Road")}
    assert of_kind(call, "equipment_make") == {(None, "Baxi")}
    assert of_kind(call, "flat") == {(None, "Flat 12")}


def test_all_right_except_leaves_out_the_kind_it_puts_right() -> None:
    call = "a: So a Baxi combi boiler, flat 2. | u: All correct except it's flat 12."
    assert of_kind(call, "boiler_type") == {(None, "combi")}
    assert of_kind(call, "flat") == {(None, "Flat 12")}


def test_a_street_confirmed_is_renamed_by_a_later_correction() -> None:
    call = (
        "a: So 31 Mill Road and a Vaillant. | u: The rest is right, but the boiler's an Ideal."
        " | a: An Ideal, thanks. | u: Oh, and it's Mill Lane, not Road."
    )
    assert of_kind(call, "address") == {(None, "31 Mill Lane")}
    assert of_kind(call, "equipment_make") == {(None, "Ideal")}
