"""Round 7 of the rule reader, precision first: then and now are two clauses, a day read back
is not asked again, an idiom with "no" in it can be a yes, and "anything but" excepts. Each
guard is pinned by phrasings of its own (not the scored sets')."""

from __future__ import annotations

from datetime import date

import pytest

from memory.extract import Turn, extract_call_facts
from memory.facts import TOPICS, CallerFact

TODAY = date(2026, 12, 3)


def facts(conversation: str) -> list[CallerFact]:
    """The facts of "u: ... | a: ... | u: ..."."""
    turns = []
    for part in conversation.split(" | "):
        role, text = part.split(": ", 1)
        turns.append(Turn("user" if role == "u" else "assistant", text))
    return extract_call_facts(turns, [], today=TODAY, call_id="call-1")


def typed(conversation: str) -> set[tuple[str, str | None, str]]:
    return {
        (f.kind, f.key, f.value)
        for f in facts(conversation)
        if f.kind not in ("quote", "note") and f.kind not in TOPICS
    }


def days(conversation: str) -> set[tuple[str | None, str]]:
    return {(key, value) for kind, key, value in typed(conversation) if kind == "availability"}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "now it's <day>" after a past clause is a clause of its own, said of now.
        (
            "u: thursdays used to be my free day now it's saturdays",
            {("thursday", "unavailable"), ("saturday", "available")},
        ),
        (
            "u: wednesdays used to be my day off its sundays now",
            {("wednesday", "unavailable"), ("sunday", "available")},
        ),
        # A bare day said now takes the predicate itself, not its past ("busy", not "was busy").
        (
            "u: Thursdays used to be hectic, Mondays these days",
            {("thursday", "available"), ("monday", "unavailable")},
        ),
        (
            "u: We used to be off on Tuesdays, Fridays now.",
            {("tuesday", "unavailable"), ("friday", "available")},
        ),
    ],
)
def test_then_and_now_are_read_apart(
    conversation: str, expected: set[tuple[str | None, str]]
) -> None:
    assert days(conversation) == expected


def test_a_list_of_days_still_runs_on_past_a_comma() -> None:
    assert days("u: we can't do Tuesday, Wednesday or Thursday any more") == {
        ("tuesday", "unavailable"),
        ("wednesday", "unavailable"),
        ("thursday", "unavailable"),
    }


def test_a_favourite_in_the_past_says_nothing_of_the_day_now() -> None:
    # No longer the best day is not "unavailable".
    assert ("saturday", "unavailable") not in days(
        "u: saturdays were always best for us, it's sundays now"
    )
    assert days("u: Tuesdays used to be our favourite.") == set()


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # An idiom with "no" in it that says yes.
        ("u: Thursday's a no-brainer for me, I'm home all day.", {("thursday", "available")}),
        ("u: Saturdays are no worries at all.", {("saturday", "available")}),
        ("u: wednesdays no hassle", {("wednesday", "available")}),
        # "Anything but <day>": the day is the exception, the predicate is said of the rest.
        ("u: Any day but a Tuesday is fine by me.", {("tuesday", "unavailable")}),
        ("u: anything but friday works", {("friday", "unavailable")}),
        # ...unlike a universal with its own predicate before "but".
        ("u: Every day is hectic but Sunday is fine.", {("sunday", "available")}),
    ],
)
def test_idioms_and_exceptions(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "u: would friday work at all",
        "u: is a monday any good",
        "u: are tuesdays possible for you lot",
    ],
)
def test_a_question_without_its_mark_states_nothing(conversation: str) -> None:
    assert typed(conversation) == set()


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The agent reads one day back and asks about another: "no" answers the one asked.
        (
            "u: Mondays suit me. | a: Mondays suit you. Are Wednesdays good too? | u: no",
            {("monday", "available"), ("wednesday", "unavailable")},
        ),
        (
            "u: fridays are fine | a: Fridays are fine — and Saturdays as well? | "
            "u: no saturdays i do the football",
            {("friday", "available"), ("saturday", "unavailable")},
        ),
        # Two days asked, the answer names one of them: it answers for that one only.
        (
            "u: hello | a: Are Tuesdays or Thursdays any good? | u: no thursdays im on shift",
            {("thursday", "unavailable")},
        ),
    ],
)
def test_an_answer_is_about_the_days_asked(
    conversation: str, expected: set[tuple[str | None, str]]
) -> None:
    assert days(conversation) == expected
