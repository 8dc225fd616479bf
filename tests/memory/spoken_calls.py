"""A call written as "u: ... | a: ... | u: ..." through the end-of-call extraction, for the
precision rounds' tests."""

from __future__ import annotations

from datetime import date

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
    """The typed facts only: no quotes, notes or the caller's words under a topic."""
    return {
        (f.kind, f.key, f.value)
        for f in facts(conversation)
        if f.kind not in ("quote", "note") and f.kind not in TOPICS
    }


def days(conversation: str) -> set[tuple[str | None, str]]:
    return {(key, value) for kind, key, value in typed(conversation) if kind == "availability"}


def of_kind(conversation: str, kind: str) -> set[tuple[str | None, str]]:
    return {(key, value) for k, key, value in typed(conversation) if k == kind}


def quoted(conversation: str) -> bool:
    return any(f.kind == "quote" for f in facts(conversation))
