"""The caller-fact model: what a caller told us, as typed facts with one slot each.

Every write the worker makes and every read it renders goes through this module, on both
backends. The engine's own regex slotter is never relied on: each fact names its slot
explicitly, and its text is worded so the slotter cannot move it elsewhere.

- One slot per attribute (per weekday for availability). A newer fact in a slot supersedes
  the older one through the engine's own supersession, so an old value is never current.
- Polarity is part of the value: "never Thursday" is `availability/thursday = unavailable`
  and replaces an older "Thursday works".
- The observed date travels in the text (the Cloud contract returns no timestamps), so the
  snapshot can order facts newest first and say when each was said.
- A request for a consequential action belongs to the call that made it (a `request` slot
  keyed by action, date and call): a request is never a standing preference, and one yes
  authorises one action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal, cast, get_args

from contextdb_livekit.api import (
    REQUEST_ENTITY,
    EpistemicSource,
    FactToRemember,
    Memory,
)
from memory.equipment import EQUIPMENT

# What a caller can tell us (the only kinds a model extractor may propose).
StatedKind = Literal[
    "availability",
    "preferred_day",
    "address",
    "equipment_make",
    "equipment_count",
    "access_notes",
    "contact_preference",
    # What is installed, and where the engineer finds the meter.
    "boiler_type",
    "meter_location",
    # Where the visit goes and who opens the door.
    "floor",
    "flat",
    "parking",
    "pets",
    "who_home",
]
FactKind = Literal[
    StatedKind,
    "visit_booked",
    "visit_cancelled",
    "note",
    # The caller's own words, kept because what they say was not confirmed (or the reader
    # was not sure of it): shown quoted, never as a fact, still read back as a caution.
    "quote",
    # A note that addresses call handlers or tries to change how calls are handled
    # (`memory.instructions_screen`): kept for the record, never shown as a caller fact.
    "flagged_note",
]
Polarity = Literal["positive", "negative"]


def stated_kind(kind: str) -> StatedKind:
    """A kind the reader typed, checked against what a caller can tell this line."""
    if kind not in get_args(StatedKind):
        raise ValueError(f"the reader typed a kind this line does not have: {kind!r}")
    return cast(StatedKind, kind)


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Who vouches, and how much: the write policy in one table (tests pin every row).
# A flagged note vouches for nothing (the engine's own injection screen does the same).
# The caller's own words are first-party but never authorise anything by themselves: the
# only actionable evidence is a visit request confirmed out loud in this call.
CALLER_CONFIDENCE = 0.9
AGENT_CONFIDENCE = 0.6
HOST_CONFIDENCE = 0.95
FLAGGED_CONFIDENCE = 0.0
# A change the caller confirmed to the host's own read-back (`tools.review`).
CONFIRMED_CONFIDENCE = 0.95
# The caller's words, kept as said: not a fact until confirmed.
UNCONFIRMED_CONFIDENCE = 0.5

_SOURCE_VERB: dict[str, str] = {
    "user_stated": "said",
    "agent_inferred": "noted",
    "third_party": "recorded",
}
_STAMP = re.compile(r"\s*\((said|confirmed|noted|recorded) (\d{4}-\d{2}-\d{2})\)\s*$")


@dataclass(frozen=True)
class CallerFact:
    """One thing we know about a caller, with who vouches for it and when."""

    kind: FactKind
    value: str
    source: EpistemicSource
    confidence: float
    observed_on: date
    polarity: Polarity = "positive"
    # availability: the weekday; equipment_count: the thing counted (derived from the value
    # when not given); visit_*: the ISO date; note: its digest.
    key: str | None = None
    call_id: str = ""
    # The caller's own sentence that stated it (redacted, bounded): kept as a quote when the
    # fact is not confirmed.
    said: str = ""

    def __post_init__(self) -> None:
        if not self.value.strip():
            raise ValueError("fact value must not be empty")
        if self.kind == "availability" and self.key not in WEEKDAYS:
            raise ValueError("availability needs a weekday key")
        if self.kind == "equipment_count":
            # Counts are per thing counted: "two boilers and five radiators" is two facts.
            object.__setattr__(self, "key", counted_thing(self.key or self.value))
        if self.kind in ("visit_booked", "visit_cancelled"):
            date.fromisoformat(self.key or "")
        if self.kind in ("note", "quote", "flagged_note") and not self.key:
            raise ValueError("a note needs a key")

    @property
    def slot(self) -> tuple[str, str]:
        if self.kind == "availability":
            return ("availability", str(self.key))
        if self.kind == "equipment_count":
            return ("equipment", f"count_{str(self.key).replace(' ', '_')}")
        if self.kind in ("visit_booked", "visit_cancelled"):
            return ("visit", f"on_{str(self.key).replace('-', '_')}")
        if self.kind == "note":
            # Free notes never replace each other: one slot per note text.
            return ("caller", f"note_{self.key}")
        if self.kind == "quote":
            return ("caller", f"quote_{self.key}")
        if self.kind == "flagged_note":
            return ("flagged", f"note_{self.key}")
        return _FIXED_SLOTS[self.kind]

    @property
    def sentence(self) -> str:
        """The fact as one plain sentence (no wish verbs, no 'appointment': see module doc)."""
        return _SENTENCES[self.kind](self)

    def to_write(self) -> FactToRemember:
        entity, attribute = self.slot
        verb = _SOURCE_VERB[self.source]
        if self.source == "user_stated" and self.confidence >= CONFIRMED_CONFIDENCE:
            verb = "confirmed"  # to the host's own read-back (`tools.review`)
        stamp = f" ({verb} {self.observed_on.isoformat()})"
        return FactToRemember(
            content=self.sentence + stamp,
            source=self.source,
            confidence=self.confidence,
            # Only a request (kit.request_slots) can gate an action; every caller fact is context.
            action_relevant=False,
            entity=entity,
            attribute=attribute,
        )


def counted_thing(text: str) -> str:
    """The one name of what a count counts ("5 rads" → "radiator")."""
    return EQUIPMENT.counted_thing(text)


def _weekday_title(value: str) -> str:
    return value.capitalize()


def _day_text(iso: str | None) -> str:
    day = date.fromisoformat(str(iso))
    return f"{day.strftime('%A')} {day.isoformat()}"


_FIXED_SLOTS: dict[FactKind, tuple[str, str]] = {
    "preferred_day": ("caller", "visit_day_preference"),
    "address": ("user", "address"),
    "equipment_make": ("equipment", "make"),
    "boiler_type": ("equipment", "boiler_type"),
    "meter_location": ("premises", "meter_location"),
    "access_notes": ("premises", "access"),
    "contact_preference": ("caller", "contact_channel"),
    "floor": ("premises", "floor"),
    "flat": ("premises", "flat_number"),
    "parking": ("premises", "parking"),
    "pets": ("premises", "pets"),
    "who_home": ("premises", "who_is_home"),
}

# Where the kinds whose slot depends on the fact live: entity and attribute prefix.
_SLOT_PREFIXES: dict[FactKind, tuple[str, str]] = {
    "availability": ("availability", ""),
    "equipment_count": ("equipment", "count_"),
    "visit_booked": ("visit", "on_"),
    "visit_cancelled": ("visit", "on_"),
    "note": ("caller", "note_"),
    "quote": ("caller", "quote_"),
    "flagged_note": ("flagged", "note_"),
}


def kind_slot_prefix(kind: FactKind) -> tuple[str, str]:
    """The entity and attribute prefix every fact of `kind` is stored under (retention
    rules match stored memories by it)."""
    return _FIXED_SLOTS.get(kind) or _SLOT_PREFIXES[kind]


_QUOTE_PREFIX = "The caller's own words, not confirmed: "
# Kinds whose value is the caller's own sentence, kept under its topic and shown as their
# words, never as a fact the host asserts ("we had a dog but he died" is not "Pets: a dog").
# A newer sentence on the topic supersedes the older one like any slot.
TOPICS: dict[FactKind, str] = {
    "meter_location": "Where the meter is",
    "access_notes": "Getting in",
    "parking": "Parking",
    "pets": "Pets",
    "who_home": "Who is home for visits",
}

_SENTENCES = {
    "availability": lambda f: (
        f"{_weekday_title(str(f.key))}s work for the caller"
        if f.polarity == "positive"
        else f"{_weekday_title(str(f.key))}s do not work for the caller"
    ),
    "preferred_day": lambda f: (
        f"Only {_weekday_title(f.value.removesuffix(' only'))}s work for the caller"
        if f.value.endswith(" only")
        else f"Caller favours {_weekday_title(f.value)} visits"
    ),
    "address": lambda f: f"Caller's address: {f.value}",
    "equipment_make": lambda f: f"Caller's equipment: {f.value}",
    "equipment_count": lambda f: f"How many at the property: {f.value}",
    "boiler_type": lambda f: f"Boiler type: {f.value}",
    "contact_preference": lambda f: f"Contact the caller by {f.value}",
    "floor": lambda f: (
        f"The caller's home is on the {f.value}"
        if f.value != "basement"
        else "The caller's home is in the basement"
    ),
    "flat": lambda f: f"Flat or unit number: {f.value}",
    **{
        kind: (lambda f: f'{TOPICS[f.kind]}, in the caller\'s words: "{f.value}"')
        for kind in TOPICS
    },
    "note": lambda f: f.value,
    "quote": lambda f: f'{_QUOTE_PREFIX}"{f.value}"',
    "flagged_note": lambda f: f"Flagged note, not a caller fact: {f.value}",
    "visit_booked": lambda f: f"Service visit booked for {_day_text(f.key)}, reference {f.value}",
    "visit_cancelled": lambda f: (
        f"Service visit for {_day_text(f.key)} was cancelled (reference {f.value})"
    ),
}

_KIND_BY_SLOT: dict[tuple[str, str], FactKind] = {slot: kind for kind, slot in _FIXED_SLOTS.items()}


def fact_kind(memory: Memory) -> FactKind | None:
    """Which kind of caller fact a stored memory is, from its slot alone."""
    entity, attribute = memory.entity_key or "", memory.attribute_key or ""
    if entity == "availability" and attribute in WEEKDAYS:
        return "availability"
    if entity == REQUEST_ENTITY:
        return None  # a request of one call (kit.request_slots): never a preference, never shown
    if entity == "caller" and attribute.startswith("note_"):
        return "note"
    if entity == "caller" and attribute.startswith("quote_"):
        return "quote"
    if entity == "flagged" and attribute.startswith("note_"):
        return "flagged_note"
    if entity == "equipment" and attribute.startswith("count_"):
        return "equipment_count"
    if entity == "visit" and attribute.startswith("on_"):
        return "visit_cancelled" if "was cancelled" in memory.content else "visit_booked"
    return _KIND_BY_SLOT.get((entity, attribute))


# Kinds never shown: a past call's request is not a preference, and unknown
# (pre-fact-model, unslotted) text has no current value to show.
_HIDDEN: frozenset[FactKind | None] = frozenset({None})
# What a caller identified by caller ID alone may be told: when visits suit, what is
# installed, how to reach them, and their bookings. Everything else says where the home is,
# how to get in (spare key, gate and door codes, access notes) or who is there — or is free
# text (notes, quoted words) that may say so — and needs a verified caller.
_TOLD_ON_CALLER_ID: frozenset[FactKind | None] = frozenset(
    {
        "availability",
        "preferred_day",
        "equipment_make",
        "equipment_count",
        "boiler_type",
        "contact_preference",
        "visit_booked",
        "visit_cancelled",
    }
)


class CallerFactView:
    """The snapshot's reading of caller facts (memory.snapshot.FactView): typed kinds only,
    dated from the stamp in their text, flagged notes never shown."""

    def is_shown(self, memory: Memory) -> bool:
        return fact_kind(memory) not in _HIDDEN

    def is_flagged(self, memory: Memory) -> bool:
        return fact_kind(memory) == "flagged_note"

    def observed_on(self, memory: Memory) -> date | None:
        return observed_on(memory)

    def text(self, memory: Memory) -> str:
        return plain_text(memory)

    def needs_verified_caller(self, memory: Memory) -> bool:
        return fact_kind(memory) not in _TOLD_ON_CALLER_ID


CALLER_FACTS = CallerFactView()
# The call-start recall's search query, in this line's words.
SNAPSHOT_QUERY = "caller profile, availability, address, equipment, access and past visits"


def observed_on(memory: Memory) -> date | None:
    match = _STAMP.search(memory.content)
    return date.fromisoformat(match.group(2)) if match else None


def plain_text(memory: Memory) -> str:
    """The fact's sentence without its date stamp."""
    return _STAMP.sub("", memory.content).strip()
