"""Round 8 of the rule reader, precision first: a "no" that is a noun's, somebody the reader
has no word for, a value corrected in the same breath, channels compared or disliked, and the
speech-to-text forms of a phone and a flat letter. Each guard is pinned by phrasings of its
own (not the scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import facts, typed


def quoted(conversation: str) -> list[str]:
    return [f.value for f in facts(conversation) if f.kind == "quote"]


@pytest.mark.parametrize(
    "conversation",
    [
        # A "no" before a noun the reader does not know is the noun's, not the day's: which
        # way round the day goes is a guess, so the words are kept.
        "u: Fridays are no picnic for me.",
        "u: tuesdays is no skin off anyones nose",
    ],
)
def test_a_no_before_an_unknown_noun_does_not_negate_the_day(conversation: str) -> None:
    assert not {f for f in typed(conversation) if f[0] == "availability"}
    assert quoted(conversation)


@pytest.mark.parametrize(
    ("conversation", "day", "value"),
    [
        # The idioms the reader knows still carry their sign, and so does a bare "no".
        ("u: Saturdays are no good.", "saturday", "unavailable"),
        ("u: mondays are no bother", "monday", "available"),
        ("a: Is Thursday any good? | u: thursdays no", "thursday", "unavailable"),
    ],
)
def test_a_known_no_still_signs_the_day(conversation: str, day: str, value: str) -> None:
    assert ("availability", day, value) in typed(conversation)


@pytest.mark.parametrize(
    "conversation",
    [
        "u: My fella can't do Tuesdays.",
        "u: our eldest is busy on Thursdays",
        "u: My other half's away Mondays.",
    ],
)
def test_somebody_the_reader_has_no_word_for_is_not_the_caller(conversation: str) -> None:
    assert not {f for f in typed(conversation) if f[0] == "availability"}
    assert quoted(conversation)  # kept as the caller's words, never as their fact


@pytest.mark.parametrize(
    ("conversation", "day", "value"),
    [
        # "my" + a day, a time or the caller's own schedule is the caller's.
        ("u: My mondays are hectic.", "monday", "unavailable"),
        ("u: My week is free on Wednesdays.", "wednesday", "available"),
        ("u: My days off are Fridays so they work.", "friday", "available"),
    ],
)
def test_the_callers_own_time_is_still_theirs(conversation: str, day: str, value: str) -> None:
    assert ("availability", day, value) in typed(conversation)


@pytest.mark.parametrize(
    ("conversation", "doubted"),
    [
        ("u: We're in flat 12 no 21", ("flat", None, "Flat 12")),
        ("u: second floor no fourth", ("floor", None, "2nd floor")),
        ("u: we have 5 radiators no 15", ("equipment_count", "radiator", "5 radiators")),
    ],
)
def test_a_value_corrected_in_the_same_breath_is_not_kept(
    conversation: str, doubted: tuple[str, str | None, str]
) -> None:
    assert doubted not in typed(conversation)
    assert quoted(conversation)


@pytest.mark.parametrize(
    ("conversation", "kept"),
    [
        # The correction that the reader reads, and a "not" that names the old value.
        ("u: flat 12, no, 21", ("flat", None, "Flat 21")),
        ("u: it's 5 radiators sorry 15", ("equipment_count", "radiator", "15 radiators")),
        ("u: flat 8 now, not flat 3", ("flat", None, "Flat 8")),
        # Of two things counted, which one a correction is about is not known: both stand.
        (
            "u: one boiler and nine radiators no nine",
            ("equipment_count", "boiler", "1 boiler"),
        ),
    ],
)
def test_a_value_the_correction_names_stands(
    conversation: str, kept: tuple[str, str | None, str]
) -> None:
    assert kept in typed(conversation)


def test_a_no_and_another_value_corrects_the_last_turn() -> None:
    conversation = "a: Which flat is it? | u: forty | a: Forty. | u: no fourteen"
    assert ("flat", None, "Flat 40") not in typed(conversation)
    # Round 32: "no fourteen" is "no, fourteen" (speech-to-text drops the comma): the caller's
    # last word on the flat, read as a correction.
    assert ("flat", None, "Flat 14") in typed(conversation)


def test_a_value_with_a_negator_inside_is_never_stored() -> None:
    conversation = "u: My address is 3 Elm Road. | a: 3 Elm Road. | u: Elm Grove, sorry, not Road."
    assert not {f for f in typed(conversation) if f[0] == "address"}


@pytest.mark.parametrize(
    ("conversation", "channel"),
    [
        # "prefer X to Y": Y is what X is preferred to.
        ("u: I'd much prefer an email to a text.", "email"),
        ("u: i prefer texts to phone calls", "text message"),
        # A channel the caller cannot get on with is not how to reach them.
        ("u: Ring me, I'm hopeless with texts.", "phone call"),
        ("u: email works i dont really check texts", "email"),
        ("u: a phone call suits me best i dont get on with emails", "phone call"),
        # "from now on" is what the caller wants from here, not an old value.
        ("u: From now on text me please.", "text message"),
        ("u: I used to want letters but from now on email is best", "email"),
        ("u: we used to get texts from you but emails better now", "email"),
        # Speech-to-text drops the apostrophe of "the mobile's".
        ("u: the mobiles the easiest one to reach me on", "mobile"),
    ],
)
def test_the_channel_kept_is_the_one_wanted(conversation: str, channel: str) -> None:
    assert typed(conversation) == {("contact_preference", None, channel)}


def test_a_letter_after_a_units_number_is_part_of_it() -> None:
    # "b" to "h" after a flat's number are never words of their own.
    assert ("flat", None, "Unit 4C") in typed("u: unit 4 c third floor")
    assert ("flat", None, "Flat 9") in typed("u: flat 9 a few doors down")
