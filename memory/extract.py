"""End-of-call extraction: the call's transcript and notes → typed caller facts.

The rule-based extractor runs offline and is the floor: `memory.llm_extract` replaces it
with one structured-output model call whenever an LLM key is configured, and falls back to
it. Sentences are read by the library's `CallReader` with this line's `memory.equipment`
(negators and their scope, clause order, change markers, corrections, answers to the agent's
question); scored by `python -m bench.extraction`.

- Only the caller's own turns become `user_stated`; the model's notes are `agent_inferred`.
- Questions and hedged clauses ("maybe", "not sure") state nothing and are skipped.
- A booking request is never turned into a preference: "I'd like Thursday" says nothing
  about Thursdays in general, so only explicit availability/preference wording counts.
- Within one call the last statement per slot wins ("two boilers … sorry, three"), and a
  correction takes back the slot it replaces ("Mondays are fine - sorry, I mean Tuesdays").
- Secrets never leave this module verbatim: access codes become "access code on file",
  cards, ids and passwords are dropped from the fact (`contextdb_livekit.memory.secrets`).
- Every turn and note is neutralised first (`memory.safe_text.neutralise`: look-alike
  brackets, invisible characters, the wrapper's own words). A sentence or note that
  addresses call handlers or tries to change how calls are handled
  (`memory.instructions_screen`) yields no caller fact: it is kept as a `flagged_note`,
  vouched for by nobody, and never shown.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from datetime import date

from contextdb_livekit.api import (
    CallReader,
    EpistemicSource,
    Turn,
    corrects_last_turn,
    is_procedure_note,
    kinds_mentioned,
    neutralise,
    normal_text,
    redact_bounded,
    says_change,
)
from memory.equipment import EQUIPMENT
from memory.facts import (
    AGENT_CONFIDENCE,
    CALLER_CONFIDENCE,
    FLAGGED_CONFIDENCE,
    TOPICS,
    UNCONFIRMED_CONFIDENCE,
    CallerFact,
    FactKind,
    stated_kind,
)

MAX_SENTENCE_CHARS = 300
MAX_FACTS = 40

# Sentences end at . ! ? ; — clauses inside a sentence are the `CallReader`'s business.
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+")
# "Caller mentioned their mother only has Wednesdays free": what follows is read as said.
_CALLER_SAID = re.compile(
    r"^(?:the )?caller (?:now |also )?(?:says|said|mentioned|mentions|reports|reported|told us|"
    r"states|stated|confirmed|confirms|explained)(?: that)?\s+",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(r"\b((?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b")
# Kinds with one current value per slot, so two different values in one turn contradict.
_CONTRADICTABLE = frozenset(
    {
        "availability",
        "preferred_day",
        "equipment_count",
        "equipment_make",
        "boiler_type",
        "meter_location",
        "floor",
        "flat",
        "address",
        "contact_preference",
    }
)


def _sentences(text: str) -> list[str]:
    flat = neutralise(text)[: MAX_SENTENCE_CHARS * 4]
    return [s.strip() for s in _SENTENCE_SPLIT.split(flat) if s and s.strip()]


def facts_in_sentence(
    sentence: str,
    *,
    source: EpistemicSource,
    confidence: float,
    today: date,
    call_id: str,
    reader: CallReader | None = None,
) -> list[CallerFact]:
    """The typed facts one sentence states, read in the call's context (`CallReader`)."""
    found: list[CallerFact] = []
    for said in (reader or CallReader(EQUIPMENT)).read(sentence):
        if not said.sure:
            # Precision first: a reading the reader is not sure of keeps the words, not a fact.
            found.append(quote(sentence, today=today, call_id=call_id))
            continue
        value = said.value
        if said.kind in TOPICS:
            value = _sentence_value(sentence)  # the caller's words, never a paraphrase
        found.append(
            CallerFact(
                kind=stated_kind(said.kind),
                value=value,
                source=source,
                confidence=confidence,
                observed_on=today,
                polarity="negative" if said.negative else "positive",
                key=said.key,
                call_id=call_id,
                said=redact_bounded(sentence, MAX_SENTENCE_CHARS),
            )
        )
    return found


def quote(words: str, *, today: date, call_id: str) -> CallerFact:
    """The caller's own words, kept as said: never a typed fact."""
    return _kept_words(
        "quote", words.strip(), "user_stated", UNCONFIRMED_CONFIDENCE, today=today, call_id=call_id
    )


def _kept_words(
    kind: FactKind,
    text: str,
    source: EpistemicSource,
    confidence: float,
    *,
    today: date,
    call_id: str,
) -> CallerFact:
    """Words kept as written (neutralised, redacted, bounded), one slot per text."""
    kept = redact_bounded(neutralise(text), MAX_SENTENCE_CHARS)
    digest = hashlib.sha256(kept.casefold().encode()).hexdigest()[:8]
    return CallerFact(
        kind=kind,
        value=kept,
        source=source,
        confidence=confidence,
        observed_on=today,
        key=digest,
        call_id=call_id,
    )


def _sentence_value(sentence: str) -> str:
    """The sentence with any code replaced: the code itself is never stored."""
    redacted = redact_bounded(sentence, MAX_SENTENCE_CHARS)
    return redacted.strip().rstrip(".") or "access code on file"


def extract_call_facts(
    turns: Iterable[Turn],
    notes: Iterable[str],
    *,
    today: date,
    call_id: str,
) -> list[CallerFact]:
    """Typed facts a finished call leaves behind; one per slot, the call's last word wins."""
    turns = list(turns)  # read twice: the facts, then the days the caller spoke of
    by_slot: dict[tuple[str, str], CallerFact] = {}
    caller_slots: set[tuple[str, str]] = set()

    def keep(found: Iterable[CallerFact]) -> None:
        for item in found:
            # A model note never overrides what the caller said in the same call.
            if item.source != "user_stated" and item.slot in caller_slots:
                continue
            if item.source == "user_stated":
                caller_slots.add(item.slot)
            earlier = by_slot.pop(item.slot, None)  # re-insert: dict order is "last said"
            if (
                item.kind == "access_notes"
                and earlier is not None
                and earlier.source == item.source
            ):
                # Access details add up within a call ("side gate", "the dog barks").
                merged = f"{earlier.value}; {item.value}"[:MAX_SENTENCE_CHARS]
                item = dataclasses.replace(item, value=merged)
            by_slot[item.slot] = item

    def unsure(slot: tuple[str, str], *words: str) -> None:
        """A slot whose reading is in doubt: no typed fact, the caller's words instead."""
        by_slot.pop(slot, None)
        keep(quote(w, today=today, call_id=call_id) for w in words)

    # One reader for the call: a short answer is read against the agent's question, and a
    # correction takes back what the caller said just before it.
    reader = CallReader(EQUIPMENT)
    last_turn: dict[tuple[str, str], tuple[CallerFact, str]] = {}
    for turn in turns:
        if turn.role != "user":
            reader.agent_said(turn.text)
            continue
        reader.new_turn()
        this_turn: dict[tuple[str, str], tuple[CallerFact, str]] = {}
        contradicted: set[tuple[str, str]] = set()
        typed_here: set[str] = set()  # every kind the turn typed
        for sentence in _sentences(turn.text):
            if is_procedure_note(sentence):
                keep([flagged_note(sentence, today=today, call_id=call_id)])
                continue
            found = facts_in_sentence(
                sentence,
                source="user_stated",
                confidence=CALLER_CONFIDENCE,
                today=today,
                call_id=call_id,
                reader=reader,
            )
            typed_here.update(f.kind for f in found if f.kind != "quote")
            # The sentence's own last word per slot (the reader settles a sentence itself).
            said_here = {f.slot: f for f in found if f.kind in _CONTRADICTABLE}
            changes = bool(said_here) and says_change(sentence)
            for slot, item in said_here.items():
                earlier = this_turn.get(slot)
                values = {f.value for f in found if f.slot == slot}
                if changes:
                    contradicted.discard(slot)
                elif (
                    slot in contradicted
                    or len(values) > 1
                    or (earlier and earlier[0].value != item.value)
                ):
                    # "Not Saturdays. I do the car boot every Saturday", "second floor, well,
                    # first really": two readings of one slot in one turn, no correction or
                    # change between them; neither is kept.
                    contradicted.add(slot)
                    unsure(slot, *([earlier[1]] if earlier else []), sentence)
                this_turn[slot] = (item, sentence)
            keep(f for f in found if f.slot not in contradicted)
            for item in found:
                if item.kind in TOPICS:
                    # Not contradicted within a turn (two notes add up), but a correcting turn
                    # next takes them back like any other ("Oh no, wait, he's away that week").
                    this_turn.setdefault(item.slot, (item, sentence))
            for kind, key in reader.take_retracted():
                for slot, item in list(by_slot.items()):
                    if (item.kind, item.key) == (kind, key) and item.source == "user_stated":
                        del by_slot[slot]
        if last_turn and corrects_last_turn(turn.text):
            # "Let me recount... it's nine": a turn that corrects the last one takes back the
            # last turn's facts of any kind it talks about (or of every kind, when it types
            # nothing), unless it restates them.
            restated = {slot[0] for slot in this_turn}
            talked_about = kinds_mentioned(turn.text, EQUIPMENT) if typed_here else None
            for slot, (item, sentence) in last_turn.items():
                if item.kind in restated or slot in this_turn:
                    continue
                talked = talked_about is None or item.kind in talked_about
                if talked and by_slot.get(slot) is item:
                    unsure(slot, sentence, turn.text)
        if this_turn:
            last_turn = this_turn
    said_days = {
        day.removesuffix("s")
        for turn in turns
        if turn.role == "user"
        for day in _WEEKDAY.findall(normal_text(turn.text))
    }
    for note in notes:
        sentences = [_CALLER_SAID.sub("", s) for s in _sentences(note)]
        if is_procedure_note(note) or any(is_procedure_note(s) for s in sentences):
            keep([flagged_note(note, today=today, call_id=call_id)])
            continue
        typed = [
            f
            for sentence in sentences
            for f in facts_in_sentence(
                sentence,
                source="agent_inferred",
                confidence=AGENT_CONFIDENCE,
                today=today,
                call_id=call_id,
            )
        ]
        # A day the caller spoke of themselves, in words the reader did not take as a fact
        # ("maybe thursday", "my mum can't do Saturdays"), is not the model's to state: its
        # note is kept as a note, not as a fact about that day.
        typed = [f for f in typed if f.key not in said_days or f.slot in caller_slots]
        keep(typed or [_free_note(note, today=today, call_id=call_id)])
    return list(by_slot.values())[-MAX_FACTS:]


def _free_note(note: str, *, today: date, call_id: str) -> CallerFact:
    return _kept_words(
        "note", note, "agent_inferred", AGENT_CONFIDENCE, today=today, call_id=call_id
    )


def flagged_note(text: str, *, today: date, call_id: str) -> CallerFact:
    """A note that tries to change how calls are handled: kept, vouched for by nobody."""
    return _kept_words(
        "flagged_note", text, "third_party", FLAGGED_CONFIDENCE, today=today, call_id=call_id
    )
