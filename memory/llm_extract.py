"""End-of-call extraction with a model: the library's one checked model call, with this
line's instructions and fact kinds.

The default whenever an LLM key is configured (`MEMORY_EXTRACTION`). The library
(`contextdb_livekit.api.facts_from_model`) asks any OpenAI-compatible endpoint once, with a
strict JSON schema, and keeps only facts the host can check: a fact said by the caller must
quote a caller turn that carries its weekday or number, and a quote about somebody else is
dropped. This module turns what it keeps into this line's `CallerFact`s:

- the later quote wins its slot, and the model's reading never overrides the caller's own
  quoted words in the same slot;
- any failure falls back to the rule-based extractor, so the end-of-call write never depends
  on the model;
- a fact whose value or quote tries to change how calls are handled is kept only as a flagged
  note, as the rules do; host records (bookings) never come from the model.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import date
from typing import get_args

import httpx

from contextdb_livekit.api import (
    ModelExtractionError,
    ModelFact,
    facts_from_model,
    is_procedure_note,
    neutralise,
    redact_bounded,
    redact_secrets,
)
from memory.extract import Turn, extract_call_facts, flagged_note
from memory.facts import (
    AGENT_CONFIDENCE,
    CALLER_CONFIDENCE,
    WEEKDAYS,
    CallerFact,
    StatedKind,
    stated_kind,
)

log = logging.getLogger("memory.llm_extract")

_SYSTEM = """\
You extract durable facts about a caller from a service-visit scheduling call.
Return only lasting truths the caller stated about their own household and home, never
anything about somebody else ("my neighbour can't do Mondays", "my mum lives on the fifth
floor": nothing), never a request for this call ("book me in
for Monday", "yes, Friday is fine" to an offer) and nothing from a question or a hedge
("maybe", "not sure", "I reckon"). Kinds:
- availability: weekday + negative=true for a day that does not work ("never home on a
  Thursday", "any day except Thursdays", "we used to do Mondays" = Mondays no longer work);
- preferred_day: value "<weekday>" for a favoured day, "<weekday> only" when no other works;
- address; equipment_make (brand and model); equipment_count, one fact per thing counted
  (value like "3 boilers", "5 radiators"); boiler_type (combi | system | conventional |
  back boiler); meter_location (where the meter is, like "under the stairs");
- access_notes (codes, gates, keys); contact_preference (text message | email | phone call |
  landline | mobile);
- floor (value like "2nd floor", "ground floor", "basement", "top floor"); flat (the flat,
  apartment or unit number, like "Flat 4B"); parking; pets; who_home (who lets the engineer in).
When the caller changed or corrected something ("sorry, three", "not any more", "since March",
"from now on", "we got rid of the Vaillant"), return only the current value: the later
statement wins. said_by_caller=true only with quote = the caller's exact words from one
caller line that state the fact (with its weekday or number); facts from the agent's notes
are said_by_caller=false.
"""


Fallback = Callable[..., list[CallerFact]]


async def extract_with_model(
    turns: Iterable[Turn],
    notes: Iterable[str],
    *,
    today: date,
    call_id: str,
    base_url: str,
    api_key: str,
    model: str,
    timeout_s: float,
    transport: httpx.AsyncBaseTransport | None = None,
    fallback: Fallback | None = extract_call_facts,
) -> list[CallerFact]:
    """The call's facts from one model call; the rules (`fallback`) on any failure. With
    `fallback=None` a failure raises `ModelExtractionError` (the scorecard counts them)."""
    turns, notes = list(turns), list(notes)
    try:
        kept = await facts_from_model(
            turns,
            notes,
            instructions=_SYSTEM,
            kinds=get_args(StatedKind),
            base_url=base_url,
            api_key=api_key,
            model=model,
            timeout_s=timeout_s,
            transport=transport,
        )
    except ModelExtractionError as exc:
        if fallback is None:
            raise
        log.warning("model extraction failed (%s); using the rule-based extractor", exc)
        return fallback(turns, notes, today=today, call_id=call_id)
    by_slot: dict[tuple[str, str], CallerFact] = {}
    # The later quote wins its slot; the model's own reading never beats the caller's words.
    for checked in kept:
        fact = _to_fact(checked.fact, checked.by_caller, today=today, call_id=call_id)
        if fact is None:
            continue
        earlier = by_slot.get(fact.slot)
        if earlier is not None and earlier.source == "user_stated" != fact.source:
            continue
        by_slot.pop(fact.slot, None)
        by_slot[fact.slot] = fact
    return list(by_slot.values())


def _to_fact(item: ModelFact, by_caller: bool, *, today: date, call_id: str) -> CallerFact | None:
    if is_procedure_note(item.value) or is_procedure_note(item.quote):
        return flagged_note(item.quote or item.value, today=today, call_id=call_id)
    value = redact_secrets(neutralise(item.value)).text
    key = None
    if item.kind == "availability":
        key = (item.weekday or "").lower().rstrip("s")
        if key not in WEEKDAYS:
            return None
        value = "unavailable" if item.negative else "available"
    try:
        return CallerFact(
            kind=stated_kind(item.kind),
            value=value,
            source="user_stated" if by_caller else "agent_inferred",
            confidence=CALLER_CONFIDENCE if by_caller else AGENT_CONFIDENCE,
            observed_on=today,
            polarity="negative" if item.negative else "positive",
            key=key,
            call_id=call_id,
            said=redact_bounded(item.quote, 300) if by_caller else "",
        )
    except ValueError:
        return None
