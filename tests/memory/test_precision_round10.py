"""Round 10: the caller's last word about a slot must be one the reader read. A later caller
sentence that speaks of the slot again — names its day, or another value of its kind — and
from which the reader typed nothing for it leaves what was read before in doubt: the caller's
words are kept, never the old value as current. Phrasings of its own (not the scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import quoted, typed


def kinds(conversation: str) -> set[str]:
    return {kind for kind, _, _ in typed(conversation)}


@pytest.mark.parametrize(
    "conversation",
    [
        # A count changed in words the reader does not read as a count.
        "u: we've got three radiators | a: Three radiators. | "
        "u: the two in the new bathroom make it five",
        "u: two boilers | a: Two boilers. | u: plus the one in the garage makes three",
        # A flat and a house number named again, otherwise.
        "u: flat 6 | a: Flat six. | u: ah the letterbox says 9, my mistake",
        "u: 12 Fern Road | a: 12 Fern Road. | u: the new sign at the gate says 21",
    ],
)
def test_a_later_unread_value_leaves_the_old_one_in_doubt(conversation: str) -> None:
    assert not kinds(conversation) & {"equipment_count", "equipment_make", "flat", "address"}
    assert quoted(conversation)


def test_a_later_unread_mention_of_the_day_leaves_its_sign_in_doubt() -> None:
    said = (
        "u: Wednesdays are fine | a: Wednesdays, lovely. | "
        "u: mind you Wednesday is bin day and I drive the community bus"
    )
    assert ("availability", "wednesday", "available") not in typed(said)
    assert quoted(said)


@pytest.mark.parametrize(
    ("conversation", "kept"),
    [
        # The same value said again, in other words: nothing changed.
        (
            "u: we have five radiators | a: Five. | u: yes 5 of them, all upstairs",
            ("equipment_count", "radiator", "5 radiators"),
        ),
        # A later sentence about something else names no value of the slot.
        (
            "u: it's a Potterton | a: A Potterton. | u: it lives in the airing cupboard",
            ("equipment_make", None, "Potterton"),
        ),
        # A number that is not said of the slot's kind ("the lift") does not speak of it.
        (
            "u: we're on the 3rd floor | a: Third floor. | u: the lift only goes to 2 mind",
            ("floor", None, "3rd floor"),
        ),
        # A day favoured again agrees with the day working.
        (
            "u: Tuesdays are fine | a: Tuesdays. | u: Tuesday is best for me really",
            ("availability", "tuesday", "available"),
        ),
        # A later sentence the reader reads for the slot settles it the usual way.
        (
            "u: Mondays are good | a: Mondays. | u: actually I can't do Mondays",
            ("availability", "monday", "unavailable"),
        ),
    ],
)
def test_a_slot_said_again_in_agreement_or_read_stays(
    conversation: str, kept: tuple[str, str | None, str]
) -> None:
    assert kept in typed(conversation)


def test_an_earlier_sentence_never_doubts_a_later_value() -> None:
    # Only what comes after the statement can change it.
    said = "u: my old place had a Baxi | a: Okay. | u: here it's a Vaillant"
    assert ("equipment_make", None, "Vaillant") in typed(said)
