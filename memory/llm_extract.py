"""End-of-call extraction with a model: one structured-output call, checked by the host.

With `MEMORY_EXTRACTION=llm`, the transcript (secrets already redacted) goes to the
OpenAI-compatible chat completions endpoint with a JSON schema. The answer is validated,
and the host keeps the last word:

- a fact the model says the caller stated must quote the caller's own words; a quote that is
  not in the caller's turns makes the fact `agent_inferred` (the model's reading);
- only caller-fact kinds are accepted (never requests or bookings: those come from the
  call's own tools and the booking system);
- anything wrong — timeout, HTTP error, invalid JSON, schema mismatch — falls back to the
  rule-based extractor, so the end-of-call write never depends on the model;
- a fact whose value or quote tries to change how calls are handled
  (`memory.instructions_screen`) is kept only as a flagged note, as the rules do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import date

import httpx
from pydantic import BaseModel, Field, ValidationError

from memory.extract import CallOutcome, Turn, _host_fact, extract_call_facts, flagged_note
from memory.facts import AGENT_CONFIDENCE, CALLER_CONFIDENCE, WEEKDAYS, CallerFact, StatedKind
from memory.instructions_screen import is_procedure_note
from memory.secrets import redact_bounded, redact_secrets
from memory.snapshot import neutralise

log = logging.getLogger("memory.llm_extract")

MAX_LINE_CHARS = 500


class ModelFact(BaseModel):
    kind: StatedKind
    value: str = Field(min_length=1, max_length=200)
    weekday: str | None = None
    negative: bool = False
    said_by_caller: bool
    quote: str = Field(default="", max_length=300)


class ModelAnswer(BaseModel):
    facts: list[ModelFact] = Field(max_length=40)


_SYSTEM = """\
You extract durable facts about a caller from a service-visit scheduling call.
Return only facts the caller stated as lasting truths, not requests for this call.
Kinds: availability (weekday + negative=true for days that do not work), preferred_day
(value = weekday, or "<weekday> only"), address, equipment_make, equipment_count
(value like "3 boilers"), access_notes, contact_preference (text message | email | phone call).
Skip questions, hedges and anything the caller was unsure about. When the caller corrected
themselves, keep only the correction. said_by_caller=true only with an exact quote of the
caller's words; notes written by the agent are said_by_caller=false.
"""


def _schema() -> dict[str, object]:
    return {
        "type": "json_schema",
        "json_schema": {"name": "caller_facts", "schema": ModelAnswer.model_json_schema()},
    }


async def extract_with_model(
    turns: Iterable[Turn],
    notes: Iterable[str],
    outcome: CallOutcome,
    *,
    today: date,
    call_id: str,
    base_url: str,
    api_key: str,
    model: str,
    timeout_s: float,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[CallerFact]:
    turns, notes = list(turns), list(notes)
    caller_lines = [redact_bounded(t.text, MAX_LINE_CHARS) for t in turns if t.role == "user"]
    note_lines = [redact_bounded(n, MAX_LINE_CHARS) for n in notes]
    body = {
        "model": model,
        "messages": [
            {"role": "system", "content": _SYSTEM},
            {
                "role": "user",
                "content": "Caller turns:\n"
                + "\n".join(f"- {line}" for line in caller_lines)
                + "\nAgent notes:\n"
                + "\n".join(f"- {line}" for line in note_lines),
            },
        ],
        "response_format": _schema(),
        "temperature": 0,
    }
    try:
        async with httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=timeout_s,
            transport=transport,
        ) as http:
            response = await http.post("/chat/completions", json=body)
        response.raise_for_status()
        content = response.json()["choices"][0]["message"]["content"]
        answer = ModelAnswer.model_validate_json(content)
    except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError, ValidationError) as exc:
        log.warning("model extraction failed (%s); using the rule-based extractor", exc)
        return extract_call_facts(turns, notes, outcome, today=today, call_id=call_id)
    spoken = " ".join(caller_lines).casefold()
    facts = [
        fact
        for item in answer.facts
        if (fact := _to_fact(item, spoken, today=today, call_id=call_id)) is not None
    ]
    # Host records never come from the model.
    facts += [
        _host_fact("visit_booked", d, ref, today=today, call_id=call_id)
        for d, ref in outcome.booked
    ]
    facts += [
        _host_fact("visit_cancelled", d, ref, today=today, call_id=call_id)
        for d, ref in outcome.cancelled
    ]
    by_slot = {fact.slot: fact for fact in facts}
    return list(by_slot.values())


def _to_fact(item: ModelFact, spoken: str, *, today: date, call_id: str) -> CallerFact | None:
    quoted = bool(item.quote.strip()) and item.quote.casefold().strip() in spoken
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
        )
    except ValueError:
        return None
