"""The library's fact-kind table (`contextdb_livekit.api.FactKinds`) on a made-up line: slots,
keys, the caller-ID rule, kinds sharing a slot, retention and the day caution."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Literal

import pytest
from contextdb_cloud_client import Memory

from contextdb_livekit.api import (
    DATE_KEY,
    REQUEST_ENTITY,
    WEEKDAY_KEY,
    FactKinds,
    FactRetentionSettings,
    KindSpec,
    TypedFact,
    day_caution,
    named_key,
    retention_of,
    words_kind,
)
from memory.equipment import EQUIPMENT

Kind = Literal["day", "favourite", "pet_count", "gate", "lesson", "lesson_off", "note", "quote"]
KINDS: FactKinds[Kind] = FactKinds(
    {
        "day": KindSpec(
            ("days", ""),
            lambda f: f"{str(f.key).capitalize()}s {'do not ' * (f.polarity == 'negative')}suit",
            True,
            "short_days",
            key=WEEKDAY_KEY,
            says_no="do not suit",
        ),
        "favourite": KindSpec(
            ("caller", "fav"), "Only {value}", True, only_day=re.compile(r"Only (\w+)s\b")
        ),
        "pet_count": KindSpec(("home", "count_"), "Pets: {value}", key=named_key(str.lower)),
        "gate": KindSpec(("home", "gate"), topic="The gate", keep="short_days"),
        "lesson": KindSpec(("lesson", "on_"), "Lesson on {value}", True, key=DATE_KEY),
        "lesson_off": KindSpec(
            ("lesson", "on_"), "Lesson {value} was dropped", True, key=DATE_KEY, marked_by="dropped"
        ),
        "note": words_kind("note"),
        "quote": words_kind("quote"),
    }
)
DAY = date(2026, 12, 3)


class Fact(TypedFact[Kind]):
    @property
    def kinds(self) -> FactKinds[Kind]:
        return KINDS


class Settings(FactRetentionSettings):
    short_days: int = 5


def stored(fact: Fact, memory_id: str = "m") -> Memory:
    w = fact.to_write()
    return Memory(
        id=memory_id, content=w.content, user_id="u", epistemic_source=w.source,
        confidence=w.confidence, corroboration_count=0, action_relevant=False,
        requires_confirmation=False, confirmed=False, independent_corroboration=0,
        injection_suspect=False, entity_key=w.entity, attribute_key=w.attribute,
        valid_until=None, superseded_by=None,
    )  # fmt: skip


def test_keyed_slots_and_their_checks():
    assert Fact("day", "no", "user_stated", 0.9, DAY, key="friday").slot == ("days", "friday")
    assert Fact("lesson", "A1", "third_party", 0.95, DAY, key="2026-12-10").slot == (
        "lesson",
        "on_2026_12_10",
    )
    assert Fact("pet_count", "Two Dogs", "user_stated", 0.9, DAY).slot == (
        "home",
        "count_two_dogs",
    )
    assert Fact("gate", "x", "user_stated", 0.9, DAY).slot == ("home", "gate")
    with pytest.raises(ValueError):
        Fact("day", "no", "user_stated", 0.9, DAY, key="someday")
    with pytest.raises(ValueError):
        Fact("lesson", "A1", "third_party", 0.95, DAY, key="soon")
    with pytest.raises(ValueError):
        Fact("note", "words", "agent_inferred", 0.6, DAY)
    with pytest.raises(ValueError):
        Fact("gate", " ", "user_stated", 0.9, DAY)


def test_written_form_is_the_sentence_and_its_stamp():
    said = Fact("gate", "code is on the post", "user_stated", 0.9, DAY).to_write()
    assert (
        said.content == 'The gate, in the caller\'s words: "code is on the post" (said 2026-12-03)'
    )
    confirmed = Fact("favourite", "Fridays", "user_stated", 0.95, DAY).to_write()
    assert confirmed.content == "Only Fridays (confirmed 2026-12-03)"
    assert not confirmed.action_relevant
    noted = Fact("note", "likes tea", "agent_inferred", 0.6, DAY, key="ab12").to_write()
    assert (noted.entity, noted.attribute, noted.content) == (
        "caller",
        "note_ab12",
        "likes tea (noted 2026-12-03)",
    )


def test_the_table_reads_its_memories_back():
    off = stored(Fact("lesson_off", "A1", "third_party", 0.95, DAY, key="2026-12-10"))
    on = stored(Fact("lesson", "A1", "third_party", 0.95, DAY, key="2026-12-10"))
    gate = stored(Fact("gate", "side", "user_stated", 0.9, DAY))
    day = stored(Fact("day", "yes", "user_stated", 0.9, DAY, key="monday"))
    assert [KINDS.kind_of(m) for m in (off, on, gate, day)] == [
        "lesson_off",
        "lesson",
        "gate",
        "day",
    ]
    assert KINDS.observed_on(gate) == DAY and KINDS.text(day) == "Mondays suit"
    # A weekday slot holds weekdays only: anything else in its entity is no kind of ours.
    assert KINDS.kind_of(Memory(**{**day.__dict__, "attribute_key": "someday"})) is None
    assert KINDS.kind_of(Memory(**{**gate.__dict__, "attribute_key": "gate_2"})) is None
    # Caller ID alone: only the kinds told on it; free text and unknown slots never.
    assert not KINDS.needs_verified_caller(day) and KINDS.needs_verified_caller(gate)
    request = stored(Fact("day", "yes", "user_stated", 0.9, DAY, key="monday"))
    request = Memory(**{**request.__dict__, "entity_key": REQUEST_ENTITY})
    assert KINDS.kind_of(request) is None and not KINDS.is_shown(request)
    assert KINDS.needs_verified_caller(request)


def test_retention_follows_each_kinds_setting():
    policy = retention_of(KINDS, Settings(), more=[("account", "x_", "caller_words_days")])
    assert policy.keep_fact("home", "gate") == timedelta(days=5)
    assert policy.keep_fact("days", "monday") == timedelta(days=5)
    assert policy.keep_fact("caller", "quote_1") == timedelta(days=90)
    assert policy.keep_fact(REQUEST_ENTITY, "book_x") == timedelta(days=7)
    assert policy.keep_fact("account", "x_1") == timedelta(days=90)
    assert policy.keep_fact("home", "count_dogs") == timedelta(days=365)
    with pytest.raises(ValueError):
        retention_of(KINDS, FactRetentionSettings())  # no `short_days` setting


def test_the_newest_word_about_the_day_wins():
    words = EQUIPMENT  # any line's words: typed facts never need the reader
    no = stored(Fact("day", "no", "user_stated", 0.9, date(2026, 11, 1), "negative", "thursday"))
    yes = stored(Fact("day", "yes", "user_stated", 0.9, date(2026, 11, 2), key="thursday"), "y")
    thursday = date(2026, 12, 10)
    assert day_caution(KINDS, [no], thursday, words) == (
        "You told us on 1 November that Thursdays no longer work for you."
    )
    assert day_caution(KINDS, [no, yes], thursday, words) is None
    only = stored(Fact("favourite", "Fridays", "user_stated", 0.9, DAY), "o")
    assert day_caution(KINDS, [no, only], thursday, words) == (
        "You told us on 3 December that only Fridays work for you."
    )
    assert day_caution(KINDS, [only], date(2026, 12, 11), words) is None


def test_on_one_day_the_word_about_the_day_itself_cautions_whatever_the_recall_order():
    # "we used to do thursdays but from now on it's fridays only": both said on one day.
    words = EQUIPMENT
    no = stored(Fact("day", "no", "user_stated", 0.9, DAY, "negative", "thursday"))
    only = stored(Fact("favourite", "Fridays", "user_stated", 0.9, DAY), "o")
    thursday = date(2026, 12, 10)
    for memories in ([no, only], [only, no]):
        assert day_caution(KINDS, memories, thursday, words) == (
            "You told us on 3 December that Thursdays no longer work for you."
        )


def test_the_lines_policy_keeps_service_credits_as_long_as_visits():
    from memory.retention import RetentionSettings, retention_policy

    settings = RetentionSettings(RETENTION_VISITS_DAYS=11, RETENTION_OTHER_FACTS_DAYS=12)
    policy = retention_policy(settings)
    assert policy.keep_fact("account", "credit_abc") == timedelta(days=11)
    assert policy.keep_fact("visit", "on_2026_12_10") == timedelta(days=11)
