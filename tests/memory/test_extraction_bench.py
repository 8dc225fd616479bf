"""The extraction scorecard (`python -m bench.extraction`): its corpus and its arithmetic.

The held-out split is only checked for shape here; it is scored by the bench, once, never
asserted on (bench/extraction_data/README.md).
"""

from __future__ import annotations

from datetime import date

from bench.extraction import Item, Label, load, rules, score_item, scorecard, value_matches
from memory.extract import Turn
from memory.facts import CallerFact

DAY = date(2026, 12, 3)


def test_the_corpus_is_large_split_and_disjoint():
    tuning, heldout = load("tuning"), load("heldout")
    assert len(tuning) >= 250 and len(heldout) >= 150 and len(tuning) + len(heldout) >= 400
    assert not {i.id for i in tuning} & {i.id for i in heldout}
    # No exchange appears in both (a greeting or a bare "no, not any more" may).
    said = lambda items: {tuple(t.text.casefold() for t in i.turns) + i.notes for i in items}  # noqa: E731
    assert not said(tuning) & said(heldout)
    for split in (tuning, heldout):
        categories = {i.category for i in split}
        assert {"negation", "exclusive", "temporal", "correction_sentence", "correction_turns",
                "value_update", "nothing", "request", "unit", "parking", "pets",
                "who_home"} <= categories  # fmt: skip


def fact(kind: str, value: str, key: str | None = None) -> CallerFact:
    polarity = "negative" if value == "unavailable" else "positive"
    return CallerFact(kind, value, "user_stated", 0.9, DAY, polarity, key)  # type: ignore[arg-type]


def test_a_wrong_value_is_a_miss_and_a_false_fact_and_allowed_facts_are_neither():
    item = Item(
        "x", "temporal", (Turn("user", "..."),), (),
        expect=(Label("availability", "unavailable", "monday"), Label("floor", "2nd floor")),
        allow=(Label("availability", "available", "tuesday"),),
    )  # fmt: skip
    result = score_item(
        item,
        [
            fact("availability", "available", "monday"),  # wrong polarity
            fact("floor", "second floor"),  # same meaning, other words
            fact("availability", "available", "tuesday"),  # allowed
            fact("pets", "a dog"),  # never said: the caller's words kept under a topic
            fact("boiler_type", "combi"),  # never said
        ],
    )
    assert [m.kind for m in result.missed] == ["availability"]
    assert sorted(f.kind for f in result.false) == ["availability", "boiler_type"]
    assert [f.kind for f in result.off_topic] == ["pets"]  # words, counted apart
    card = scorecard([result])
    assert (card.by_kind["floor"].hit, card.by_kind["availability"].missed) == (1, 1)
    assert card.by_category["temporal"].false == 2 and card.by_category["temporal"].exact == 0
    assert card.off_topic == 1


def test_worded_labels_match_by_their_words_in_any_order():
    # The labelling policy: free-text kinds are "matched as words that must appear".
    stored = "Our meter is in a white box on the outside wall by the front door"
    assert value_matches("meter_location", "outside wall front door", stored)
    assert value_matches("pets", "dog", "two dogs, both friendly")
    assert not value_matches("meter_location", "back door", stored)
    assert not value_matches("address", "Little Haddon", "Rose Cottage, Church Lane")


def test_the_rules_hold_their_tuning_figures():
    # A floor for regressions on the tuning split only (the held-out split is never asserted).
    card = scorecard(score_item(item, rules(item)) for item in load("tuning"))
    total = card.total
    assert total.recall is not None and total.recall >= 0.95
    assert total.false / total.items <= 0.01
    # Never the wrong way round, never somebody else's.
    assert card.wrong_way == 0 and card.third_party == 0


def test_the_independent_split_is_disjoint_and_covers_every_category():
    """Written by someone who had not read the rules; scored by the bench, never asserted."""
    tuning, independent = (
        load("tuning"),
        [i for n in ("", "2", "3", "4", "5", "6") for i in load(f"independent{n}")],
    )
    assert len(independent) >= 600
    said = lambda items: {tuple(t.text.casefold() for t in i.turns) + i.notes for i in items}  # noqa: E731
    assert not said(tuning) & said(independent)
    new = {"third_party", "list_negation", "idiom", "count_per_thing", "numbers_as_words",
           "boiler_type", "meter_location", "contact"}  # fmt: skip
    assert new <= {i.category for i in independent}
    assert sum(i.style == "stt" for i in independent) >= len(independent) // 4
