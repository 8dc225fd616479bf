"""End-of-call extraction: the call's transcript and notes → this line's typed caller facts.

The rule-based extractor runs offline and is the floor: `memory.llm_extract` replaces it with
one structured-output model call whenever an LLM key is configured, and falls back to it. The
library reads the call (`contextdb_livekit.api.read_call`: the `CallReader` with this line's
`memory.equipment`, the last word per slot, corrections, contradictions, notes checked against
the caller's words); scored by `python -m bench.extraction`. This module says which of this
line's kinds are kept as the caller's sentence, and turns what was said into `CallerFact`s:

- only the caller's own turns become `user_stated`; the agent's notes are `agent_inferred`;
- words the reader was not sure of are kept as the caller's quote, never as a fact;
- a note that tries to change how calls are handled is a `flagged_note`, vouched for by nobody
  and never shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from contextdb_livekit.api import (
    CallReader,
    Confidence,
    EpistemicSource,
    Said,
    Turn,
    kept_words,
    read_call,
)
from memory.equipment import EQUIPMENT
from memory.facts import TOPICS, CallerFact, FactKind, stated_kind

# Of the kinds kept as the caller's sentence, those a turn may say more than one thing of,
# and those whose sentences add up within a call ("side gate; the dog barks").
_SEVERAL = frozenset({"access_notes", "parking", "pets", "who_home"})
_ADDS_UP = frozenset({"access_notes"})


def extract_call_facts(
    turns: Iterable[Turn],
    notes: Iterable[str],
    *,
    today: date,
    call_id: str,
) -> list[CallerFact]:
    """Typed facts a finished call leaves behind; one per slot, the call's last word wins."""
    said = read_call(
        turns,
        notes,
        CallReader(EQUIPMENT),
        worded=frozenset(TOPICS),
        several=_SEVERAL,
        adds_up=_ADDS_UP,
    )
    return [_fact(s, today=today, call_id=call_id) for s in said]


def quote(words: str, *, today: date, call_id: str) -> CallerFact:
    """The caller's own words, kept as said: never a typed fact."""
    return _fact(kept_words("quote", words, by_caller=True), today=today, call_id=call_id)


def flagged_note(text: str, *, today: date, call_id: str) -> CallerFact:
    """A note that tries to change how calls are handled: kept, vouched for by nobody."""
    return _fact(kept_words("flagged", text, by_caller=False), today=today, call_id=call_id)


# Words kept as said: what kind of this line's facts they are, who vouches, and how much.
_WORDS: dict[str, tuple[FactKind, EpistemicSource, float]] = {
    "quote": ("quote", "user_stated", Confidence.UNCONFIRMED),
    "note": ("note", "agent_inferred", Confidence.AGENT),
    "flagged": ("flagged_note", "third_party", Confidence.FLAGGED),
}


def _fact(said: Said, *, today: date, call_id: str) -> CallerFact:
    if said.kind in _WORDS:
        kind, source, confidence = _WORDS[said.kind]
        return CallerFact(
            kind=kind,
            value=said.value,
            source=source,
            confidence=confidence,
            observed_on=today,
            key=said.key,
            call_id=call_id,
        )
    return CallerFact(
        kind=stated_kind(said.kind),
        value=said.value,
        source="user_stated" if said.by_caller else "agent_inferred",
        confidence=Confidence.CALLER if said.by_caller else Confidence.AGENT,
        observed_on=today,
        polarity="negative" if said.negative else "positive",
        key=said.key,
        call_id=call_id,
        said=said.sentence,
    )
