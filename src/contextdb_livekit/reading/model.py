"""A call's caller facts from one model call, checked by the host before a line types them.

The transcript (secrets already redacted) goes to any OpenAI-compatible chat completions
endpoint with a strict JSON schema, once, at the end of the call, with the line's own
instructions and fact kinds. The host keeps the last word:

- the whole exchange — request, answer, validation — is bounded by `timeout_s`; any failure
  (timeout, HTTP error, invalid JSON, a kind the line does not have) is `ModelExtractionError`,
  so the line falls back to its rules;
- a fact the model says the caller stated must quote one caller turn (compared without case,
  punctuation or spacing); a quote that is not in the caller's turns makes it the model's
  reading, and a quote that does not carry the fact's weekday or number is the model
  contradicting itself: that fact is dropped;
- a fact whose quote is about somebody else ("my mum's only free on Wednesdays") is dropped,
  whatever the model says (`reading.turn_cues.about_someone_else`), except the kinds somebody
  else's words may state for the visit (`ABOUT_THE_VISIT`);
- facts come back in the order they were said: the later quote wins its slot.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contextdb_livekit.memory.models import Turn
from contextdb_livekit.memory.safe_text import neutralise
from contextdb_livekit.memory.secrets import redact_bounded
from contextdb_livekit.reading.lexicon import ABOUT_THE_VISIT, DAY_KINDS, WEEKDAYS
from contextdb_livekit.reading.sentences import normal
from contextdb_livekit.reading.turn_cues import about_someone_else
from contextdb_livekit.tls import TLS_CONTEXT

MAX_LINE_CHARS = 500
MAX_FACTS = 40


class ModelExtractionError(Exception):
    """The model's answer could not be used: the line's rules read the call instead."""


class ModelFact(BaseModel):
    """One fact as the model proposes it."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    value: str = Field(min_length=1, max_length=200)
    weekday: str | None = None
    negative: bool = False
    said_by_caller: bool
    quote: str = Field(default="", max_length=300)


class ModelAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: list[ModelFact] = Field(max_length=MAX_FACTS)


@dataclass(frozen=True)
class CheckedFact:
    """A model fact the host kept: `by_caller` only when its quote is the caller's words."""

    fact: ModelFact
    by_caller: bool


def response_format(kinds: Sequence[str]) -> dict[str, object]:
    """A strict JSON schema (OpenAI structured outputs): every field required, nothing else."""
    fact = {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "value", "weekday", "negative", "said_by_caller", "quote"],
        "properties": {
            "kind": {"type": "string", "enum": list(kinds)},
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


async def facts_from_model(
    turns: Iterable[Turn],
    notes: Iterable[str],
    *,
    instructions: str,
    kinds: Sequence[str],
    base_url: str,
    api_key: str,
    model: str,
    timeout_s: float,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[CheckedFact]:
    """The facts the host keeps of the model's answer, in the order they were said."""
    lines = [(t.role, redact_bounded(t.text, MAX_LINE_CHARS)) for t in turns]
    note_lines = [redact_bounded(n, MAX_LINE_CHARS) for n in notes]
    body = {
        "model": model,
        "messages": [
            {"role": "system", "content": instructions},
            {
                "role": "user",
                "content": "Call transcript:\n"
                + "\n".join(f"- {'Caller' if r == 'user' else 'Agent'}: {t}" for r, t in lines)
                + "\nAgent notes:\n"
                + "\n".join(f"- {line}" for line in note_lines),
            },
        ],
        "response_format": response_format(kinds),
        "temperature": 0,
    }
    try:
        answer = await asyncio.wait_for(
            _ask(
                body, base_url=base_url, api_key=api_key, timeout_s=timeout_s, transport=transport
            ),
            timeout=timeout_s,
        )
        unknown = {f.kind for f in answer.facts} - set(kinds)
        if unknown:
            raise ValueError(f"kinds the line does not have: {sorted(unknown)}")
    except (
        TimeoutError,
        httpx.HTTPError,
        KeyError,
        IndexError,
        TypeError,
        ValueError,
        ValidationError,
    ) as exc:
        reason = type(exc).__name__ if isinstance(exc, TimeoutError) else str(exc)
        raise ModelExtractionError(reason) from exc
    spoken = [_plain(text) for role, text in lines if role == "user"]
    placed: list[tuple[tuple[int, int], CheckedFact]] = []
    for n, item in enumerate(answer.facts):
        quote = _plain(item.quote)
        quoted = bool(quote) and any(quote in line for line in spoken)
        if quoted and item.said_by_caller and not _carries_value(item, quote):
            continue  # the quote does not carry what the fact claims
        if quoted and item.kind not in ABOUT_THE_VISIT and about_someone_else(normal(item.quote)):
            continue  # the host's own rule: what the caller said of somebody else is not theirs
        placed.append(
            (_position(quote, spoken, n), CheckedFact(item, item.said_by_caller and quoted))
        )
    return [checked for _, checked in sorted(placed, key=lambda p: p[0])]


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


def _position(quote: str, spoken: list[str], order: int) -> tuple[int, int]:
    """Where the quote was said (turn, offset): later is later. Unquoted facts come first."""
    if quote:
        for n in range(len(spoken) - 1, -1, -1):
            at = spoken[n].rfind(quote)
            if at >= 0:
                return (n, at)
    return (-1, order)


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _carries_value(item: ModelFact, quote: str) -> bool:
    """Whether a quoted line carries what the fact claims (its weekday, its number)."""
    if item.kind in DAY_KINDS:
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
