"""Round 31: a caller turn speech-to-text wrote without punctuation, read a second time with
the commas `reading.punctuation` puts back. Phrased for these tests, not taken from any set."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.punctuation_table import LAST_SPENT, caller_turns, spent_sets, table_text, train
from contextdb_livekit.reading.punctuation import BoundaryModel
from tests.memory.spoken_calls import days, facts, of_kind, quoted

# A model that calls every gap a boundary: what stays uncut is what the guards keep whole.
EVERY_GAP = BoundaryModel({"": 1.0})


# -- the boundaries ----------------------------------------------------------------------------


def test_the_learned_table_cuts_a_run_on_at_its_clauses() -> None:
    said = "thursdays are no good i work then fridays are fine"
    restored = BoundaryModel.load().restore(said)
    assert restored == "thursdays are no good, i work then, fridays are fine"


@pytest.mark.parametrize(
    "said",
    [
        "Thursdays are no good, I work then.",  # punctuated already
        "thursdays are out - sorry i work",  # a spaced dash is punctuation too
        "no not friday",  # too short to hold two clauses
    ],
)
def test_a_punctuated_or_short_turn_is_left_as_said(said: str) -> None:
    assert EVERY_GAP.restore(said) == said


@pytest.mark.parametrize(
    ("said", "whole"),
    [
        ("we are at flat twenty eight up the top", "twenty eight"),
        ("it is a hundred and six church lane", "a hundred and six,"),
        ("flat eight oh two on the left", "eight oh two,"),
        ("we live in flat nine a over the shop", "nine a,"),
        ("number 80 eight zero that is it", "80 eight zero,"),
    ],
)
def test_a_number_said_as_words_is_never_cut(said: str, whole: str) -> None:
    assert whole in EVERY_GAP.restore(said)


def test_a_clause_is_never_cut_from_its_verb() -> None:
    restored = EVERY_GAP.restore("the old boilers were in the loft")
    assert restored == "the, old, boilers were, in, the, loft"


# -- the table ---------------------------------------------------------------------------------


def test_a_damaged_table_line_is_a_clear_error(tmp_path: Path) -> None:
    table = tmp_path / "punctuation.tsv"
    table.write_text("\t-2.5\nL1 thanks\t1.5\nR1 i 0.8\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"punctuation.tsv:3: expected 'feature<TAB>weight'"):
        BoundaryModel.load(table)
    table.write_text("L1 thanks\t1.5\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no bias line"):
        BoundaryModel.load(table)


def test_the_committed_table_is_the_one_the_spent_sets_make() -> None:
    # Rebuilt from the sets read while tuning only: the held-out sets after LAST_SPENT are
    # never trained on, and nobody edits the table by hand.
    sets = spent_sets()
    assert sets[-1] == f"independent{LAST_SPENT}"
    assert not any(s == f"independent{LAST_SPENT + 1}" for s in sets)
    committed = BoundaryModel.load()
    assert BoundaryModel.parse(table_text(train(caller_turns(sets)))) == committed


# -- the second reading ------------------------------------------------------------------------


def test_the_comma_reading_adds_what_the_run_on_hid() -> None:
    assert of_kind("u: email is best the phone is always off at work", "contact_preference") == {
        (None, "email")
    }
    assert of_kind("u: number twelve oak avenue the side gate is always open", "address") == {
        (None, "12 Oak Avenue")
    }


def test_two_readings_that_disagree_keep_the_callers_words() -> None:
    # As written it reads "the mobile"; with its comma, "the landline": neither is sure.
    conversation = "u: ring me on the landline the mobile hardly gets signal here"
    assert not of_kind(conversation, "contact_preference")
    assert quoted(conversation)


@pytest.mark.parametrize(
    "conversation",
    [
        "a: would friday work | u: it might do yeah i could be around friday depends on the shifts",
        "u: i always used to do mondays for you lot didnt i",
    ],
)
def test_a_day_only_the_comma_reading_finds_is_not_added(conversation: str) -> None:
    assert not days(conversation)


@pytest.mark.parametrize(
    "conversation",
    [
        "a: which floor is it | u: oh no not me im in a semi its my son thats on the third floor "
        "in the tower block",
        "a: what floor are you on | u: no its my mum thats on the sixth floor im in a house",
    ],
)
def test_what_the_comma_reading_finds_beside_somebody_else_is_not_added(conversation: str) -> None:
    assert not of_kind(conversation, "floor")


def test_what_the_first_reading_doubted_the_comma_reading_does_not_type() -> None:
    # Said noun first, which number goes with which thing is a guess however it is cut.
    assert not of_kind("u: er radiators eight thermostats two boilers one", "equipment_count")
    conversation = (
        "a: which flat is it | u: flat seven oh no four sorry flat four seven is upstairs"
    )
    assert not of_kind(conversation, "flat")


# -- the reader, on the way ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("conversation", "day"),
    [
        ("u: Up until last year, I could do Fridays.", "friday"),
        ("u: A few months ago, we could do Tuesdays.", "tuesday"),
        ("u: a year ago i could do thursdays", "thursday"),
    ],
)
def test_a_time_said_before_its_clause_keeps_the_clause_in_the_past(
    conversation: str, day: str
) -> None:
    assert days(conversation) == {(day, "unavailable")}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: ring me please, no pets here, email me",
        "u: text me please, weekends are a no go, email me",
    ],
)
def test_a_no_that_corrects_nothing_leaves_two_ways_to_reach_in_doubt(conversation: str) -> None:
    assert not of_kind(conversation, "contact_preference")


@pytest.mark.parametrize(
    "conversation",
    [
        "u: email me, sorry, text me please - email me",
        "u: email me, sorry, text me please but email me",
    ],
)
def test_a_value_put_right_then_said_again_after_a_dash_or_but_is_a_guess(
    conversation: str,
) -> None:
    assert not of_kind(conversation, "contact_preference")


def test_two_readings_of_one_place_one_cut_shorter_agree() -> None:
    # "11 The Mews" with its comma, "11 The Mews Off Park Road" as written: the same place.
    assert of_kind("u: eleven the mews off park road", "address") == {
        (None, "11 The Mews Off Park Road")
    }


def test_a_note_in_the_callers_words_is_kept_however_it_is_cut() -> None:
    # The note is the caller's sentence; its commas change no fact, so there is nothing to doubt.
    conversation = "u: the back door code's changed it's 6642 now"
    assert [(f.kind, f.value) for f in facts(conversation)] == [
        ("access_notes", "the back door code's changed it's [access code on file] now")
    ]
