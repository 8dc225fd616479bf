"""`facts.changes.FactChanges`: which of a call's facts change what memory holds, what the review
reads back of them, a change of routine, and how the caller's answer settles them, over a toy
line's fact kinds (weekdays that work or not, an address, the caller's quoted words, a note)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

import pytest

from contextdb_livekit.facts.changes import FactChanges, change_key
from contextdb_livekit.facts.kinds import WEEKDAY_KEY, FactKinds, KindSpec, TypedFact, words_kind
from contextdb_livekit.facts.stamps import Confidence
from contextdb_livekit.memory.models import Memory

Kind = Literal["availability", "address", "quote", "note"]
TODAY = date(2026, 12, 3)


def _available(fact: TypedFact[Kind]) -> str:
    does = "work" if fact.polarity == "positive" else "do not work"
    return f"{str(fact.key).capitalize()}s {does} for the caller"


KINDS: FactKinds[Kind] = FactKinds(
    {
        "availability": KindSpec(
            ("availability", ""), _available, key=WEEKDAY_KEY, says_no="do not work"
        ),
        "address": KindSpec(("user", "address"), "Caller's address: {value}"),
        "quote": words_kind("quote"),
        "note": words_kind("note"),
    }
)


class Fact(TypedFact[Kind]):
    @property
    def kinds(self) -> FactKinds[Kind]:
        return KINDS


def fact(kind: Kind, value: str, *, key: str | None = None, **more: Any) -> Fact:
    fields: dict[str, Any] = dict(source="user_stated", confidence=Confidence.CALLER)
    fields.update(more)
    if KINDS.spec(kind).words is not None:
        key = value  # words kept as said: one slot per text
    return Fact(kind, value, observed_on=TODAY, key=key, **fields)


def quote(said: Fact) -> Fact:
    return fact("quote", said.said or said.sentence)


CHANGES: FactChanges[Fact] = FactChanges(KINDS, quote=quote, switched_kind="availability")


def stored(held: Fact) -> Memory:
    written = held.to_write()
    return Memory(  # type: ignore[call-arg]  # the client's dataclass, only what is read here
        id=change_key(held), content=written.content, user_id="u",
        epistemic_source=held.source, confidence=held.confidence, corroboration_count=1,
        action_relevant=False, requires_confirmation=False, confirmed=False,
        independent_corroboration=1, injection_suspect=False, entity_key=written.entity,
        attribute_key=written.attribute, valid_until=None, superseded_by=None,
    )  # fmt: skip


@dataclass
class Snapshot:
    memories: list[Memory]


@dataclass
class Settings:
    change_readback: bool = True


@dataclass
class Host:
    memory_settings: Settings = field(default_factory=Settings)


@dataclass
class Review:
    keys: frozenset[str]


@dataclass
class Call:
    """What `FactChanges` reads of a call: the snapshot, the review and its answer."""

    snapshot: Snapshot | None
    host: Host = field(default_factory=Host)
    review: Review | None = None
    review_answer: str | None = None


def call_holding(*held: Fact, **more: Any) -> Any:
    return Call(Snapshot([stored(f) for f in held]), **more)


THURSDAYS = fact("availability", "available", key="thursday")
ADDRESS = fact("address", "12 Ashby Road")


def test_a_change_is_the_callers_own_word_that_memory_does_not_hold() -> None:
    call = call_holding(THURSDAYS, ADDRESS)
    moved = fact("address", "3 Mill Lane")
    facts = [
        THURSDAYS,  # said again: memory holds it
        moved,  # the same slot, another sentence
        fact("availability", "available", key="monday"),  # a slot memory does not hold
        fact("quote", "we might move"),  # words kept as said
        fact("note", "dog in the garden", source="agent_inferred"),
        fact("address", "9 Elm Street", source="third_party"),  # not the caller's word
    ]
    assert CHANGES.changes(call, facts) == [moved, facts[2]]
    # No snapshot: nothing shows a stated fact is not a change.
    assert CHANGES.changes(Call(None), [THURSDAYS]) == [THURSDAYS]


def test_the_read_back_names_each_change_and_whether_it_replaces_a_held_one() -> None:
    call = call_holding(ADDRESS)
    moved, monday = fact("address", "3 Mill Lane"), fact("availability", "x", key="monday")
    read = CHANGES.read_back(call, [moved, monday], lambda f, replaces: f"{f.value}/{replaces}")
    assert read == [(change_key(moved), "3 Mill Lane/True"), (change_key(monday), "x/False")]
    assert change_key(moved) == "user/address=Caller's address: 3 Mill Lane"


def test_a_change_of_routine_switches_off_the_days_that_worked_and_were_not_named() -> None:
    monday_no = fact("availability", "unavailable", key="monday", polarity="negative")
    friday = fact("availability", "available", key="friday")
    call = call_holding(THURSDAYS, monday_no, friday)
    swapped = fact(
        "availability", "available", key="tuesday", said="we've swapped, it's tuesdays from now on"
    )
    named_friday = fact("availability", "available", key="friday")
    switched = CHANGES.with_switched_days(call, [swapped, named_friday])
    added = switched[2:]
    # Thursday worked and was not named: no longer. Monday already did not work; Friday was
    # named again in this call.
    assert [(f.key, f.polarity, f.said) for f in added] == [("thursday", "negative", swapped.said)]
    # Without the words of a change of routine, a new day adds to the ones that work.
    plain = dataclasses.replace(swapped, said="tuesdays work too")
    assert CHANGES.with_switched_days(call, [plain]) == [plain]


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        # Read back and confirmed: confirmed; the change never read back stays the words.
        ("yes", ["confirmed 3 Mill Lane", "quote tuesdays"]),
        # Read back and refused: dropped, memory keeps what it held.
        ("no", ["quote tuesdays"]),
        # No answer: every change kept as the caller's words.
        ("unanswered", ["quote 3 Mill Lane", "quote tuesdays"]),
    ],
)
def test_the_answer_settles_only_what_was_read_back(answer: str, kept: list[str]) -> None:
    moved = fact("address", "3 Mill Lane", said="3 Mill Lane")
    tuesday = fact("availability", "available", key="tuesday", said="tuesdays")
    call = call_holding(ADDRESS, review=Review(frozenset({change_key(moved)})))
    call.review_answer = answer
    settled = CHANGES.settle(call, [ADDRESS, moved, tuesday])  # the held address not again
    shown = [
        f"{'confirmed' if f.confidence == Confidence.CONFIRMED else f.kind} {f.value}"
        for f in settled
    ]
    assert shown == kept


def test_without_the_read_back_facts_are_kept_as_said() -> None:
    call = call_holding(ADDRESS, host=Host(Settings(change_readback=False)))
    moved = fact("address", "3 Mill Lane")
    assert CHANGES.settle(call, [ADDRESS, moved]) == [ADDRESS, moved]
