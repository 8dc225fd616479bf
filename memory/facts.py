"""This line's caller facts: which kinds a caller can tell us, where each is stored, how it
is said, whether a caller identified by caller ID alone may be told it, how long it is kept.
The machinery (slots, date stamps, the snapshot's reading, retention) is the library's
(`contextdb_livekit.api.FactKinds`). A request for a consequential action is no kind here: it
belongs to the call that made it (`REQUEST_ENTITY`), and one yes authorises one action.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal, get_args

from contextdb_livekit.api import (
    DATE_KEY,
    WEEKDAY_KEY,
    Confidence,
    FactKinds,
    KindSpec,
    TypedFact,
    named_key,
    words_kind,
)
from contextdb_livekit.api import WEEKDAYS as WEEKDAYS
from memory.equipment import EQUIPMENT

# What a caller can tell us (the only kinds a model extractor may propose).
StatedKind = Literal[
    "availability", "preferred_day", "preferred_time", "address", "equipment_make",
    "equipment_count", "access_notes", "contact_preference", "boiler_type", "meter_location",
    "floor", "flat", "parking", "pets", "who_home",
]  # fmt: skip
# Host records, and words kept as said (the caller's unconfirmed `quote`, the agent's `note`,
# a `flagged_note` that tries to change how calls are handled: never shown as a caller fact).
FactKind = Literal[StatedKind, "visit_booked", "visit_cancelled", "note", "quote", "flagged_note"]
STATED_KINDS: tuple[StatedKind, ...] = get_args(StatedKind)


def _day(fact: TypedFact[FactKind]) -> str:
    day = date.fromisoformat(str(fact.key))
    return f"{day.strftime('%A')} {day.isoformat()}"


def _available(fact: TypedFact[FactKind]) -> str:
    does = "work" if fact.polarity == "positive" else "do not work"
    return f"{str(fact.key).capitalize()}s {does} for the caller"


def _favoured(fact: TypedFact[FactKind]) -> str:
    if fact.value.endswith(" only"):
        return f"Only {fact.value.removesuffix(' only').capitalize()}s work for the caller"
    return f"Caller favours {fact.value.capitalize()} visits"


def _floor(fact: TypedFact[FactKind]) -> str:
    where = "in the basement" if fact.value == "basement" else f"on the {fact.value}"
    return f"The caller's home is {where}"


# Told on caller ID alone: when visits suit, what is installed, how to reach them, their
# bookings. Everything else says where the home is, how to get in or who is there, or is free
# text that may: a verified caller only. Shorter retention is the safe side: how to get in
# goes first, the equipment on site (what the next service needs) is kept longest.
_TOLD, _ = True, False
KINDS: FactKinds[FactKind] = FactKinds({
    "availability": KindSpec(("availability", ""), _available, _TOLD, "availability_days",
                             key=WEEKDAY_KEY, says_no="do not work"),
    "preferred_day": KindSpec(("caller", "visit_day_preference"), _favoured, _TOLD,
                              "availability_days",
                              only_day=re.compile(r"Only (\w+)s work for the caller")),
    "preferred_time": KindSpec(("caller", "visit_time_preference"),
                               "Caller favours {value} visits", _TOLD, "availability_days"),
    "address": KindSpec(("user", "address"), "Caller's address: {value}", _, "premises_days"),
    "equipment_make": KindSpec(("equipment", "make"), "Caller's equipment: {value}", _TOLD,
                               "equipment_days"),
    "equipment_count": KindSpec(("equipment", "count_"), "How many at the property: {value}",
                                _TOLD, "equipment_days", key=named_key(EQUIPMENT.counted_thing)),
    "access_notes": KindSpec(("premises", "access"), topic="Getting in", keep="access_notes_days"),
    "contact_preference": KindSpec(("caller", "contact_channel"),
                                   "Contact the caller by {value}", _TOLD, "premises_days"),
    "boiler_type": KindSpec(("equipment", "boiler_type"), "Boiler type: {value}", _TOLD,
                            "equipment_days"),
    "meter_location": KindSpec(("premises", "meter_location"), topic="Where the meter is",
                               keep="equipment_days"),
    "floor": KindSpec(("premises", "floor"), _floor, _, "premises_days"),
    "flat": KindSpec(("premises", "flat_number"), "Flat or unit number: {value}", _,
                     "premises_days"),
    "parking": KindSpec(("premises", "parking"), topic="Parking", keep="premises_days"),
    "pets": KindSpec(("premises", "pets"), topic="Pets", keep="availability_days"),
    "who_home": KindSpec(("premises", "who_is_home"), topic="Who is home for visits",
                         keep="availability_days"),
    "visit_booked": KindSpec(("visit", "on_"),
                             lambda f: f"Service visit booked for {_day(f)}, reference {f.value}",
                             _TOLD, "visits_days", key=DATE_KEY),
    "visit_cancelled": KindSpec(("visit", "on_"), lambda f: (
        f"Service visit for {_day(f)} was cancelled (reference {f.value})"
    ), _TOLD, "visits_days", key=DATE_KEY, marked_by="was cancelled"),
    "note": words_kind("note"),
    "quote": words_kind("quote"),
    "flagged_note": words_kind("flagged"),
})  # fmt: skip
# Kinds whose value is the caller's own sentence, shown as their words, never as a fact the
# host asserts ("we had a dog but he died" is not "Pets: a dog").
TOPICS = KINDS.topics


class CallerFact(TypedFact[FactKind]):
    """One thing we know about a caller, with who vouches for it and when."""

    @property
    def kinds(self) -> FactKinds[FactKind]:
        return KINDS


CALLER_FACTS = KINDS
HOST_CONFIDENCE = Confidence.HOST
# The call-start recall's search query, in this line's words.
SNAPSHOT_QUERY = "caller profile, availability, address, equipment, access and past visits"
