"""End-of-call extraction with a model: one structured-output call, checked by the host.

The default whenever an LLM key is configured (`MEMORY_EXTRACTION`, see
`memory.settings.MemorySettings.extraction_mode`). The transcript (secrets already redacted)
goes to the OpenAI-compatible chat completions endpoint with a strict JSON schema, once, at
the end of the call. The answer is validated, and the host keeps the last word:

- the whole exchange — request, answer, validation — is bounded by `timeout_s`;
- the answer must match the schema (`ModelAnswer`): only caller-fact kinds, never requests
  or bookings (those come from the call's own tools and the booking system);
- a fact the model says the caller stated must quote one caller turn (compared without case,
  punctuation or spacing); a quote that is not in the caller's turns makes the fact
  `agent_inferred` (the model's reading), and a quote that does not carry the fact's weekday
  or number is the model contradicting itself: that fact is dropped;
- the later quote wins its slot, whatever order the model listed facts in, and the model's
  reading never overrides the caller's own quoted words in the same slot;
- anything wrong — timeout, HTTP error, invalid JSON, schema mismatch — falls back to the
  rule-based extractor, so the end-of-call write never depends on the model;
- a fact whose quote is about somebody else ("my mum's only free on Wednesdays") is dropped,
  whatever the model says (`contextdb_livekit.api.about_someone_else`); who lets the engineer in
  still counts;
- a fact whose value or quote tries to change how calls are handled
  (`contextdb_livekit.memory.instructions_screen`) is kept only as a flagged note, as the rules do.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterable
from datetime import date
from typing import get_args

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contextdb_livekit.api import (
    ABOUT_THE_VISIT,
    TLS_CONTEXT,
    about_someone_else,
    is_procedure_note,
    neutralise,
    normal_text,
    redact_bounded,
    redact_secrets,
)
from memory.extract import (
    Turn,
    extract_call_facts,
    flagged_note,
)
from memory.facts import AGENT_CONFIDENCE, CALLER_CONFIDENCE, WEEKDAYS, CallerFact, StatedKind

log = logging.getLogger("memory.llm_extract")

MAX_LINE_CHARS = 500
MAX_FACTS = 40


class ModelExtractionError(Exception):
    """The model's answer could not be used (raised only when no fallback is given)."""


class ModelFact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: StatedKind
    value: str = Field(min_length=1, max_length=200)
    weekday: str | None = None
    negative: bool = False
    said_by_caller: bool
    quote: str = Field(default="", max_length=300)


class ModelAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: list[ModelFact] = Field(max_length=MAX_FACTS)


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


def response_format() -> dict[str, object]:
    """A strict JSON schema (OpenAI structured outputs): every field required, nothing else."""
    fact = {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "value", "weekday", "negative", "said_by_caller", "quote"],
        "properties": {
            "kind": {"type": "string", "enum": list(get_args(StatedKind))},
            "value": {"type": "string"},
            "weekday": {"type": ["string", "null"], "enum": [*WEEKDAYS, None]},
            "negative": {"type": "boolean"},
            "said_by_caller": {"type": "boolean"},
            "quote": {"type": "string"},
        },
    }
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["facts"],
        "properties": {"facts": {"type": "array", "items": fact}},
    }
    return {
        "type": "json_schema",
        "json_schema": {"name": "caller_facts", "strict": True, "schema": schema},
    }


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
    lines = [(t.role, redact_bounded(t.text, MAX_LINE_CHARS)) for t in turns]
    caller_lines = [text for role, text in lines if role == "user"]
    note_lines = [redact_bounded(n, MAX_LINE_CHARS) for n in notes]
    body = {
        "model": model,
        "messages": [
            {"role": "system", "content": _SYSTEM},
            {
                "role": "user",
                "content": "Call transcript:\n"
                + "\n".join(f"- {'Caller' if r == 'user' else 'Agent'}: {t}" for r, t in lines)
                + "\nAgent notes:\n"
                + "\n".join(f"- {line}" for line in note_lines),
            },
        ],
        "response_format": response_format(),
        "temperature": 0,
    }
    try:
        answer = await asyncio.wait_for(
            _ask(
                body, base_url=base_url, api_key=api_key, timeout_s=timeout_s, transport=transport
            ),
            timeout=timeout_s,
        )
    except (
        TimeoutError,
        httpx.HTTPError,
        KeyError,
        IndexError,
        TypeError,
        ValueError,
        ValidationError,
    ) as exc:
        reason = type(exc).__name__ if isinstance(exc, TimeoutError) else exc
        if fallback is None:
            raise ModelExtractionError(str(reason)) from exc
        log.warning("model extraction failed (%s); using the rule-based extractor", reason)
        return fallback(turns, notes, today=today, call_id=call_id)
    spoken = [_plain(line) for line in caller_lines]
    placed: list[tuple[tuple[int, int], CallerFact]] = []
    for n, item in enumerate(answer.facts):
        fact = _to_fact(item, spoken, today=today, call_id=call_id)
        if fact is not None:
            placed.append((_position(item, spoken, n), fact))
    by_slot: dict[tuple[str, str], CallerFact] = {}
    # The later quote wins its slot; the model's own reading never beats the caller's words.
    for _, fact in sorted(placed, key=lambda p: p[0]):
        earlier = by_slot.get(fact.slot)
        if earlier is not None and earlier.source == "user_stated" != fact.source:
            continue
        by_slot.pop(fact.slot, None)
        by_slot[fact.slot] = fact
    # Host records never come from the model: the gated actions keep them (`remember`).
    return list(by_slot.values())


async def _ask(
    body: dict[str, object],
    *,
    base_url: str,
    api_key: str,
    timeout_s: float,
    transport: httpx.AsyncBaseTransport | None,
) -> ModelAnswer:
    async with httpx.AsyncClient(
        base_url=base_url.rstrip("/"),
        headers={"Authorization": f"Bearer {api_key}"},
        timeout=timeout_s,
        transport=transport,
        verify=TLS_CONTEXT,  # the worker's, loaded once (a client per call loads none)
    ) as http:
        response = await http.post("/chat/completions", json=body)
    response.raise_for_status()
    content = response.json()["choices"][0]["message"]["content"]
    return ModelAnswer.model_validate_json(content)


def _plain(text: str) -> str:
    """Text compared for quoting: case, punctuation and spacing do not count."""
    return " ".join(re.sub(r"[^\w']+", " ", neutralise(text).casefold().replace("’", "'")).split())


def _position(item: ModelFact, spoken: list[str], order: int) -> tuple[int, int]:
    """Where the quote was said (turn, offset): later is later. Unquoted facts come first."""
    quote = _plain(item.quote)
    if quote:
        for n in range(len(spoken) - 1, -1, -1):
            at = spoken[n].rfind(quote)
            if at >= 0:
                return (n, at)
    return (-1, order)


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _carries_value(item: ModelFact, quote: str) -> bool:
    """Whether a quoted line carries what the fact claims (its weekday, its number)."""
    if item.kind in ("availability", "preferred_day"):
        day = (item.weekday or item.value.split()[0]).casefold().rstrip("s")
        return day in WEEKDAYS and re.search(rf"\b{day}s?\b", quote) is not None
    if item.kind == "equipment_count":
        value = item.value.casefold()
        numbers = {int(d) for d in re.findall(r"\d+", value)} | {
            n for n, w in enumerate(_NUMBER_WORDS, start=1) if re.search(rf"\b{w}\b", value)
        }
        said = {str(n) for n in numbers} | {_NUMBER_WORDS[n - 1] for n in numbers if 0 < n <= 10}
        if 1 in numbers:
            said |= {"a", "an", "single"}
        return any(re.search(rf"\b{re.escape(x)}\b", quote) for x in said)
    return True


def _to_fact(item: ModelFact, spoken: list[str], *, today: date, call_id: str) -> CallerFact | None:
    quote = _plain(item.quote)
    quoted = bool(quote) and any(quote in line for line in spoken)
    if quoted and item.said_by_caller and not _carries_value(item, quote):
        log.info("model fact dropped: its quote does not carry its %s", item.kind)
        return None
    if quoted and item.kind not in ABOUT_THE_VISIT and about_someone_else(normal_text(item.quote)):
        # The host's own rule: what the caller said about somebody else is not theirs.
        log.info("model fact dropped: its quote is about somebody else")
        return None
    by_caller = item.said_by_caller and quoted
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
            kind=item.kind,
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
