"""A deterministic stand-in for the LLM, used by the playground, the tests and the e2e suite.

It reads the conversation the way the real model would (instructions, caller turns, tool
results) and picks the next move with plain rules, so a whole call can run with no keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

_RECALLED_LINE = re.compile(r"^- (.+?)(?: \((?:said|noted|recorded) [^)]*\))?$", re.MULTILINE)
_DAY = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|\d{4}-\d{2}-\d{2})\b",
    re.IGNORECASE,
)
_BOOK = re.compile(r"\b(book|come in|visit|appointment|schedule)\b", re.IGNORECASE)
_CANCEL = re.compile(r"\b(cancel|call off)\b", re.IGNORECASE)
_ASKED = re.compile(r"confirm out loud: (.+?\?)")
_AGAIN = re.compile(r"Now call (\w+) again")
_YES = re.compile(r"\b(yes|yeah|yep|correct|sure|please do|go ahead)\b", re.IGNORECASE)
_OPEN_DAYS = re.compile(r"\b(open days|available|availability|free days)\b", re.IGNORECASE)
_NOTE = re.compile(r"\b(?:remember that|please note|note that)\s+(.+)", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    """One conversation item, independent of LiveKit's or OpenAI's message types."""

    kind: Literal["message", "call", "output"]
    role: str = ""
    text: str = ""
    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Say:
    text: str


@dataclass(frozen=True)
class CallTool:
    name: str
    arguments: dict[str, Any]


def recalled_lines(instructions: str) -> list[str]:
    start = instructions.find("[RECALLED DATA")
    if start < 0:
        return []
    block = instructions[start : instructions.find("[END RECALLED DATA]", start)]
    return [m.group(1).strip() for m in _RECALLED_LINE.finditer(block)]


_GATED = ("book_visit", "cancel_visit")


def _last_day_requested(entries: list[Entry]) -> str | None:
    for entry in reversed(entries):
        if entry.kind == "call" and entry.name in _GATED:
            return str(entry.arguments.get("day"))
    return None


def next_move(entries: list[Entry]) -> Say | CallTool:
    """The scripted model's decision for the next assistant step."""
    system = [e.text for e in entries if e.kind == "message" and e.role == "system"]
    instructions = system[0] if system else ""
    # Turn-local context arrives as extra system messages after the caller's turn.
    conversation = [e for e in entries if not (e.kind == "message" and e.role == "system")]
    last = conversation[-1] if conversation else Entry("message", "system")
    if last.kind == "output":
        if last.name == "confirm_visit_details" and (again := _AGAIN.search(last.text)):
            day = _last_day_requested(entries)
            if day:
                return CallTool(again.group(1), {"day": day})
        if asked := _ASKED.search(last.text):
            # The read-back the caller hears: the question the tool asked us to put.
            return Say(f"Just to confirm: {asked.group(1)}")
        return Say(last.text)
    if last.kind == "message" and last.role == "user":
        text = last.text
        if note := _NOTE.search(text):
            return CallTool("note_caller_detail", {"detail": note.group(1).strip(" .")})
        if _OPEN_DAYS.search(text):
            return CallTool("list_open_days", {})
        if (day := _DAY.search(text)) and _CANCEL.search(text):
            return CallTool("cancel_visit", {"day": day.group(1).lower()})
        if (day := _DAY.search(text)) and _BOOK.search(text):
            return CallTool("book_visit", {"day": day.group(1).lower()})
        if _YES.search(text) and _last_day_requested(entries):
            return CallTool("confirm_visit_details", {})
        return Say("I can help you book a service visit. Which day suits you?")
    # No caller turn yet: the greeting.
    known = recalled_lines(instructions)
    if known:
        return Say(f"Welcome back. I have on file: {known[0]}. How can I help today?")
    return Say("Hello, this is the service line. How can I help today?")
