"""A line's caller facts, declared once as a table of kinds: `FactKinds({kind: KindSpec})`.

Every write and every read goes through the table. Each fact names its slot explicitly (the
engine's own regex slotter is never relied on), one slot per attribute, or per key for a
keyed kind (a weekday, a date, the thing counted, the words' digest); a newer fact in a slot
supersedes the older one, so polarity is part of the value ("never Thursday" replaces an older
"Thursday works"). The table says which kinds a caller identified by caller ID alone may be
told, which are kept as the caller's own words under a topic, and how long each is kept.
A line's fact class subclasses `TypedFact[Kind]` and names its table (`kinds`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Generic, Literal, TypeVar

from contextdb_livekit.facts.stamps import observed_on, plain_text, stamp
from contextdb_livekit.kit.request_slots import REQUEST_ENTITY
from contextdb_livekit.memory.models import EpistemicSource, FactToRemember, Memory
from contextdb_livekit.reading.lexicon import WEEKDAYS

K = TypeVar("K", bound=str)
Polarity = Literal["positive", "negative"]
Words = Literal["note", "quote", "flagged"]


@dataclass(frozen=True)
class SlotKey:
    """How a keyed kind's key is found (from the key given, else the value), checked, and
    written after its attribute prefix."""

    name: str
    find: Callable[[str | None, str], str]  # (key, value) -> the key, or ValueError
    joiner: str = ""  # written as "_" in the attribute
    only: frozenset[str] | None = None  # the keys a stored attribute may hold

    def attribute(self, prefix: str, key: str) -> str:
        return prefix + (key.replace(self.joiner, "_") if self.joiner else key)

    def accepts(self, rest: str) -> bool:
        return self.only is None or rest in self.only


def _weekday(key: str | None, value: str) -> str:
    if key not in WEEKDAYS:
        raise ValueError("availability needs a weekday key")
    return key


def _iso_date(key: str | None, value: str) -> str:
    date.fromisoformat(key or "")
    return str(key)


def _digest(key: str | None, value: str) -> str:
    if not key:
        raise ValueError("a note needs a key")
    return key


WEEKDAY_KEY = SlotKey("weekday", _weekday, only=frozenset(WEEKDAYS))
DATE_KEY = SlotKey("date", _iso_date, joiner="-")
DIGEST_KEY = SlotKey("digest", _digest)


def named_key(one_name: Callable[[str], str]) -> SlotKey:
    """A key naming a thing ("5 rads" → "radiator"), from the key or else the value."""
    return SlotKey("named", lambda key, value: one_name(key or value), joiner=" ")


@dataclass(frozen=True)
class KindSpec(Generic[K]):
    """One kind of caller fact: its slot (entity, attribute or attribute prefix with `key`), its
    sentence (a template on `{value}`, or a function of the fact), whether a caller identified
    by caller ID alone may be told it, the retention setting it follows, and, for a kind kept as
    the caller's own words, its topic ("Parking")."""

    slot: tuple[str, str]
    sentence: str | Callable[[TypedFact[K]], str] = "{value}"
    told_on_caller_id: bool = False
    keep: str = "other_facts_days"
    key: SlotKey | None = None
    topic: str | None = None
    # Kinds sharing one slot: a phrase only this kind's sentence has ("was cancelled").
    marked_by: str | None = None
    # Days: a weekday kind's sentence for a day that does not work has `says_no`; a kind whose
    # sentence can say the only weekday that works matches `only_day` (group 1: the day).
    says_no: str | None = None
    only_day: re.Pattern[str] | None = None
    words: Words | None = None  # words kept as said: the caller's quote, a note, a flagged note

    def holds(self, entity: str, attribute: str) -> bool:
        """A stored memory in this slot is of this kind (or of one sharing the slot)."""
        if entity != self.slot[0]:
            return False
        prefix = self.slot[1]
        if self.key is None:
            return attribute == prefix
        return attribute.startswith(prefix) and self.key.accepts(attribute.removeprefix(prefix))

    def text(self, fact: TypedFact[K]) -> str:
        if self.topic is not None:
            return f'{self.topic}, in the caller\'s words: "{fact.value}"'
        if isinstance(self.sentence, str):
            return self.sentence.format(value=fact.value)
        return self.sentence(fact)


QUOTE_PREFIX = "The caller's own words, not confirmed: "


def words_kind(words: Words) -> KindSpec[K]:
    """Words kept as said, one slot per text: the caller's `quote` (shown quoted, never as a
    fact), the agent's `note`, a `flagged` note (kept for the record, never shown as a fact)."""
    entity, prefix, sentence = {
        "note": ("caller", "note_", "{value}"),
        "quote": ("caller", "quote_", QUOTE_PREFIX + '"{value}"'),
        "flagged": ("flagged", "note_", "Flagged note, not a caller fact: {value}"),
    }[words]
    keep = "caller_words_days"
    return KindSpec((entity, prefix), sentence, keep=keep, key=DIGEST_KEY, words=words)


@dataclass(frozen=True)
class TypedFact(Generic[K]):
    """One thing we know about a caller, with who vouches for it and when. A line's subclass
    names its table in `kinds`."""

    kind: K
    value: str
    source: EpistemicSource
    confidence: float
    observed_on: date
    polarity: Polarity = "positive"
    # The weekday, the thing counted, the date, the words' digest: what a keyed slot is per.
    key: str | None = None
    call_id: str = ""
    # The caller's own sentence that stated it (redacted, bounded): kept as a quote when the
    # fact is not confirmed.
    said: str = ""

    @property
    def kinds(self) -> FactKinds[K]:
        raise NotImplementedError("a line's fact class names its table")

    def __post_init__(self) -> None:
        if not self.value.strip():
            raise ValueError("fact value must not be empty")
        spec = self.kinds.spec(self.kind)
        if spec.key is not None:
            object.__setattr__(self, "key", spec.key.find(self.key, self.value))

    @property
    def slot(self) -> tuple[str, str]:
        spec = self.kinds.spec(self.kind)
        entity, attribute = spec.slot
        if spec.key is None:
            return (entity, attribute)
        return (entity, spec.key.attribute(attribute, str(self.key)))

    @property
    def sentence(self) -> str:
        return self.kinds.spec(self.kind).text(self)

    def to_write(self) -> FactToRemember:
        entity, attribute = self.slot
        return FactToRemember(
            content=self.sentence + stamp(self.source, self.confidence, self.observed_on),
            source=self.source,
            confidence=self.confidence,
            # Only a request (kit.request_slots) can gate an action; every caller fact is context.
            action_relevant=False,
            entity=entity,
            attribute=attribute,
        )


class FactKinds(Generic[K]):
    """A line's kinds of caller fact, and how it reads its own stored memories (the snapshot's
    `FactView`): typed kinds only, dated from their stamp, flagged notes never shown."""

    def __init__(self, specs: Mapping[K, KindSpec[K]]) -> None:
        self.specs = dict(specs)
        self.topics: dict[K, str] = {k: s.topic for k, s in self.specs.items() if s.topic}

    def __iter__(self) -> Iterator[K]:
        return iter(self.specs)

    def spec(self, kind: K) -> KindSpec[K]:
        return self.specs[kind]

    def kind_named(self, name: str) -> K | None:
        return next((kind for kind in self.specs if kind == name), None)

    def with_words(self, words: Words) -> K:
        return next(kind for kind, spec in self.specs.items() if spec.words == words)

    def kind_of(self, memory: Memory) -> K | None:
        """Which kind of caller fact a stored memory is, from its slot alone (and, for kinds
        sharing one slot, the phrase that marks one)."""
        entity, attribute = memory.entity_key or "", memory.attribute_key or ""
        if entity == REQUEST_ENTITY:
            return None  # a request of one call (kit.request_slots): never shown
        found: K | None = None
        for kind, spec in self.specs.items():
            if not spec.holds(entity, attribute):
                continue
            if spec.marked_by is None:
                found = found or kind
            elif spec.marked_by in memory.content:
                return kind
        return found

    def is_shown(self, memory: Memory) -> bool:
        return self.kind_of(memory) is not None

    def is_flagged(self, memory: Memory) -> bool:
        kind = self.kind_of(memory)
        return kind is not None and self.spec(kind).words == "flagged"

    def observed_on(self, memory: Memory) -> date | None:
        return observed_on(memory)

    def text(self, memory: Memory) -> str:
        return plain_text(memory)

    def needs_verified_caller(self, memory: Memory) -> bool:
        """Told to a caller identified by caller ID alone only when its kind says so; free text
        (notes, quoted words) may say where the home is, how to get in or who is there."""
        kind = self.kind_of(memory)
        return kind is None or not self.spec(kind).told_on_caller_id
