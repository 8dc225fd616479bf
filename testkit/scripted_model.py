"""Deterministic stand-ins for the LLM, used by the playground, the tests and the e2e suite.

Each reads the conversation the way a real model would (instructions, caller turns, tool
results) and picks the next move with plain rules, so a whole call can run with no keys.
Three temperaments, because a guarantee that holds only for a well-behaved model is none:

- `next_move`: the obedient model, which follows the tools' instructions;
- `sloppy_move`: calls tools at the wrong moment, in parallel and twice, chains them within
  one turn and talks over the host;
- `memory_obeying_move`: does whatever recalled memory says ("skip confirmation", "treat
  any reply as yes") and writes its own questions naming the day.

Which gated tool a caller's words ask for, and with what argument, is the `INTENTS` table:
one `Intent` per gated tool, first match wins.
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
_YES = re.compile(r"\b(yes|yeah|yep|correct|sure|please do|go ahead)\b", re.IGNORECASE)
_OPEN_DAYS = re.compile(r"\b(open days|available|availability|free days)\b", re.IGNORECASE)
_GOODBYE = re.compile(
    r"\b(?:that's all|that is all|that's everything|nothing else|bye|goodbye)\b", re.IGNORECASE
)
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


@dataclass(frozen=True)
class Intent:
    """A caller turn matching `trigger` and naming a `value` asks for `tool(argument=value)`."""

    tool: str
    trigger: re.Pattern[str]
    argument: str
    value: re.Pattern[str]

    def call(self, text: str) -> CallTool | None:
        named = self.value.search(text)
        if named is None or not self.trigger.search(text):
            return None
        return CallTool(self.tool, {self.argument: named.group(1).lower()})


INTENTS: list[Intent] = [
    Intent("cancel_visit", re.compile(r"\b(cancel|call off)\b", re.IGNORECASE), "day", _DAY),
    Intent(
        "book_visit",
        re.compile(r"\b(book|come in|visit|appointment|schedule)\b", re.IGNORECASE),
        "day",
        _DAY,
    ),
]


def _gated(name: str) -> Intent | None:
    return next((i for i in INTENTS if i.tool == name), None)


def _last_request(entries: list[Entry]) -> CallTool | None:
    """The last gated tool call the model made (what a confirmation confirms)."""
    for entry in reversed(entries):
        if entry.kind == "call" and (intent := _gated(entry.name)) is not None:
            return CallTool(entry.name, {intent.argument: entry.arguments.get(intent.argument)})
    return None


def _last_day_requested(entries: list[Entry]) -> str | None:
    last = _last_request(entries)
    return None if last is None else str(next(iter(last.arguments.values())))


def next_move(entries: list[Entry]) -> Say | CallTool:
    """The scripted model's decision for the next assistant step."""
    system = [e.text for e in entries if e.kind == "message" and e.role == "system"]
    instructions = system[0] if system else ""
    # Turn-local context arrives as extra system messages after the caller's turn.
    conversation = [e for e in entries if not (e.kind == "message" and e.role == "system")]
    last = conversation[-1] if conversation else Entry("message", "system")
    if last.kind == "output":
        return Say(last.text)
    if last.kind == "message" and last.role == "user":
        text = last.text
        if _answers_review(conversation):
            return Say("Thank you, goodbye.")
        if _GOODBYE.search(text) and not _called(entries, "review_caller_details"):
            return CallTool("review_caller_details", {})
        if note := _NOTE.search(text):
            return CallTool("note_caller_detail", {"detail": note.group(1).strip(" .")})
        if _OPEN_DAYS.search(text):
            return CallTool("list_open_days", {})
        if (wanted := _wants_action(text)) is not None:
            return wanted
        if _YES.search(text) and _last_day_requested(entries):
            return CallTool("confirm_read_back", {})
        return Say("I can help you book a service visit. Which day suits you?")
    # No caller turn yet: the greeting.
    known = recalled_lines(instructions)
    if known:
        return Say(f"Welcome back. I have on file: {known[0]}. How can I help today?")
    return Say("Hello, this is the service line. How can I help today?")


def _called(entries: list[Entry], name: str) -> bool:
    return any(e.kind == "call" and e.name == name for e in entries)


def _answers_review(conversation: list[Entry]) -> bool:
    """The caller's turn answers the host's review read-back ("Before you go, I'll note ...")."""
    before = [e for e in conversation[:-1] if e.kind == "message"]
    return (
        bool(before)
        and before[-1].role == "assistant"
        and before[-1].text.startswith("Before you go")
    )


def _wants_action(text: str) -> CallTool | None:
    return next((c for i in INTENTS if (c := i.call(text)) is not None), None)


def sloppy_move(entries: list[Entry]) -> Say | CallTool | list[CallTool]:
    """Calls tools at the wrong moment: the action and the confirmation in one parallel turn,
    the confirmation twice on any caller turn after a request, the action again after a
    result, and speaks after every tool result."""
    conversation = [e for e in entries if not (e.kind == "message" and e.role == "system")]
    last = conversation[-1] if conversation else Entry("message", "system")
    confirm = CallTool("confirm_read_back", {})
    if last.kind == "output":
        if last.name == "confirm_read_back" and (again := _last_request(entries)):
            calls = [e for e in entries if e.kind == "call"]
            if calls[-1].name == "confirm_read_back":  # once: then it talks
                return again
        return Say(f"Sure! {last.text}")
    if last.kind == "message" and last.role == "user":
        review = CallTool("review_caller_details", {})
        if _GOODBYE.search(last.text) or _answers_review(conversation):
            # The review at the goodbye, twice in parallel, and again after the answer.
            return [review, review]
        if (wanted := _wants_action(last.text)) is not None:
            return [wanted, confirm]
        if _last_day_requested(entries):
            return [confirm, confirm]
        if len([e for e in conversation if e.kind == "message" and e.role == "user"]) == 1:
            return [review]  # the review before the caller has said anything worth noting
    return next_move(entries)


_PROCEDURE = re.compile(
    r"\b(skip|no need|without|don't need|do not need|any reply|pre-?approved|always yes)\b",
    re.IGNORECASE,
)


def memory_obeying_move(entries: list[Entry]) -> Say | CallTool | list[CallTool]:
    """Obeys recalled notes. When one says to skip the read-back, it confirms on its own and
    asks its own question naming the day, hoping the caller's yes to it counts."""
    system = [e.text for e in entries if e.kind == "message" and e.role == "system"]
    compromised = any(_PROCEDURE.search(line) for text in system for line in recalled_lines(text))
    compromised = compromised or any(
        _PROCEDURE.search(e.text) for e in entries if e.kind == "message" and e.role == "system"
    )
    if not compromised:
        return next_move(entries)
    conversation = [e for e in entries if not (e.kind == "message" and e.role == "system")]
    last = conversation[-1] if conversation else Entry("message", "system")
    day = _last_day_requested(entries)
    if last.kind == "message" and last.role == "user" and _GOODBYE.search(last.text):
        # Skips the host's review and asks its own question, hoping the yes confirms it.
        return Say("I've noted everything you told me today. Is that right?")
    if last.kind == "message" and last.role == "user":
        if (wanted := _wants_action(last.text)) is not None:
            return [wanted, CallTool("confirm_read_back", {})]
        if day is not None:
            asked_own = any(
                e.kind == "message" and e.role == "assistant" and "reach you" in e.text
                for e in conversation
            )
            if not asked_own:
                return Say(
                    f"Can I just check, is {day} still a good day to reach you on this number?"
                )
            return CallTool("confirm_read_back", {})
    if last.kind == "output" and _gated(last.name) is not None and day is not None:
        return CallTool("confirm_read_back", {})
    return next_move(entries)


MODELS = {"obedient": next_move, "sloppy": sloppy_move, "memory_obeying": memory_obeying_move}
