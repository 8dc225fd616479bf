"""What a caller's history says against a visit on one day: the caution a read-back speaks first
("You told us on 3 December that Thursdays no longer work for you").

The newest word about the day wins: a later "Thursdays work" clears an older "never
Thursdays", "only Fridays" or note. A note the extractor could not type ("Thursdays are a
write-off for her, hospital visits") still cautions, quoted, when it names the day with a
negative or exclusive word: a caution read back for nothing costs a sentence, a missed one a
wasted trip.
"""

from __future__ import annotations

import re
from datetime import date

from contextdb_livekit.facts.kinds import QUOTE_PREFIX, FactKinds, K
from contextdb_livekit.facts.stamps import observed_on, plain_text
from contextdb_livekit.memory.instructions_screen import is_procedure_note
from contextdb_livekit.memory.models import Memory, is_current
from contextdb_livekit.memory.safe_text import neutralise
from contextdb_livekit.reading.equipment import Equipment
from contextdb_livekit.reading.reader import CallReader


def says_day_does_not_work(kinds: FactKinds[K], memory: Memory, weekday: str) -> bool:
    """A stored fact of a weekday kind saying `weekday` does not work."""
    kind = kinds.kind_of(memory)
    says_no = kinds.spec(kind).says_no if kind is not None else None
    return says_no is not None and memory.attribute_key == weekday and says_no in memory.content


def only_day(kinds: FactKinds[K], memory: Memory) -> str | None:
    """The only weekday that works, when the caller said "only Fridays"."""
    kind = kinds.kind_of(memory)
    pattern = kinds.spec(kind).only_day if kind is not None else None
    match = pattern.match(memory.content) if pattern is not None else None
    return match.group(1).lower() if match else None


def day_caution(
    kinds: FactKinds[K], memories: list[Memory], day: date, equipment: Equipment
) -> str | None:
    """Why a request for `day` goes against what the caller told us before, if it does: a
    sentence the host speaks in the read-back; None when nothing on file contradicts it."""
    weekday = day.strftime("%A").lower()
    # Newest first; on the same day, words that may caution come before typed facts (memory
    # keeps no time of day): a caution read back for nothing costs a sentence, a missed one
    # a wasted trip. Then a fact about the day itself before one about the days in general
    # ("Wednesdays do not work" before "only Fridays"), so the caution never depends on the
    # order recall returned them in.
    for memory in sorted(
        (m for m in memories if is_current(m)),
        key=lambda m: (
            observed_on(m) or date.min,
            _words(kinds, m) in ("note", "quote"),
            m.attribute_key == weekday,
        ),
        reverse=True,
    ):
        when = observed_on(memory)
        said = f" on {when.day} {when.strftime('%B')}" if when else ""
        kind = kinds.kind_of(memory)
        spec = kinds.spec(kind) if kind is not None else None
        if spec is not None and spec.says_no is not None and memory.attribute_key == weekday:
            if says_day_does_not_work(kinds, memory, weekday):
                return f"You told us{said} that {weekday.capitalize()}s no longer work for you."
            return None
        only = only_day(kinds, memory)
        if only is not None:
            if only == weekday:
                return None
            return f"You told us{said} that only {only.capitalize()}s work for you."
        words = _words(kinds, memory)
        if words in ("note", "quote") and not memory.injection_suspect:
            caution = note_caution(plain_text(memory), weekday, equipment)
            if caution is True and words == "quote":
                quoted = plain_text(memory).removeprefix(QUOTE_PREFIX).strip('"')
                return f"You told us{said}: {_quoted(quoted)}."
            if caution is True:
                when_noted = f" from {when.day} {when.strftime('%B')}" if when else ""
                return f"Our notes{when_noted} say: {_quoted(plain_text(memory))}."
            if caution is False:
                return None
    return None


def _words(kinds: FactKinds[K], memory: Memory) -> str | None:
    kind = kinds.kind_of(memory)
    return kinds.spec(kind).words if kind is not None else None


_CAUTION_WORDS = re.compile(
    r"\b(?:not|never|no|nobody|cannot|can't|won't|don't|doesn't|isn't|aren't|unable|"
    r"unavailable|except|apart from|other than|avoid|busy|away|out|impossible|problem|"
    r"difficult|awkward|bad|no good|no longer|any ?more|clash|conflict|rules? out|ruled out|"
    r"at work|working|shifts?|hospital|dialysis|appointment|college|school|church|gym|"
    r"write[- ]off|no[- ]go|non[- ]starter|off limits|instead)\b"
)
_EXCLUSIVE_WORDS = re.compile(r"\b(?:only|just|exclusively|solely)\b")
_NOTE_DAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b")


def note_caution(text: str, weekday: str, equipment: Equipment) -> bool | None:
    """Whether a free note speaks against `weekday`: True (a negative, or an exclusive
    preference for another day), False (it says the day works), None (silent).

    The rule reader is asked first; where it types nothing, any caution word in a note that
    names the day is enough. Notes that try to change how calls are handled are never read
    back (`memory.instructions_screen`).
    """
    if is_procedure_note(text):
        return None
    lowered = text.casefold()
    days = {m.group(1) for m in _NOTE_DAY.finditer(lowered)}
    if not days:
        return None
    said = CallReader(equipment).read(text)
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
