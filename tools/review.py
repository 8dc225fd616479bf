"""What this call would change in the caller's memory, read back before the call ends.

The line's side of `kit.review`: which extracted facts are changes (a slot memory does not
hold, or holds with another value), how the host says them to the caller, the
`review_caller_details` tool, and how the caller's answer settles them at the end of the call:

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

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool, ToolResult

from contextdb_livekit.api import (
    MAX_CHANGES_READ_BACK,
    CallerIdentity,
    Memory,
    history_turns,
    is_current,
    read_reply,
    says_routine_changed,
    start_review,
)
from memory.cautions import is_negative_availability
from memory.extract import extract_call_facts, quote
from memory.facts import CONFIRMED_CONFIDENCE, TOPICS, CallerFact, fact_kind, plain_text
from tools.systems import VisitCall

REVIEW_TOOL = "review_caller_details"
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
    pending = {change_key(f) for f in changes(call, facts)}
    review, answer = call.review, call.review_answer
    kept: list[CallerFact] = []
    for fact in facts:
        key = change_key(fact)
        if key not in pending:
            if not _held_already(call, fact):
                kept.append(fact)  # notes, quotes and what is not the caller's own word
        elif review is not None and key in review.keys and answer == "yes":
            kept.append(dataclasses.replace(fact, confidence=CONFIRMED_CONFIDENCE))
        elif review is not None and key in review.keys and answer == "no":
            continue  # "no, that's not right": memory keeps what it held
        else:
            kept.append(
                quote(fact.said or fact.sentence, today=fact.observed_on, call_id=fact.call_id)
            )
    return kept


def build_review_tool(identity: CallerIdentity) -> FunctionTool:
    async def review_caller_details(context: RunContext[VisitCall]) -> str | ToolResult:
        """Call once when the caller is ready to end the call, before saying goodbye. The
        system reads back to the caller what it will remember from this call; say nothing
        about it yourself. When they answer, thank them and say goodbye."""
        call = context.userdata
        if not call.is_caller(identity):
            return "This call is no longer verified. Say goodbye."
        if not call.host.memory_settings.change_readback:
            return "Nothing to read back. Say goodbye."
        if call.review is not None and call.review.readback.playing:
            return ToolResult(
                "The read-back is still playing. Say nothing; wait for the caller.",
                reply_required=False,
            )
        facts = extract_call_facts(
            history_turns(context.session.history),
            list(call.notes),
            today=call.today(),
            call_id=call.call_id,
        )
        pending = changes(call, with_switched_days(call, facts))[:MAX_CHANGES_READ_BACK]
        if not pending:
            return "Nothing new to note from this call. Say goodbye."
        keys = {change_key(f) for f in pending}
        if (
            call.review is not None
            and keys <= call.review.keys
            and read_reply(context.session.history, call.review).answer != "unanswered"
        ):
            # Asked again after the caller answered this very read-back: once is enough.
            return "The caller has already answered the read-back. Say goodbye."
        call.review = start_review(
            context.session,
            [change_key(f) for f in pending],
            [spoken(f, call) for f in pending],
        )
        call.review_answer = None
        return ToolResult(
            "I have read back to the caller what I will note. Say nothing now; when they "
            "answer, thank them and say goodbye.",
            reply_required=False,
        )

    return function_tool(review_caller_details, name=REVIEW_TOOL)
