"""Caller-fact extraction scorecard: any extractor against the labelled corpus.

    python -m bench.extraction [--split tuning|heldout] [--extractor rules|llm] [--errors]

`rules` runs `memory.extract.extract_call_facts` offline. `llm` runs
`memory.llm_extract.extract_with_model` against any OpenAI-compatible endpoint: OPENAI_BASE_URL
(default https://api.openai.com/v1), OPENAI_API_KEY, OPENAI_LLM_MODEL (or --model). A model
answer that fails (timeout, HTTP error, schema) is counted as a failure and scores as no facts:
it never falls back to the rules here, so the figures are the model's own.

Per fact kind it prints precision, recall and false facts (a stored fact the caller never
stated: a wrong value in a labelled slot, or a slot nobody labelled; facts an item `allow`s
are neither). Worded kinds (`memory.facts.TOPICS`: parking, pets, access, who is home, the
meter) keep the caller's sentence under its topic and are shown as their words, never as a
fact: a label's words found there count as recall, and a sentence kept under a topic the
item does not label is counted apart ("words kept off topic"), not as a false fact. The
last line also gives the figure counting them as facts, as every scorecard before did.
Per category (negation, temporal, value_update, ...) it prints recall, false
facts per item, and the share of items whose facts were exactly right. The corpus and its
labelling policy: bench/extraction_data/README.md. The held-out split is scored only when
asked for by name, and never tuned on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memory.equipment import EQUIPMENT
from memory.extract import Turn, extract_call_facts
from memory.facts import TOPICS, WEEKDAYS, CallerFact

DATA = Path(__file__).resolve().parent / "extraction_data"
TODAY = date(2026, 12, 3)
# The label vocabulary: every kind a caller can state (memory.facts.StatedKind).
KINDS = (
    "availability", "preferred_day", "preferred_time", "address", "equipment_make",
    "equipment_count", "access_notes", "contact_preference", "floor", "flat", "parking", "pets",
    "who_home", "boiler_type", "meter_location",
)  # fmt: skip
_NOT_SCORED = {"note", "quote", "flagged_note", "request", "visit_booked", "visit_cancelled"}


@dataclass(frozen=True)
class Label:
    kind: str
    value: str
    key: str | None = None


@dataclass(frozen=True)
class Item:
    id: str
    category: str
    turns: tuple[Turn, ...]
    notes: tuple[str, ...]
    expect: tuple[Label, ...]
    allow: tuple[Label, ...] = ()
    style: str = "written"  # or "stt": lower case, unpunctuated, as speech-to-text writes


def _label(raw: dict[str, str], where: str) -> Label:
    kind, value, key = raw.get("kind", ""), str(raw.get("value", "")).strip(), raw.get("key")
    if kind not in KINDS:
        raise ValueError(f"{where}: unknown kind {kind!r}")
    if not value:
        raise ValueError(f"{where}: empty value")
    if kind == "equipment_count":
        # Counts are per thing counted; older labels name it only in the value.
        # A thing no rule counts keeps its own name, so two of them are two slots.
        thing = EQUIPMENT.counted_thing(str(key or value))
        key = thing if thing != "unit" or not key else str(key).casefold().removesuffix("s")
    elif (kind == "availability") != (key is not None):
        raise ValueError(f"{where}: a key is given exactly for availability and counts")
    if kind == "availability" and (
        key not in WEEKDAYS or value not in ("available", "unavailable")
    ):
        raise ValueError(f"{where}: availability is a weekday, available or unavailable")
    return Label(kind, value, key)


def load(split: str) -> list[Item]:
    """The split's items; a malformed line is a ValueError naming it."""
    path = DATA / f"{split}.jsonl"
    items: list[Item] = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name}:{n}"
        raw = json.loads(line)
        if raw["id"] in seen:
            raise ValueError(f"{where}: duplicate id {raw['id']}")
        seen.add(raw["id"])
        turns = tuple(Turn(role, text) for role, text in raw["turns"])
        if not turns or any(t.role not in ("user", "assistant") or not t.text for t in turns):
            raise ValueError(f"{where}: turns are [user|assistant, text] pairs")
        expect = tuple(_label(f, where) for f in raw.get("expect", []))
        slots = [(f.kind, f.key) for f in expect]
        if len(slots) != len(set(slots)):
            raise ValueError(f"{where}: one expected fact per slot")
        items.append(
            Item(
                raw["id"],
                raw["category"],
                turns,
                tuple(raw.get("notes", [])),
                expect,
                tuple(_label(f, where) for f in raw.get("allow", [])),
                raw.get("style", "written"),
            )
        )
    return items


# -- value matching: the same meaning, whoever worded it -------------------------------------

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.casefold()).split())


def _count(text: str) -> tuple[int, str] | None:
    words = _words(text).split()
    for i, word in enumerate(words):
        n = int(word) if word.isdigit() else _NUMBERS.get(word)
        if n is not None and i + 1 < len(words):
            unit = " ".join(words[i + 1 :])
            return n, re.sub(r"s\b", "", unit)
    return None


def _floor(text: str) -> str | None:
    words = _words(text)
    for name in ("lower ground", "ground", "basement", "top", "penthouse"):
        if name in words:
            return name
    if match := re.search(r"\b(\d{1,3})(?:st|nd|rd|th)?\b", words):
        return match.group(1)
    return next((str(n) for w, n in _ORDINALS.items() if w in words.split()), None)


def _flat(text: str) -> str | None:
    match = re.search(r"\b(\d{1,4}[a-z]?|[a-z]\d{1,4})\b", _words(text))
    return match.group(1) if match else None


def _contact(text: str) -> str | None:
    words = _words(text)
    if re.search(r"\blandline\b", words):
        return "landline"
    if re.search(r"\b(mobile|cell)\b", words) and not re.search(r"\b(text|sms|message)\b", words):
        return "mobile"
    if re.search(r"\b(text|sms|texting|message)\b", words):
        return "text message"
    if re.search(r"\b(e ?mail|emails?)\b", words):
        return "email"
    if re.search(r"\b(phone|call|ring)\b", words):
        return "phone call"
    return None


def _day(text: str) -> str:
    words = _words(text).split()
    days = [w.removesuffix("s") for w in words if w.removesuffix("s") in WEEKDAYS]
    only = "only" in words or "exclusively" in words
    return (days[0] if days else "") + (" only" if only else "")


def value_matches(kind: str, label: str, stored: str) -> bool:
    if kind == "availability":
        return label.casefold() == stored.casefold()
    if kind == "contact_preference":
        return _contact(label) is not None and _contact(label) == _contact(stored)
    if kind == "preferred_day":
        return _day(label) == _day(stored)
    if kind == "equipment_count":
        said, kept = _count(label), _count(stored)
        return said is not None and kept is not None and said[0] == kept[0]
    if kind == "boiler_type":
        return _words(label) == _words(stored)
    if kind == "preferred_time":  # "mornings" and "morning" are one part of the day
        return _words(label).removesuffix("s") == _words(stored).removesuffix("s")
    if kind == "floor":
        return _floor(label) is not None and _floor(label) == _floor(stored)
    if kind == "flat":
        return _flat(label) is not None and _flat(label) == _flat(stored)
    # Free text (make, address, access, parking, pets, who_home, the meter): every labelled
    # word appears in what was stored, in any order ("matched as words that must appear", as
    # the corpus README's policy says: "outside wall front door" is in "on the outside wall by
    # the front door").
    kept = _words(stored)
    return all(word in kept for word in _words(label).split())


def _matches(label: Label, fact: CallerFact) -> bool:
    if label.kind != fact.kind or (label.key or None) != (fact.key if label.key else None):
        return False
    return value_matches(label.kind, label.value, fact.value)


# -- scoring ---------------------------------------------------------------------------------


@dataclass
class Tally:
    hit: int = 0
    missed: int = 0
    false: int = 0
    items: int = 0
    exact: int = 0

    @property
    def precision(self) -> float | None:
        return self.hit / (self.hit + self.false) if self.hit + self.false else None

    @property
    def recall(self) -> float | None:
        return self.hit / (self.hit + self.missed) if self.hit + self.missed else None


@dataclass
class ItemResult:
    item: Item
    facts: list[CallerFact]
    missed: list[Label]
    false: list[CallerFact]
    failed: bool = False
    # The caller's sentence kept under a topic the item does not label (a worded kind).
    off_topic: list[CallerFact] = field(default_factory=list)


@dataclass
class Scorecard:
    by_kind: dict[str, Tally] = field(default_factory=dict)
    by_category: dict[str, Tally] = field(default_factory=dict)
    by_style: dict[str, Tally] = field(default_factory=dict)
    results: list[ItemResult] = field(default_factory=list)

    @property
    def total(self) -> Tally:
        out = Tally()
        for t in self.by_category.values():
            out.hit, out.missed, out.false = (
                out.hit + t.hit,
                out.missed + t.missed,
                out.false + t.false,
            )
            out.items, out.exact = out.items + t.items, out.exact + t.exact
        return out

    @property
    def failures(self) -> int:
        return sum(r.failed for r in self.results)

    @property
    def wrong_way(self) -> int:
        """Availability stored the wrong way round: the weekday is labelled the other way."""
        return sum(
            1
            for r in self.results
            for fact in r.false
            if fact.kind == "availability"
            and any(
                label.kind == "availability" and label.key == fact.key
                for label in (*r.item.expect, *r.item.allow)
            )
        )

    @property
    def third_party(self) -> int:
        """Facts stored from an item about somebody else (category third_party)."""
        return sum(len(r.false) for r in self.results if r.item.category == "third_party")

    @property
    def off_topic(self) -> int:
        return sum(len(r.off_topic) for r in self.results)

    @property
    def third_party_words(self) -> int:
        """Sentences about somebody else kept under one of the caller's topics."""
        return sum(len(r.off_topic) for r in self.results if r.item.category == "third_party")


def score_item(item: Item, facts: list[CallerFact], failed: bool = False) -> ItemResult:
    typed = [f for f in facts if f.kind not in _NOT_SCORED]
    matched: set[int] = set()
    false: list[CallerFact] = []
    off_topic: list[CallerFact] = []
    for fact in typed:
        hit = next(
            (
                i
                for i, label in enumerate(item.expect)
                if i not in matched and _matches(label, fact)
            ),
            None,
        )
        if hit is not None:
            matched.add(hit)
        elif not any(_matches(label, fact) for label in item.allow):
            (off_topic if fact.kind in TOPICS else false).append(fact)
    missed = [label for i, label in enumerate(item.expect) if i not in matched]
    return ItemResult(item, facts, missed, false, failed, off_topic)


def scorecard(results: Iterable[ItemResult]) -> Scorecard:
    card = Scorecard()
    for result in results:
        card.results.append(result)
        category = card.by_category.setdefault(result.item.category, Tally())
        style = card.by_style.setdefault(result.item.style, Tally())
        missed = Counter(label.kind for label in result.missed)
        expected = Counter(label.kind for label in result.item.expect)
        for kind in KINDS:
            tally = card.by_kind.setdefault(kind, Tally())
            tally.hit += expected[kind] - missed[kind]
            tally.missed += missed[kind]
        for fact in result.false:
            card.by_kind.setdefault(fact.kind, Tally()).false += 1
        category.items += 1
        category.hit += len(result.item.expect) - len(result.missed)
        category.missed += len(result.missed)
        category.false += len(result.false)
        category.exact += not (result.missed or result.false or result.off_topic)
        style.items += 1
        style.hit += len(result.item.expect) - len(result.missed)
        style.missed += len(result.missed)
        style.false += len(result.false)
        style.exact += not (result.missed or result.false or result.off_topic)
    return card


def rules(item: Item) -> list[CallerFact]:
    return extract_call_facts(item.turns, item.notes, today=TODAY, call_id=f"bench-{item.id}")


async def run(
    items: list[Item], extractor: str, *, model: str, timeout_s: float, workers: int
) -> Scorecard:
    if extractor == "rules":
        return scorecard(score_item(item, rules(item)) for item in items)
    from contextdb_livekit.api import ModelExtractionError
    from memory.llm_extract import extract_with_model

    base_url = os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    api_key = os.environ.get("OPENAI_API_KEY", "")
    gate = asyncio.Semaphore(workers)

    async def one(item: Item) -> ItemResult:
        async with gate:
            try:
                facts = await extract_with_model(
                    item.turns, item.notes, today=TODAY,
                    call_id=f"bench-{item.id}", base_url=base_url, api_key=api_key,
                    model=model, timeout_s=timeout_s, fallback=None,
                )  # fmt: skip
            except ModelExtractionError as exc:
                print(f"{item.id}: model extraction failed: {exc}", file=sys.stderr)
                return score_item(item, [], failed=True)
            return score_item(item, facts)

    return scorecard(await asyncio.gather(*(one(item) for item in items)))


def _pct(value: float | None) -> str:
    return "    -" if value is None else f"{value * 100:5.1f}"


def report(card: Scorecard, title: str, *, errors: bool = False) -> None:
    total = card.total
    print(f"{title}: {total.items} items, {total.hit + total.missed} labelled facts")
    print(f"{'kind':<20}{'labelled':>9}{'found':>7}{'prec %':>8}{'recall %':>10}{'false':>7}")
    for kind, t in card.by_kind.items():
        if t.hit + t.missed + t.false == 0:
            continue
        print(
            f"{kind:<20}{t.hit + t.missed:>9}{t.hit:>7}{_pct(t.precision):>8}"
            f"{_pct(t.recall):>10}{t.false:>7}"
        )
    print(
        f"\n{'category':<20}{'items':>6}{'labelled':>9}{'recall %':>10}{'false':>7}"
        f"{'false/item %':>14}{'exact %':>9}"
    )
    for name, t in [
        *sorted(card.by_category.items()),
        *((f"style: {style}", t) for style, t in sorted(card.by_style.items())),
    ]:
        print(
            f"{name:<20}{t.items:>6}{t.hit + t.missed:>9}{_pct(t.recall):>10}{t.false:>7}"
            f"{_pct(t.false / t.items):>14}{_pct(t.exact / t.items):>9}"
        )
    print(
        f"{'all':<20}{total.items:>6}{total.hit + total.missed:>9}{_pct(total.recall):>10}"
        f"{total.false:>7}{_pct(total.false / total.items):>14}{_pct(total.exact / total.items):>9}"
    )
    print(f"precision {_pct(total.precision).strip()} %, model failures {card.failures}")
    print(
        f"false facts per 100 items {100 * total.false / max(total.items, 1):.1f}, "
        f"availability the wrong way round {card.wrong_way}, "
        f"third-party statements stored {card.third_party}"
    )
    per_100 = 100 / max(total.items, 1)
    print(
        f"words kept off topic per 100 items {card.off_topic * per_100:.1f} "
        f"(about somebody else {card.third_party_words}); counting them as facts: "
        f"false facts per 100 items {(total.false + card.off_topic) * per_100:.1f}"
    )
    if errors:
        for result in card.results:
            if not (result.missed or result.false or result.off_topic or result.failed):
                continue
            said = " | ".join(f"{t.role[0]}: {t.text}" for t in result.item.turns)
            notes = "".join(f" | note: {n}" for n in result.item.notes)
            print(f"\n{result.item.id} [{result.item.category}] {said}{notes}")
            for label in result.missed:
                print(
                    f"  missed {label.kind}{'/' + label.key if label.key else ''} = {label.value}"
                )
            for fact in result.false:
                print(f"  false  {fact.kind}{'/' + fact.key if fact.key else ''} = {fact.value}")
            for fact in result.off_topic:
                print(f"  words  {fact.kind} = {fact.value}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--split",
        # Every set in extraction_data/: tuning, heldout, independent, independent2, ...
        choices=sorted(path.stem for path in DATA.glob("*.jsonl")),
        default="tuning",
    )
    parser.add_argument("--extractor", choices=("rules", "llm"), default="rules")
    parser.add_argument("--model", default=os.environ.get("OPENAI_LLM_MODEL", "gpt-4.1-mini"))
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per model call")
    parser.add_argument("--workers", type=int, default=4, help="model calls in flight")
    parser.add_argument("--errors", action="store_true", help="list every missed or false fact")
    args = parser.parse_args(argv)
    items = load(args.split)
    card = asyncio.run(
        run(items, args.extractor, model=args.model, timeout_s=args.timeout, workers=args.workers)
    )
    name = args.extractor if args.extractor == "rules" else f"llm ({args.model})"
    report(card, f"{name} on {args.split}", errors=args.errors)


if __name__ == "__main__":
    main()
