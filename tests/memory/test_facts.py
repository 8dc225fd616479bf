"""The caller-fact model: write policy pins, extraction phrasings, snapshot rendering, and
the property that any sequence of statements leaves one current value per slot."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory import snapshot
from memory.extract import CallOutcome, Turn, extract_call_facts
from memory.facts import CallerFact, conflict_reason, fact_kind
from memory.local_engine import LocalEngine
from memory.models import Memory
from memory.write_policy import action_request

TODAY = date(2026, 12, 3)


def extract(*lines: str, notes: tuple[str, ...] = (), outcome: CallOutcome | None = None):  # type: ignore[no-untyped-def]
    return extract_call_facts(
        [Turn("user", line) for line in lines],
        list(notes),
        outcome or CallOutcome(),
        today=TODAY,
        call_id="call-1",
    )


def kinds(facts) -> set[tuple[str, str | None, str]]:  # type: ignore[no-untyped-def]
    return {(f.kind, f.key, f.value) for f in facts}


# -- write policy: source, confidence and action relevance of every write path -------------


def test_caller_words_are_first_party_context_never_evidence():
    [fact] = extract("Thursdays work fine for me")
    written = fact.to_write()
    assert (written.source, written.confidence, written.action_relevant) == (
        "user_stated",
        0.9,
        False,
    )


def test_model_notes_are_agent_inferred_below_the_callers_words():
    [fact] = extract(notes=("Caller has two boilers",))
    written = fact.to_write()
    assert (written.source, written.confidence, written.action_relevant) == (
        "agent_inferred",
        0.6,
        False,
    )


def test_host_records_are_third_party_context():
    outcome = CallOutcome(booked=((date(2026, 12, 10), "bk_1"),), cancelled=())
    [fact] = extract(outcome=outcome)
    written = fact.to_write()
    assert (written.source, written.confidence, written.action_relevant) == (
        "third_party",
        0.95,
        False,
    )
    assert "reference bk_1" in written.content


def test_a_request_is_the_only_evidence_and_starts_below_the_threshold():
    written = action_request(
        "book_visit", "book a service visit", date(2026, 12, 10), "c", today=TODAY
    )
    assert (written.source, written.confidence, written.action_relevant) == (
        "agent_inferred",
        0.6,
        True,
    )
    assert (written.entity, written.attribute) == (
        "request",
        "book_visit_on_2026_12_10_call_" + written.attribute[-10:],
    )


def test_a_note_never_overrides_the_callers_words_in_the_same_call():
    facts = extract("we have two boilers", notes=("Caller has three boilers",))
    [count] = [f for f in facts if f.kind == "equipment_count"]
    assert (count.value, count.source) == ("2 boilers", "user_stated")


# -- extraction phrasings ------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "I can't do Thursdays any more",
        "never thursday please",
        "thursdays don't work for me",
        "thursday is no good for us",
        "not on a thursday",
        "we cannot do thursdays",
        "anything but thursday",
        "i no longer do thursdays",
        "THURSDAYS ARE OUT",
    ],
)
def test_negative_availability_phrasings(line):
    assert ("availability", "thursday", "unavailable") in kinds(extract(line))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("only fridays work now", ("preferred_day", None, "friday only")),
        ("fridays only from now on", ("preferred_day", None, "friday only")),
        ("i usually prefer mondays", ("preferred_day", None, "monday")),
        ("tuesday works for me", ("availability", "tuesday", "available")),
        ("i'm home on wednesdays", ("availability", "wednesday", "available")),
        ("there are three boilers now", ("equipment_count", None, "3 boilers")),
        ("we have 2 heat pumps", ("equipment_count", None, "2 heat pumps")),
        ("my boiler is a vaillant ecotec 825", ("equipment_make", None, "Vaillant Ecotec 825")),
        ("we moved to 14 oak lane in march", ("address", None, "14 Oak Lane")),
        ("my new address is 3b station road", ("address", None, "3b Station Road")),
        ("please text me rather than calling", ("contact_preference", None, "text message")),
    ],
)
def test_fact_phrasings(line, expected):
    assert expected in kinds(extract(line))


@pytest.mark.parametrize(
    "line",
    [
        "I'd like to book a visit on thursday",
        "can you come on thursday",
        "do you do thursdays?",
        "maybe thursdays don't work, not sure",
        "i think we have two boilers",
        "yes",
        "thanks, bye",
    ],
)
def test_requests_questions_and_hedges_state_nothing(line):
    assert extract(line) == []


def test_last_word_in_a_call_wins_per_slot():
    facts = extract("thursdays work for me", "actually, never thursday, sorry")
    assert kinds(facts) == {("availability", "thursday", "unavailable")}


# -- snapshot ------------------------------------------------------------------------------


def memory(fact: CallerFact, memory_id: str, **overrides) -> Memory:  # type: ignore[no-untyped-def]
    written = fact.to_write()
    data = dict(
        id=memory_id, content=written.content, user_id="u", epistemic_source=written.source,
        confidence=written.confidence, corroboration_count=1,
        action_relevant=written.action_relevant, requires_confirmation=False, confirmed=False,
        independent_corroboration=1, injection_suspect=False, entity_key=written.entity,
        attribute_key=written.attribute, valid_until=None, superseded_by=None,
    )  # fmt: skip
    data.update(overrides)
    return Memory(**data)  # type: ignore[arg-type]


def test_snapshot_hides_superseded_flagged_and_requests():
    current = memory(CallerFact("address", "2 New Street", "user_stated", 0.9, TODAY), "a")
    old = memory(
        CallerFact("address", "1 Old Street", "user_stated", 0.9, TODAY), "b", superseded_by="a"
    )
    flagged = memory(
        CallerFact("note", "x", "agent_inferred", 0.6, TODAY, key="k"), "c", injection_suspect=True
    )
    asked = memory(
        CallerFact(
            "request", "book a service visit", "agent_inferred", 0.6, TODAY,
            key="2026-12-10", call_id="c", action="book_visit",
        ),
        "d",
    )  # fmt: skip
    text, shown = snapshot.render([current, old, flagged, asked])
    assert [m.id for m in shown] == ["a"]
    assert "2 New Street" in text and "1 Old Street" not in text


@given(payload=st.text(max_size=200))
def test_no_memory_text_can_open_or_close_the_wrapper(payload):
    fact = CallerFact(
        "note", payload if payload.strip() else "x", "agent_inferred", 0.6, TODAY, key="k"
    )
    text, _ = snapshot.render([memory(fact, "n")])
    if text:
        assert text.count(snapshot.OPEN) == 1 and text.count(snapshot.CLOSE) == 1
        assert text.startswith(snapshot.OPEN) and text.endswith(snapshot.CLOSE)
        body = text[len(snapshot.OPEN) : -len(snapshot.CLOSE)]
        assert "[" not in body and "]" not in body and "\n- " in "\n" + body.strip("\n")


def test_snapshot_of_fifty_facts_stays_in_its_token_budget():
    text_of = "Detail number {} about the property and the boiler room".format
    facts = [
        memory(CallerFact("note", text_of(i), "agent_inferred", 0.6, TODAY, key=str(i)), str(i))
        for i in range(50)
    ]
    text, shown = snapshot.render(facts, max_tokens=200)
    assert len(text) // 4 <= 200 and 0 < len(shown) < 50


def test_conflict_reason_speaks_the_newest_negative():
    never = memory(
        CallerFact(
            "availability", "unavailable", "user_stated", 0.9, date(2026, 11, 20),
            polarity="negative", key="thursday",
        ),
        "n",
    )  # fmt: skip
    assert conflict_reason([never], date(2026, 12, 10)) == (
        "You told us on 20 November that Thursdays no longer work for you."
    )
    assert conflict_reason([never], date(2026, 12, 11)) is None
    assert fact_kind(never) == "availability"


# -- property: one current value per slot, whatever the caller says, in any order -----------

STATEMENTS = st.sampled_from(
    [
        "thursdays work for me",
        "never thursday",
        "thursday is fine",
        "we can't do thursdays",
        "we have two boilers",
        "three boilers now",
        "one boiler",
        "only fridays work now",
        "i prefer mondays",
        "we moved to 12 elm road",
        "we moved to 3 oak lane",
    ]
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(st.lists(STATEMENTS, min_size=1, max_size=3), min_size=1, max_size=4))
def test_any_sequence_of_calls_leaves_one_current_value_per_slot(calls):
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            engine = await LocalEngine.open(Path(tmp) / "m.sqlite3")
            try:
                expected: dict[tuple[str, str], str] = {}
                for n, lines in enumerate(calls):
                    facts = extract_call_facts(
                        [Turn("user", line) for line in lines], [], CallOutcome(),
                        today=TODAY, call_id=f"call-{n}",
                    )  # fmt: skip
                    if facts:
                        await engine.remember_many(
                            "u", [f.to_write() for f in facts], idempotency_key=f"k-{n}"
                        )
                    for f in facts:
                        expected[f.slot] = f.to_write().content
                for (entity, attribute), content in expected.items():
                    current = await engine.db.slot_facts(entity, attribute, user_id="u")
                    assert [m.content for m in current] == [content], (entity, attribute)
            finally:
                await engine.close()

    asyncio.run(run())
