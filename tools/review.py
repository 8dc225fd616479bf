"""What this call would change in the caller's memory, read back before the call ends.

The line's side of `kit.review`: which extracted facts are changes (a slot memory does not
hold, or holds with another value) and how the host says them to the caller; the library's
`review_caller_details` tool reads them back, and the caller's answer settles them at the end
of the call (`settle_changes`):

- a fact memory already holds is not written again (a restatement never replaces what the
  caller confirmed before with a plain "said");
- a change the caller confirmed to the host's read-back is written as a confirmed fact;
- a change they said no to is dropped: memory keeps what it held;
- any other change (not read back, no answer, hang-up) is kept only as the caller's quoted
  words (`quote`): never a fact, still read back as a caution when it names a day.

With `MEMORY_CHANGE_READBACK=false` the line stores what the extractor reads as facts, as
said, without asking.
"""

from __future__ import annotations

import dataclasses

from livekit.agents import RunContext

from contextdb_livekit.api import (
    Memory,
    history_turns,
    is_current,
    says_routine_changed,
    settle_changes,
)
from memory.cautions import is_negative_availability
from memory.extract import extract_call_facts, quote
from memory.facts import CONFIRMED_CONFIDENCE, TOPICS, CallerFact, fact_kind, plain_text
from tools.systems import VisitCall

# Kinds a caller states about themselves; notes, quotes and host records are never reviewed.
_REVIEWED_SOURCE = "user_stated"
_NOT_REVIEWED = frozenset({"note", "quote", "flagged_note", "visit_booked", "visit_cancelled"})


def change_key(fact: CallerFact) -> str:
    entity, attribute = fact.slot
    return f"{entity}/{attribute}={fact.sentence}"


def _held(call: VisitCall) -> dict[tuple[str, str], str]:
    """What memory holds now, by slot: the current fact's sentence (nothing when the
    call-start snapshot did not land)."""
    memories: list[Memory] = call.snapshot.memories if call.snapshot is not None else []
    return {
        (m.entity_key or "", m.attribute_key or ""): plain_text(m)
        for m in memories
        if is_current(m) and fact_kind(m) is not None
    }


def with_switched_days(call: VisitCall, facts: list[CallerFact]) -> list[CallerFact]:
    """A change of routine across calls: "we've swapped, it's Tuesdays from now on" makes the
    days memory holds as working, and this call did not name, no longer work (read back like
    any other change before it is kept)."""
    switches = [
        f
        for f in facts
        if f.kind == "availability"
        and f.polarity == "positive"
        and f.source == _REVIEWED_SOURCE
        and says_routine_changed(f.said)
    ]
    if not switches or call.snapshot is None:
        return facts
    named = {f.key for f in facts if f.kind == "availability"}
    held_working = [
        m.attribute_key
        for m in call.snapshot.memories
        if is_current(m)
        and fact_kind(m) == "availability"
        and not is_negative_availability(m, m.attribute_key or "")
        and m.attribute_key not in named
    ]
    said = switches[-1]
    return [
        *facts,
        *(
            dataclasses.replace(said, key=day, value="unavailable", polarity="negative")
            for day in held_working
        ),
    ]


def changes(call: VisitCall, facts: list[CallerFact]) -> list[CallerFact]:
    """The caller's own facts that add to or change what memory holds (all of them when the
    snapshot did not land: nothing shows they are not changes)."""
    held = _held(call)
    return [
        f
        for f in facts
        if f.source == _REVIEWED_SOURCE
        and f.kind not in _NOT_REVIEWED
        and held.get(f.slot) != f.sentence
    ]


def _held_already(call: VisitCall, fact: CallerFact) -> bool:
    return fact.source == _REVIEWED_SOURCE and _held(call).get(fact.slot) == fact.sentence


def spoken(fact: CallerFact, call: VisitCall) -> str:
    """The change in the host's words, to the caller ("Thursdays no longer work for you")."""
    held = _held(call)
    value = fact.value
    if fact.kind == "availability":
        day = f"{str(fact.key).capitalize()}s"
        changed = fact.slot in held
        if fact.polarity == "negative":
            return f"{day} no longer work for you" if changed else f"{day} don't work for you"
        return f"{day} now work for you" if changed else f"{day} work for you"
    if fact.kind == "preferred_day":
        if value.endswith(" only"):
            return f"only {value.removesuffix(' only').capitalize()}s work for you"
        return f"{value.capitalize()} is your favourite day for a visit"
    phrases = {
        "address": f"your address is {value}",
        "equipment_make": f"your equipment is a {value}",
        "equipment_count": f"you have {value}",
        "boiler_type": f"your boiler is a {value}{'' if 'boiler' in value else ' boiler'}",
        "contact_preference": f"we should contact you by {value}",
        "floor": f"your home is {'in the basement' if value == 'basement' else f'on the {value}'}",
        "flat": f"your flat number is {value.removeprefix('Flat ')}",
    }
    if fact.kind in TOPICS:
        return f"{TOPICS[fact.kind].lower()}, in your words: {value}"
    return phrases.get(fact.kind, value)


def settle(call: VisitCall, facts: list[CallerFact]) -> list[CallerFact]:
    """The facts to write, once the caller's answer to the review is known (or not)."""
    facts = with_switched_days(call, facts)
    if not call.host.memory_settings.change_readback:
        return facts
    return settle_changes(
        call,
        facts,
        changes=changes(call, facts),
        key=change_key,
        held=lambda fact: _held_already(call, fact),
        confirmed=lambda fact: dataclasses.replace(fact, confidence=CONFIRMED_CONFIDENCE),
        unconfirmed=lambda fact: quote(
            fact.said or fact.sentence, today=fact.observed_on, call_id=fact.call_id
        ),
    )


def changes_read_back(context: RunContext[VisitCall]) -> list[tuple[str, str]]:
    """What the review tool reads back: this call's changes so far, in the host's words."""
    call = context.userdata
    facts = extract_call_facts(
        history_turns(context.session.history),
        list(call.notes),
        today=call.today(),
        call_id=call.call_id,
    )
    pending = changes(call, with_switched_days(call, facts))
    return [(change_key(f), spoken(f, call)) for f in pending]
