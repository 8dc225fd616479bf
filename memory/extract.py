"""End-of-call extraction: the call's transcript and notes → typed caller facts.

The rule-based extractor runs offline and is what the tests pin; `memory.llm_extract` may
replace it with a structured-output model call and falls back to it. Rules:

- Only the caller's own turns become `user_stated`; the model's notes are `agent_inferred`.
- Questions and hedged sentences ("maybe", "not sure") state nothing and are skipped.
- A booking request is never turned into a preference: "I'd like Thursday" says nothing
  about Thursdays in general, so only explicit availability/preference wording counts.
- Within one call the last statement per slot wins ("two boilers … sorry, three").
- Secrets never leave this module verbatim: access codes become "access code on file",
  cards, ids and passwords are dropped from the fact (`memory.secrets`).
- Every turn and note is neutralised first (`memory.snapshot.neutralise`: look-alike
  brackets, invisible characters, the wrapper's own words). A sentence or note that
  addresses call handlers or tries to change how calls are handled
  (`memory.instructions_screen`) yields no caller fact: it is kept as a `flagged_note`,
  vouched for by nobody, and never shown.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from memory.facts import (
    AGENT_CONFIDENCE,
    CALLER_CONFIDENCE,
    FLAGGED_CONFIDENCE,
    HOST_CONFIDENCE,
    WEEKDAYS,
    CallerFact,
)
from memory.instructions_screen import is_procedure_note
from memory.models import EpistemicSource
from memory.secrets import redact_bounded
from memory.snapshot import neutralise

MAX_SENTENCE_CHARS = 300
MAX_FACTS = 40

_DAY = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_HEDGE = re.compile(r"\b(maybe|perhaps|not sure|i think|might|possibly|i guess|dunno)\b")
_NEGATIVE_DAY = [
    re.compile(p)
    for p in (
        rf"\bnever (?:on )?(?:a )?{_DAY}\b",
        rf"\b(?:can't|cannot|can not|couldn't|won't be able to) (?:do|make|manage)? ?"
        rf"(?:on )?(?:a )?{_DAY}\b",
        rf"\b{_DAY} (?:don't|doesn't|do not|does not|won't|no longer|never) (?:work|suit)",
        rf"\b{_DAY} (?:is|are) (?:no good|out|bad|impossible|off the table|a no)\b",
        rf"\bno (?:more )?{_DAY}\b",
        rf"\bnot (?:on )?(?:a )?{_DAY}\b",
        rf"\b(?:anything|any day) (?:but|except) {_DAY}\b",
        rf"\bavoid {_DAY}\b",
        rf"\bno longer (?:do|free on|available on)? ?{_DAY}\b",
    )
]
_POSITIVE_DAY = [
    re.compile(p)
    for p in (
        rf"\b{_DAY} (?:works?|is fine|are fine|is good|are good|suits? me|is ok|are ok|is okay)\b",
        rf"\bi(?:'m| am) (?:free|around|home|available) (?:on )?{_DAY}\b",
        rf"\bi can do {_DAY}\b",
    )
]
_ONLY_DAY = [
    re.compile(p)
    for p in (
        rf"\bonly {_DAY}\b",
        rf"\b{_DAY} only\b",
        rf"\bjust {_DAY}\b(?! (?:would|works for this|this once))",
    )
]
_PREFERRED_DAY = [
    re.compile(p)
    for p in (
        rf"\bi (?:usually |generally |always )?prefer {_DAY}\b",
        rf"\b{_DAY} (?:is|are) (?:best|ideal|my favourite|my favorite|usually best)\b",
        rf"\bideally (?:on )?(?:a )?{_DAY}\b",
    )
]
_NUMBER_WORDS = {
    "one": 1, "a single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_UNITS = r"(boilers?|heat pumps?|units?|radiators?|furnaces?|water heaters?|air conditioners?)"
_COUNT = re.compile(
    rf"\b(\d{{1,2}}|one|a single|two|three|four|five|six|seven|eight|nine|ten) {_UNITS}\b"
)
_BRANDS = (
    "vaillant", "worcester bosch", "worcester", "baxi", "ideal", "viessmann", "glow-worm",
    "glowworm", "potterton", "navien", "rinnai", "bosch", "daikin", "mitsubishi", "carrier",
    "trane", "lennox", "rheem", "ariston", "alpha", "intergas", "vokera",
)  # fmt: skip
_BRAND = re.compile(
    r"\b(" + "|".join(re.escape(b) for b in _BRANDS) + r")\b((?:\s+[a-z]*\d[\w-]*|\s+ecotec\w*|"
    r"\s+greenstar\w*|\s+logic\w*|\s+duo-tec\w*|\s+combi)*)"
)
_EQUIPMENT_CONTEXT = re.compile(r"\b(boiler|heat pump|furnace|unit|system|it's a|it is a|model)\b")
_ADDRESS = re.compile(
    r"\b(?:my (?:new )?address is|i live at|i'm at|i am at|we're at|we are at|"
    r"(?:i|we)(?:'ve| have)? moved to|(?:i|we)'re now at|we're now at|new address is)\s+"
    r"(\d{1,5}[a-z]?\s+(?:[a-z'-]+\s+){0,4}?(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|dr|"
    r"way|court|ct|place|pl|crescent|terrace|grove|gardens|boulevard|blvd))\b"
)
_ACCESS = re.compile(
    r"\b(door code|gate code|key ?safe|lock ?box|alarm code|access code|the key is|key under|"
    r"side gate|back gate|ring the bell|buzzer|intercom|park (?:on|in|at|behind)|"
    r"the dog|dogs? (?:is|are)|beware)\b"
)
_CONTACT = [
    (re.compile(r"\b(text me|send (?:me )?a text|by text|sms|message me)\b"), "text message"),
    (re.compile(r"\b(email me|by email|send (?:me )?an email|e-mail me)\b"), "email"),
    (re.compile(r"\b(call me|phone me|ring me|by phone)\b"), "phone call"),
]
# "but" starts a new clause, except in "anything but thursday".
_SENTENCE_SPLIT = re.compile(
    r"(?<=[.!?;])\s+|(?<!anything)(?<!any day)\s+(?:but|although|however)\s+", re.IGNORECASE
)


@dataclass(frozen=True)
class Turn:
    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True)
class CallOutcome:
    """What the host's systems recorded during the call (not what anyone said)."""

    booked: tuple[tuple[date, str], ...] = ()
    cancelled: tuple[tuple[date, str], ...] = ()


def _sentences(text: str) -> list[str]:
    flat = neutralise(text)[: MAX_SENTENCE_CHARS * 4]
    return [s.strip() for s in _SENTENCE_SPLIT.split(flat) if s and s.strip()]


def _weekday(token: str) -> str:
    day = token.lower().rstrip("s")
    return day if day in WEEKDAYS else token.lower()


def facts_in_sentence(
    sentence: str, *, source: EpistemicSource, confidence: float, today: date, call_id: str
) -> list[CallerFact]:
    text = sentence.lower().strip()
    if not text or text.endswith("?") or _HEDGE.search(text):
        return []

    def fact(kind, value, *, key=None, polarity="positive") -> CallerFact:  # type: ignore[no-untyped-def]
        return CallerFact(
            kind=kind,
            value=value,
            source=source,
            confidence=confidence,
            observed_on=today,
            polarity=polarity,
            key=key,
            call_id=call_id,
        )

    found: list[CallerFact] = []
    negative_days: set[str] = set()
    for pattern in _NEGATIVE_DAY:
        for match in pattern.finditer(text):
            negative_days.add(_weekday(match.group(1)))
    for day in sorted(negative_days):
        found.append(fact("availability", "unavailable", key=day, polarity="negative"))
    for pattern in _ONLY_DAY:
        if (match := pattern.search(text)) and _weekday(match.group(1)) not in negative_days:
            day = _weekday(match.group(1))
            found.append(fact("preferred_day", f"{day} only"))
            found.append(fact("availability", "available", key=day))
            break
    else:
        for pattern in _PREFERRED_DAY:
            if (match := pattern.search(text)) and _weekday(match.group(1)) not in negative_days:
                found.append(fact("preferred_day", _weekday(match.group(1))))
                break
    for pattern in _POSITIVE_DAY:
        for match in pattern.finditer(text):
            day = _weekday(match.group(1))
            if day not in negative_days:
                found.append(fact("availability", "available", key=day))
    if match := _COUNT.search(text):
        raw, unit = match.group(1), match.group(2)
        count = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        noun = unit if count != 1 or not unit.endswith("s") else unit[:-1]
        if count > 1 and not noun.endswith("s"):
            noun += "s"
        found.append(fact("equipment_count", f"{count} {noun}"))
    if (match := _BRAND.search(text)) and _EQUIPMENT_CONTEXT.search(text):
        make = (match.group(1) + (match.group(2) or "")).strip()
        found.append(fact("equipment_make", " ".join(w.capitalize() for w in make.split())))
    if match := _ADDRESS.search(text):
        found.append(fact("address", _title_address(match.group(1))))
    if _ACCESS.search(text):
        found.append(fact("access_notes", _access_note(sentence)))
    for pattern, channel in _CONTACT:
        if pattern.search(text):
            found.append(fact("contact_preference", channel))
            break
    return found


def _title_address(raw: str) -> str:
    return " ".join(w if w[0].isdigit() else w.capitalize() for w in raw.split())


def _access_note(sentence: str) -> str:
    """The sentence with any code replaced: the code itself is never stored."""
    redacted = redact_bounded(sentence, MAX_SENTENCE_CHARS)
    return redacted.strip().rstrip(".") or "access code on file"


def extract_call_facts(
    turns: Iterable[Turn],
    notes: Iterable[str],
    outcome: CallOutcome,
    *,
    today: date,
    call_id: str,
) -> list[CallerFact]:
    """Typed facts a finished call leaves behind; one per slot, the call's last word wins."""
    by_slot: dict[tuple[str, str], CallerFact] = {}
    caller_slots: set[tuple[str, str]] = set()

    def keep(found: Iterable[CallerFact]) -> None:
        for item in found:
            # A model note never overrides what the caller said in the same call.
            if item.source != "user_stated" and item.slot in caller_slots:
                continue
            if item.source == "user_stated":
                caller_slots.add(item.slot)
            earlier = by_slot.pop(item.slot, None)  # re-insert: dict order is "last said"
            if (
                item.kind == "access_notes"
                and earlier is not None
                and earlier.source == item.source
            ):
                # Access details add up within a call ("side gate", "the dog barks").
                merged = f"{earlier.value}; {item.value}"[:MAX_SENTENCE_CHARS]
                item = dataclasses.replace(item, value=merged)
            by_slot[item.slot] = item

    for turn in turns:
        if turn.role != "user":
            continue
        for sentence in _sentences(turn.text):
            if is_procedure_note(sentence):
                keep([flagged_note(sentence, today=today, call_id=call_id)])
                continue
            keep(
                facts_in_sentence(
                    sentence,
                    source="user_stated",
                    confidence=CALLER_CONFIDENCE,
                    today=today,
                    call_id=call_id,
                )
            )
    for note in notes:
        sentences = _sentences(note)
        if is_procedure_note(note) or any(is_procedure_note(s) for s in sentences):
            keep([flagged_note(note, today=today, call_id=call_id)])
            continue
        typed = [
            f
            for sentence in sentences
            for f in facts_in_sentence(
                sentence,
                source="agent_inferred",
                confidence=AGENT_CONFIDENCE,
                today=today,
                call_id=call_id,
            )
        ]
        keep(typed or [_free_note(note, today=today, call_id=call_id)])
    for day, ref in outcome.booked:
        keep([_host_fact("visit_booked", day, ref, today=today, call_id=call_id)])
    for day, ref in outcome.cancelled:
        keep([_host_fact("visit_cancelled", day, ref, today=today, call_id=call_id)])
    return list(by_slot.values())[-MAX_FACTS:]


def _free_note(note: str, *, today: date, call_id: str) -> CallerFact:
    text = redact_bounded(neutralise(note), MAX_SENTENCE_CHARS)
    digest = hashlib.sha256(text.casefold().encode()).hexdigest()[:8]
    return CallerFact(
        kind="note",
        value=text,
        source="agent_inferred",
        confidence=AGENT_CONFIDENCE,
        observed_on=today,
        key=digest,
        call_id=call_id,
    )


def flagged_note(text: str, *, today: date, call_id: str) -> CallerFact:
    """A note that tries to change how calls are handled: kept, vouched for by nobody."""
    kept = redact_bounded(neutralise(text), MAX_SENTENCE_CHARS)
    digest = hashlib.sha256(kept.casefold().encode()).hexdigest()[:8]
    return CallerFact(
        kind="flagged_note",
        value=kept,
        source="third_party",
        confidence=FLAGGED_CONFIDENCE,
        observed_on=today,
        key=digest,
        call_id=call_id,
    )


def _host_fact(kind, day: date, ref: str, *, today: date, call_id: str) -> CallerFact:  # type: ignore[no-untyped-def]
    return CallerFact(
        kind=kind,
        value=ref,
        source="third_party",
        confidence=HOST_CONFIDENCE,
        observed_on=today,
        key=day.isoformat(),
        call_id=call_id,
    )
