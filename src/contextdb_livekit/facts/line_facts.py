"""A finished call's caller facts, typed as a line's own fact class: `LineFacts`.

Two readers feed it, and this module is where what they found becomes the line's facts:
the rules (`reading.call.read_call`, the line's equipment words) and one model call
(`reading.model.facts_from_model`, the line's instructions). Either way:

- only the caller's own words become `user_stated`; the agent's notes are `agent_inferred`;
- words the reader was not sure of are kept as the caller's quote, never as a fact;
- a note or model fact that tries to change how calls are handled is a flagged note, vouched
  for by nobody and never shown;
- from the model: the later quote wins its slot, the model's own reading never beats the
  caller's quoted words in the same slot, and any failure falls back to the rules, so the
  end-of-call write never depends on the model.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, TypeVar

import httpx

from contextdb_livekit.facts.kinds import WEEKDAY_KEY, FactKinds, K, TypedFact, Words
from contextdb_livekit.facts.stamps import Confidence
from contextdb_livekit.memory.instructions_screen import is_procedure_note
from contextdb_livekit.memory.models import EpistemicSource, Turn
from contextdb_livekit.memory.safe_text import neutralise
from contextdb_livekit.memory.secrets import redact_bounded, redact_secrets
from contextdb_livekit.reading.call import Said, kept_words, read_call
from contextdb_livekit.reading.equipment import Equipment
from contextdb_livekit.reading.lexicon import WEEKDAYS
from contextdb_livekit.reading.model import ModelExtractionError, ModelFact, facts_from_model
from contextdb_livekit.reading.reader import CallReader

log = logging.getLogger("contextdb_livekit.facts.line_facts")

F = TypeVar("F", bound=TypedFact[Any])
# The rules' reader, called as the line's own extractor is: (turns, notes, today=, call_id=).
Extractor = Callable[..., list[F]]

# Words kept as said: who vouches for them, and how much.
_VOUCHED: dict[Words, tuple[EpistemicSource, float]] = {
    "quote": ("user_stated", Confidence.UNCONFIRMED),
    "note": ("agent_inferred", Confidence.AGENT),
    "flagged": ("third_party", Confidence.FLAGGED),
}


@dataclass(frozen=True)
class LineFacts(Generic[K, F]):
    """A line's facts from a call: its table of kinds, its fact class (a `TypedFact[K]`
    subclass naming that table), the kinds a caller can state (the only ones a reader or a
    model may propose), its equipment words, and, of the kinds kept as the caller's sentence,
    those a turn may say more than one thing of (`several`) and those whose sentences add up
    within a call (`adds_up`, "side gate; the dog barks")."""

    kinds: FactKinds[K]
    fact: type[F]
    stated: tuple[K, ...]
    equipment: Equipment
    several: frozenset[str] = frozenset()
    adds_up: frozenset[str] = frozenset()

    def stated_kind(self, kind: str) -> K:
        """A kind a reader typed, checked against what a caller can tell this line."""
        for stated in self.stated:
            if stated == kind:
                return stated
        raise ValueError(f"the reader typed a kind this line does not have: {kind!r}")

    def extract(
        self, turns: Iterable[Turn], notes: Iterable[str], *, today: date, call_id: str
    ) -> list[F]:
        """Typed facts a finished call leaves, read by the rules; one per slot, the call's
        last word wins."""
        said = read_call(
            turns,
            notes,
            CallReader(self.equipment),
            worded=frozenset(self.kinds.topics),
            several=self.several,
            adds_up=self.adds_up,
        )
        return [self.from_said(s, today=today, call_id=call_id) for s in said]

    def quote(self, words: str, *, today: date, call_id: str) -> F:
        """The caller's own words, kept as said: never a typed fact."""
        said = kept_words("quote", words, by_caller=True)
        return self.from_said(said, today=today, call_id=call_id)

    def flagged_note(self, text: str, *, today: date, call_id: str) -> F:
        """A note that tries to change how calls are handled: kept, vouched for by nobody."""
        said = kept_words("flagged", text, by_caller=False)
        return self.from_said(said, today=today, call_id=call_id)

    def from_said(self, said: Said, *, today: date, call_id: str) -> F:
        """What the reader found, as this line's fact (its kind checked)."""
        for words, (source, confidence) in _VOUCHED.items():
            if said.kind == words:
                return self.fact(
                    kind=self.kinds.with_words(words),
                    value=said.value,
                    source=source,
                    confidence=confidence,
                    observed_on=today,
                    key=said.key,
                    call_id=call_id,
                )
        return self.fact(
            kind=self.stated_kind(said.kind),
            value=said.value,
            source="user_stated" if said.by_caller else "agent_inferred",
            confidence=Confidence.CALLER if said.by_caller else Confidence.AGENT,
            observed_on=today,
            polarity="negative" if said.negative else "positive",
            key=said.key,
            call_id=call_id,
            said=said.sentence,
        )

    async def from_model(
        self,
        turns: Iterable[Turn],
        notes: Iterable[str],
        *,
        instructions: str,
        today: date,
        call_id: str,
        base_url: str,
        api_key: str,
        model: str,
        timeout_s: float,
        transport: httpx.AsyncBaseTransport | None = None,
        fallback: Extractor[F] | None = None,
    ) -> list[F]:
        """The call's facts from one model call with the line's `instructions`; `fallback`
        (the rules) on any failure. Without one a failure raises `ModelExtractionError`."""
        turns, notes = list(turns), list(notes)
        try:
            kept = await facts_from_model(
                turns,
                notes,
                instructions=instructions,
                kinds=self.stated,
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
        by_slot: dict[tuple[str, str], F] = {}
        # The later quote wins its slot; the model's own reading never beats the caller's words.
        for checked in kept:
            fact = self.from_model_fact(
                checked.fact, checked.by_caller, today=today, call_id=call_id
            )
            if fact is None:
                continue
            earlier = by_slot.get(fact.slot)
            if earlier is not None and earlier.source == "user_stated" != fact.source:
                continue
            by_slot.pop(fact.slot, None)
            by_slot[fact.slot] = fact
        return list(by_slot.values())

    def from_model_fact(
        self, item: ModelFact, by_caller: bool, *, today: date, call_id: str
    ) -> F | None:
        """One fact the host kept of the model's answer, as this line's fact; None when it
        cannot be one (a weekday kind without a weekday, a kind or value the line refuses)."""
        if is_procedure_note(item.value) or is_procedure_note(item.quote):
            return self.flagged_note(item.quote or item.value, today=today, call_id=call_id)
        value = redact_secrets(neutralise(item.value)).text
        key = None
        try:
            kind = self.stated_kind(item.kind)
            if self.kinds.spec(kind).key is WEEKDAY_KEY:
                key = (item.weekday or "").lower().rstrip("s")
                if key not in WEEKDAYS:
                    return None
                value = "unavailable" if item.negative else "available"
            return self.fact(
                kind=kind,
                value=value,
                source="user_stated" if by_caller else "agent_inferred",
                confidence=Confidence.CALLER if by_caller else Confidence.AGENT,
                observed_on=today,
                polarity="negative" if item.negative else "positive",
                key=key,
                call_id=call_id,
                said=redact_bounded(item.quote, 300) if by_caller else "",
            )
        except ValueError:
            return None
