"""What the caller's history says against a visit on one day: the caution a read-back speaks
first ("You told us on 3 December that Thursdays no longer work for you").
"""

from __future__ import annotations

import re
from datetime import date

from contextdb_livekit.api import (
    CallReader,
    Memory,
    is_current,
    is_procedure_note,
    neutralise,
)
from memory.equipment import EQUIPMENT
from memory.facts import _QUOTE_PREFIX, _weekday_title, fact_kind, observed_on, plain_text


def is_negative_availability(memory: Memory, weekday: str) -> bool:
    return (
        fact_kind(memory) == "availability"
        and memory.attribute_key == weekday
        and "do not work" in memory.content
    )


def exclusive_preference(memory: Memory) -> str | None:
    """The only weekday that works, when the caller said "only Fridays"."""
    if fact_kind(memory) != "preferred_day":
        return None
    match = re.match(r"Only (\w+)s work for the caller", memory.content)
    return match.group(1).lower() if match else None


def conflict_reason(memories: list[Memory], day: date) -> str | None:
    """Why a request for `day` goes against what the caller told us before, if it does.

    A sentence the host speaks to the caller in the read-back; None when nothing on file
    contradicts it. The newest word about the day wins: a later "Thursdays work" clears an
    older "never Thursdays", "only Fridays" or note. A note the extractor could not type
    ("Thursdays are a write-off for her, hospital visits") still cautions, quoted, when it
    names the day with a negative or exclusive word: a caution survives a missed rule.
    """
    weekday = day.strftime("%A").lower()
    title = _weekday_title(weekday)
    # Newest first; on the same day, words that may caution come before typed facts (memory
    # keeps no time of day): a caution read back for nothing costs a sentence, a missed one
    # a wasted visit.
    for memory in sorted(
        (m for m in memories if is_current(m)),
        key=lambda m: (observed_on(m) or date.min, fact_kind(m) in ("note", "quote")),
        reverse=True,
    ):
        when = observed_on(memory)
        said = f" on {when.day} {when.strftime('%B')}" if when else ""
        kind = fact_kind(memory)
        if kind == "availability" and memory.attribute_key == weekday:
            if is_negative_availability(memory, weekday):
                return f"You told us{said} that {title}s no longer work for you."
            return None
        only = exclusive_preference(memory)
        if only is not None:
            if only == weekday:
                return None
            return f"You told us{said} that only {_weekday_title(only)}s work for you."
        if kind in ("note", "quote") and not memory.injection_suspect:
            caution = note_caution(plain_text(memory), weekday)
            if caution is True and kind == "quote":
                words = plain_text(memory).removeprefix(_QUOTE_PREFIX).strip('"')
                return f"You told us{said}: {_quoted(words)}."
            if caution is True:
                when_noted = f" from {when.day} {when.strftime('%B')}" if when else ""
                return f"Our notes{when_noted} say: {_quoted(plain_text(memory))}."
            if caution is False:
                return None
    return None


_CAUTION_WORDS = re.compile(
    r"\b(?:not|never|no|nobody|cannot|can't|won't|don't|doesn't|isn't|aren't|unable|"
    r"unavailable|except|apart from|other than|avoid|busy|away|out|impossible|problem|"
    r"difficult|awkward|bad|no good|no longer|any ?more|clash|conflict|rules? out|ruled out|"
    r"at work|working|shifts?|hospital|dialysis|appointment|college|school|church|gym|"
    r"write[- ]off|no[- ]go|non[- ]starter|off limits|instead)\b"
)
_EXCLUSIVE_WORDS = re.compile(r"\b(?:only|just|exclusively|solely)\b")
_NOTE_DAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b")


def note_caution(text: str, weekday: str) -> bool | None:
    """Whether a free note speaks against a visit on `weekday`: True (a negative or an
    exclusive preference for another day), False (it says the day works), None (silent).

    The rule reader is asked first; where it types nothing, any caution word in a note that
    names the day is enough — a caution read back for nothing costs one sentence, a missed
    one costs a wasted visit. Notes that try to change how calls are handled are never read
    back (`contextdb_livekit.memory.instructions_screen`).
    """
    if is_procedure_note(text):
        return None
    lowered = text.casefold()
    days = {m.group(1) for m in _NOTE_DAY.finditer(lowered)}
    if not days:
        return None
    said = CallReader(EQUIPMENT).read(text)
    for statement in reversed(said):
        if statement.kind == "availability" and statement.key == weekday:
            return statement.negative
        if statement.kind == "preferred_day" and statement.value.endswith(" only"):
            return statement.value.removesuffix(" only") != weekday
    if weekday in days and _CAUTION_WORDS.search(lowered):
        return True
    if weekday not in days and _EXCLUSIVE_WORDS.search(lowered):
        return True
    return None


def _quoted(text: str, limit: int = 140) -> str:
    clean = neutralise(text).rstrip(" .")
    if len(clean) <= limit:
        return clean
    return clean[:limit].rsplit(" ", 1)[0] + " …"
