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

from contextdb_livekit.api import says_change
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.memory import snapshot
from contextdb_livekit.memory.models import FactToRemember, Memory
from memory.cautions import conflict_reason
from memory.extract import Turn, extract_call_facts
from memory.facts import CALLER_FACTS, CallerFact
from testkit.visit_requests import action_request

TODAY = date(2026, 12, 3)


def extract(*lines: str, notes: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    return extract_call_facts(
        [Turn("user", line) for line in lines],
        list(notes),
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
    fact = CallerFact("visit_booked", "bk_1", "third_party", 0.95, TODAY, key="2026-12-10")
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
        "book_visit_2026_12_10_call_" + written.attribute[-10:],
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
        ("there are three boilers now", ("equipment_count", "boiler", "3 boilers")),
        ("we have 2 heat pumps", ("equipment_count", "heat pump", "2 heat pumps")),
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


def memory(fact: CallerFact | FactToRemember, memory_id: str, **overrides) -> Memory:  # type: ignore[no-untyped-def]
    written = fact.to_write() if isinstance(fact, CallerFact) else fact
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
    # What the kit writes for a request (kit.request_slots): one call's, never shown.
    asked = memory(
        action_request("book_visit", "book a service visit", date(2026, 12, 10), "c", today=TODAY),
        "d",
    )
    text, shown = snapshot.render([current, old, flagged, asked], facts=CALLER_FACTS)
    assert [m.id for m in shown] == ["a"]
    assert "2 New Street" in text and "1 Old Street" not in text


@given(payload=st.text(max_size=200))
def test_no_memory_text_can_open_or_close_the_wrapper(payload):
    fact = CallerFact(
        "note", payload if payload.strip() else "x", "agent_inferred", 0.6, TODAY, key="k"
    )
    text, _ = snapshot.render([memory(fact, "n")], facts=CALLER_FACTS)
    if text:
        assert text.count(snapshot.OPEN) == 1 and text.count(snapshot.CLOSE) == 1
        assert text.startswith(snapshot.OPEN) and text.endswith(snapshot.CLOSE)
        body = text[len(snapshot.OPEN) : -len(snapshot.CLOSE)]
        assert "[" not in body and "]" not in body and "\n- " in "\n" + body.strip("\n")


def test_snapshot_of_fifty_facts_stays_in_its_token_budget():
    text_of = "Detail number {} about the property and the boiler room".format
    notes = [
        memory(CallerFact("note", text_of(i), "agent_inferred", 0.6, TODAY, key=str(i)), str(i))
        for i in range(50)
    ]
    text, shown = snapshot.render(notes, facts=CALLER_FACTS, max_tokens=200)
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
    assert CALLER_FACTS.kind_of(never) == "availability"


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
            engine = await open_engine(Path(tmp) / "m.sqlite3")
            try:
                expected: dict[tuple[str, str], str] = {}
                for n, lines in enumerate(calls):
                    facts = extract_call_facts(
                        [Turn("user", line) for line in lines], [], today=TODAY,
                        call_id=f"call-{n}",
                    )  # fmt: skip
                    if facts:
                        await engine.remember_many(
                            "u", [f.to_write() for f in facts], idempotency_key=f"k-{n}"
                        )
                    for f in facts:
                        expected[f.slot] = f.to_write().content
                for (entity, attribute), content in expected.items():
                    current = await engine.clients.db.slot_facts(entity, attribute, user_id="u")
                    assert [m.content for m in current] == [content], (entity, attribute)
            finally:
                await engine.close()

    asyncio.run(run())


# -- the language, not the sentences (issue 22) ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Negators and their scope: the predicate's sign, flipped once per negator.
        ("we're hardly ever... no, we're never home on a tuesday", ("tuesday", "unavailable")),
        ("i couldn't possibly do a monday", None),  # a hedge ("possibly") states nothing
        ("saturdays are always hectic, so not a saturday", ("saturday", "unavailable")),
        ("wednesdays are a right pain for us", ("wednesday", "unavailable")),
        ("i don't mind fridays at all", ("friday", "available")),
        ("mondays were never a problem", ("monday", "unavailable")),  # said in the past
        ("thursdays aren't a problem", ("thursday", "available")),
        ("don't ever send an engineer on a sunday", ("sunday", "unavailable")),
        # Exceptions and exclusives.
        ("we can do every weekday bar a tuesday", ("tuesday", "unavailable")),
        ("any day apart from wednesdays and fridays works", ("friday", "unavailable")),
        ("we're about most days, just not mondays", ("monday", "unavailable")),
        # Temporal change: "used to", "since", "from now on", "not any more".
        ("we used to be in on thursdays", ("thursday", "unavailable")),
        ("fridays suited us before, not now", ("friday", "unavailable")),
        ("since the new rota, tuesdays are fine", ("tuesday", "available")),
        ("i stopped working saturdays so saturdays are good now", ("saturday", "available")),
        ("from now on please leave mondays alone, i'm at the allotment", None),
    ],
)
def test_day_statements_follow_negators_scope_and_tense(line, expected):
    found = {(f.key, f.value) for f in extract(line) if f.kind == "availability"}
    if expected is None:
        assert not found or all(v for _, v in found), found
    else:
        assert expected in found, found


@pytest.mark.parametrize(
    ("line", "kind", "value"),
    [
        (
            "we had three radiators, we're down to two radiators now",
            "equipment_count",
            "2 radiators",
        ),
        ("the old potterton went, it's a viessmann now", "equipment_make", "Viessmann"),
        ("we swapped the baxi for a vaillant boiler", "equipment_make", "Vaillant"),
        ("we're on the fifth floor now, not the second floor", "floor", "5th floor"),
        ("we were in flat 2, now it's flat 7", "flat", "Flat 7"),
        ("no more emails please, just text me", "contact_preference", "text message"),
        ("apartment 9c on the ground floor", "flat", "Apartment 9C"),
        ("we live in the basement flat", "floor", "basement"),
        (
            "you can leave the van on our driveway",
            "parking",
            "you can leave the van on our driveway",
        ),
        ("we've got a greyhound, she's very shy", "pets", "we've got a greyhound, she's very shy"),
        ("we don't have any animals", "pets", "we don't have any animals"),
        # Unpunctuated self-corrections: the later of two mentions in one clause.
        ("it's flat 12 no flat 21", "flat", "Flat 21"),
        ("the boiler's a baxi no a vaillant", "equipment_make", "Vaillant"),
        ("it's the fourth floor not the third floor", "floor", "4th floor"),
        (
            "my sister will be home to let you in",
            "who_home",
            "my sister will be home to let you in",
        ),
    ],
)
def test_values_the_last_current_mention_wins(line, kind, value):
    assert value in {f.value for f in extract(line) if f.kind == kind}


def test_a_same_sentence_correction_stores_the_correction():
    # Issue 18: the positive came first and used to be the one stored.
    facts = extract("thursday works, no, thursday doesn't work for me")
    assert kinds(facts) == {("availability", "thursday", "unavailable")}


def test_a_correction_takes_back_the_day_it_replaces():
    assert kinds(extract("mondays are good - sorry, i mean wednesdays")) == {
        ("availability", "wednesday", "available")
    }
    # Across turns too: the earlier day is not left current beside the corrected one.
    facts = extract_call_facts(
        [Turn("user", "fridays suit us"), Turn("assistant", "Fridays, noted."),
         Turn("user", "sorry, i meant saturdays")],
        [], today=TODAY, call_id="c",
    )  # fmt: skip
    assert kinds(facts) == {("availability", "saturday", "available")}


def test_a_short_answer_is_read_against_the_agents_question():
    def answer(question: str, reply: str):  # type: ignore[no-untyped-def]
        return kinds(
            extract_call_facts(
                [Turn("assistant", question), Turn("user", reply)],
                [],
                today=TODAY,
                call_id="c",
            )
        )

    assert answer("Which days should we keep clear?", "mondays") == {
        ("availability", "monday", "unavailable")
    }
    assert answer("Do Fridays still suit you?", "nope") == {
        ("availability", "friday", "unavailable")
    }
    assert answer("How many radiators are there?", "eight") == {
        ("equipment_count", "radiator", "8 radiators")
    }
    # A read-back is not a question about the caller's week: a yes is consent, not a fact.
    assert answer("Shall I book Friday 11 December?", "yes friday's fine") == set()


def test_requests_and_dates_stay_out_of_the_weekly_pattern():
    for line in (
        "could you pop round on wednesday",
        "this friday is no good",  # a date, not Fridays
        "the radiator's been cold since tuesday",
        "book me in for monday, monday works",
    ):
        assert [f for f in extract(line) if f.kind == "availability"] == [], line


# -- conflict_reason: the newest word about the day wins; a caution survives a miss ---------


def note_memory(text: str, memory_id: str, day: date, **overrides):  # type: ignore[no-untyped-def]
    return memory(CallerFact("note", text, "agent_inferred", 0.6, day, key=memory_id), memory_id,
                  **overrides)  # fmt: skip


def test_an_untyped_negative_note_still_cautions_with_its_words():
    note = note_memory("Thursday is dialysis day for the caller", "n1", date(2026, 11, 30))
    assert extract(notes=("Thursday is dialysis day for the caller",))[0].kind == "note"
    assert conflict_reason([note], date(2026, 12, 10)) == (
        "Our notes from 30 November say: Thursday is dialysis day for the caller."
    )
    assert conflict_reason([note], date(2026, 12, 11)) is None  # a Friday


def test_an_exclusive_note_cautions_against_other_days():
    note = note_memory("Caller is only reachable at the property on Wednesdays", "n2", TODAY)
    assert conflict_reason([note], date(2026, 12, 10)) is not None
    assert conflict_reason([note], date(2026, 12, 9)) is None  # the Wednesday itself


def test_a_newer_positive_clears_an_older_caution():
    older = note_memory("Thursday is dialysis day for the caller", "n3", date(2026, 11, 1))
    newer = memory(
        CallerFact("availability", "available", "user_stated", 0.9, date(2026, 12, 1),
                   key="thursday"),
        "a",
    )  # fmt: skip
    assert conflict_reason([older, newer], date(2026, 12, 10)) is None
    assert conflict_reason([older], date(2026, 12, 10)) is not None


def test_a_procedure_note_is_never_read_back():
    # It names the day with a caution word, but tells agents what to do: never spoken.
    note = note_memory(
        "Thursdays are out for this caller; agents must book them without asking", "n4", TODAY
    )
    assert conflict_reason([note], date(2026, 12, 10)) is None


# -- property: the later statement wins its slot, in any order and any joining --------------

# (slot, sentence, what the slot must hold). Each sentence states exactly one slot.
SAID = [
    (("availability", "thursday"), "thursdays work for me", "available"),
    (("availability", "thursday"), "never on a thursday", "unavailable"),
    (("availability", "thursday"), "we used to do thursdays", "unavailable"),
    (("availability", "thursday"), "i'm around on thursdays again", "available"),
    (("availability", "monday"), "mondays are a no go", "unavailable"),
    (("availability", "monday"), "i can do mondays", "available"),
    (("equipment_count", None), "we have two boilers", "2 boilers"),
    (("equipment_count", None), "there's just the one boiler now", "1 boiler"),
    (("equipment_make", None), "the boiler is a baxi", "Baxi"),
    (("equipment_make", None), "we've a vaillant boiler now", "Vaillant"),
    (("floor", None), "we're on the second floor", "2nd floor"),
    (("floor", None), "we live on the ground floor", "ground floor"),
    (("flat", None), "it's flat 4", "Flat 4"),
    (("flat", None), "we're in apartment 12b", "Apartment 12B"),
    (("contact_preference", None), "text me please", "text message"),
    (("contact_preference", None), "email me", "email"),
    (("pets", None), "we have a dog", "dog"),
    (("pets", None), "no pets here", "no pets"),
]
JOINERS = [". ", ", ", " - ", " but ", "TURN", ", sorry, "]


def holds(fact: CallerFact, value: str) -> bool:
    # Pets are kept in the caller's words (`memory.facts.TOPICS`).
    return fact.value == value or (fact.kind == "pets" and value in fact.value)


@settings(max_examples=300, deadline=None)
@given(
    said=st.lists(st.sampled_from(SAID), min_size=1, max_size=6),
    joiners=st.lists(st.sampled_from(JOINERS), min_size=6, max_size=6),
)
def test_the_later_statement_always_wins_its_slot(said, joiners):
    """The later statement wins its slot: within a sentence, across turns, and across the
    sentences of one turn when the later one marks a change. Two different values for one
    slot in one turn with no change between them contradict: neither is typed."""
    turns: list[Turn] = []
    expected: dict[tuple[str, str | None], str] = {}
    in_turn: dict[tuple[str, str | None], str] = {}  # each slot's value in this turn so far
    contradicted: set[tuple[str, str | None]] = set()
    # "thursdays work for me, sorry, we have a dog, mondays are a no go": a correction whose
    # own words are not a typed value may take back what came before it (precision first).
    may_drop: set[tuple[str, str | None]] = set()
    sentence: list[tuple[tuple[str, str | None], str]] = []  # the sentence being built
    put_right: dict[tuple[str, str | None], str] = {}  # a slot's value a "sorry" put right
    corrected_after: set[tuple[str, str | None]] = set()  # slots a "sorry" came after
    text = ""

    def end_sentence() -> None:
        settled: dict[tuple[str, str | None], str] = {}
        for slot, value in sentence:
            settled[slot] = value
        changes = says_change(text.rsplit(". ", 1)[-1])
        for slot in settled:
            if len({v for s, v in sentence if s == slot}) > 1 and not changes and slot[0] != "pets":
                contradicted.add(slot)  # two values in one sentence, no change between
        for slot, value in settled.items():
            if slot[0] == "pets":
                expected[slot] = value
            elif changes:
                contradicted.discard(slot)
                expected[slot] = value
            elif slot in contradicted or in_turn.get(slot, value) != value:
                contradicted.add(slot)
                expected.pop(slot, None)
            else:
                expected[slot] = value
            in_turn[slot] = value
        sentence.clear()
        put_right.clear()
        corrected_after.clear()

    joined = zip(said, [".", *joiners], strict=False)
    for i, ((slot, said_here, value), joiner) in enumerate(joined):
        if i and joiner == "TURN":
            end_sentence()
            turns += [Turn("user", text), Turn("assistant", "Okay.")]
            text = said_here
            in_turn.clear()
            contradicted.clear()
        elif i:
            if joiner == ". ":
                end_sentence()
            text += joiner + said_here
        else:
            text = said_here
        previous = sentence[-1][0] if sentence else None
        corrects = joiner.endswith("sorry, ") and previous and previous[0] == slot[0] != "pets"
        if joiner.endswith("sorry, ") and slot[0] == "pets" and previous and previous[0] != "pets":
            may_drop.add(previous)
        if corrects and previous == slot and sentence[-1][1] != value:
            if put_right.get(slot) == value:
                # "email me, sorry, text me, sorry, email me": back again; the slot may be left
                # untyped (precision first), never given the value in between.
                may_drop.add(slot)
            put_right[slot] = sentence[-1][1]
        elif joiner in (", ", " - ", " but ") and put_right.get(slot) == value:
            # "email me, sorry, text me please, email me": back to the value put right, or
            # said again by mistake; which is a guess, so the slot may be left untyped.
            may_drop.add(slot)
        if joiner.endswith("sorry, "):
            corrected_after.update(x for x, _ in sentence)
        if slot in corrected_after and any(x == slot and v != value for x, v in sentence):
            # "text me, sorry, thursdays work, email me": a correction between two values of a
            # slot, even beside another kind, may leave the slot untyped (never the older value).
            may_drop.add(slot)
        if corrects and previous != slot:
            # A correction takes back the slot it replaces ("mondays - sorry, thursdays").
            sentence[:] = [(s, v) for s, v in sentence if s != previous]
            expected.pop(previous, None)
        sentence.append((slot, value))
    end_sentence()
    turns.append(Turn("user", text))
    facts = extract_call_facts(turns, [], today=TODAY, call_id="p")
    got = {
        (f.kind, f.key if f.kind == "availability" else None): f for f in facts if f.kind != "quote"
    }
    for slot, value in expected.items():
        if slot in may_drop and slot not in got:
            continue
        assert slot in got and holds(got[slot], value), (turns, slot, value, got.get(slot))
    assert set(got) ^ set(expected) <= may_drop, (turns, set(got) ^ set(expected))


# -- issue 27: precision first, and a fact model that fits what callers say -----------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("we've two boilers and five radiators",
         {("equipment_count", "boiler", "2 boilers"),
          ("equipment_count", "radiator", "5 radiators")}),
        ("we're down from three radiators to two",
         {("equipment_count", "radiator", "2 radiators")}),
        ("it's a combi now", {("boiler_type", None, "combi")}),
        ("we swapped the old back boiler for a combi", {("boiler_type", None, "combi")}),
        ("the meter's round the back now",
         {("meter_location", None, "the meter's round the back now")}),
        ("new number, ring me on the landline not the mobile",
         {("contact_preference", None, "landline")}),
        ("it's flat fourteen", {("flat", None, "Flat 14")}),
        ("we live at forty two queens road", {("address", None, "42 Queens Road")}),
        ("it's 9 Mill Lane, sorry, 19", {("address", None, "19 Mill Lane")}),
        ("I can't do Monday, Tuesday or Wednesday",
         {("availability", d, "unavailable") for d in ("monday", "tuesday", "wednesday")}),
        ("sundays are a no-no", {("availability", "sunday", "unavailable")}),
        ("mondays are never an issue", {("availability", "monday", "available")}),
        ("i can't do wednesdays er i mean tuesdays", {("availability", "tuesday", "unavailable")}),
        # Somebody else's facts are never the caller's; who lets the engineer in is.
        ("my neighbour can't do mondays", set()),
        ("my mum's only free on wednesdays", set()),
        ("my daughter lives on the fifth floor", set()),
        ("my husband will be home to let you in",
         {("who_home", None, "my husband will be home to let you in")}),
        ("three or four radiators I think", set()),
    ],
)  # fmt: skip
def test_the_fact_model_reads_what_callers_say(line, expected):  # type: ignore[no-untyped-def]
    assert kinds(f for f in extract(line) if f.kind != "quote") == expected


def test_a_guessed_polarity_keeps_the_callers_words_not_a_fact():
    facts = extract("nothing gets in the way on a wednesday")
    assert [f.kind for f in facts] == ["quote"]
    [words] = facts
    assert (words.value, words.source, words.confidence) == (
        "nothing gets in the way on a wednesday", "user_stated", 0.5,
    )  # fmt: skip
    assert words.to_write().content.startswith("The caller's own words, not confirmed: ")


def test_a_change_of_routine_replaces_the_days_said_earlier():
    facts = extract("thursdays work for us", "actually we've swapped, it's tuesdays from now on")
    assert kinds(facts) == {
        ("availability", "tuesday", "available"),
        ("availability", "thursday", "unavailable"),
    }


# -- issue 27, third round: two readings must agree, or the caller's words are kept ------------


def conversation(*said: str):  # type: ignore[no-untyped-def]
    """A call from alternating lines, the caller first ("a: " marks the agent's lines)."""
    turns = [
        Turn("assistant", line[3:]) if line.startswith("a: ") else Turn("user", line)
        for line in said
    ]
    return extract_call_facts(turns, [], today=TODAY, call_id="call-1")


def typed(facts) -> set[tuple[str, str | None, str]]:  # type: ignore[no-untyped-def]
    return {(f.kind, f.key, f.value) for f in facts if f.kind != "quote"}


def quoted(facts) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.value for f in facts if f.kind == "quote"]


@pytest.mark.parametrize(
    "line",
    [
        # A negative word and a negator that is not its own: "never" would flip "nightmare".
        "tuesdays are a nightmare for us we're never back before six",
        # Two negators in one clause (negative concord or a double negative).
        "we can't do neither monday nor tuesday",
        # A negator on some of the days only.
        "it's fridays for us now not mondays",
        # The excepted days carry their own sign in the next clause.
        "apart from thursdays, i'm not free at all",
        # A positive said plainly and another negated: two clauses run together.
        "mondays are fine i'm never home before six",
        # A correction naming two days in a row.
        "oh wait no i meant fridays saturdays are fine",
    ],
)
def test_a_sign_two_readings_disagree_on_is_never_typed(line):  # type: ignore[no-untyped-def]
    facts = (
        extract(line)
        if not line.startswith("oh wait")
        else conversation("saturdays are no good", "a: Okay.", line)
    )
    days = {f.key for f in facts if f.kind == "availability"}
    named = {d for d in ("monday", "tuesday", "wednesday", "thursday", "friday") if d in line}
    assert not days & named, typed(facts)
    assert quoted(facts), "the caller's words are kept instead"


def test_a_day_said_anew_after_not_any_more_is_what_it_is_now():
    # The negator ends what came before ("not any more"); the day said after it starts a clause.
    line = "mondays used to be a nightmare but not any more mondays are fine now"
    assert ("availability", "monday", "available") in typed(extract(line))
    assert ("availability", "monday", "unavailable") not in typed(extract(line))


def test_a_negated_do_and_a_negative_word_agree():
    assert typed(extract("i can't do mondays or tuesdays i'm working them")) == {
        ("availability", "monday", "unavailable"),
        ("availability", "tuesday", "unavailable"),
    }
    assert typed(extract("wednesdays aren't a problem")) == {
        ("availability", "wednesday", "available")
    }


def test_two_values_for_one_slot_in_one_turn_keep_neither_without_a_change_marker():
    facts = extract("Mondays are fine for us. We can't do Mondays.")
    assert typed(facts) == set()
    assert len(quoted(facts)) == 2
    # "do" with another object says nothing of the day: no contradiction.
    assert typed(extract("Not Sundays. I do the market every Sunday, rain or shine.")) == {
        ("availability", "sunday", "unavailable")
    }
    # With a change marker the later one wins.
    assert typed(extract("We had a Baxi. Now it's a Vaillant.")) == {
        ("equipment_make", None, "Vaillant")
    }


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # A correcting turn that types nothing takes back the last turn's facts.
        (("We've got six radiators.", "a: Six radiators.", "Actually, let me count them again."),
         set()),
        # Its bare number corrects the count.
        (("We've got six radiators.", "a: Six radiators.", "Actually, I've counted, it's seven."),
         {("equipment_count", "radiator", "7 radiators")}),
        # One that types the same kind replaces them.
        (("text me please", "a: Text messages, noted.", "sorry, no, email me instead"),
         {("contact_preference", None, "email")}),
        # One about another kind leaves them.
        (("thursdays work for me", "a: Thursdays, noted.", "sorry, and my husband will be home"),
         {("availability", "thursday", "available"),
          ("who_home", None, "sorry, and my husband will be home")}),
        # A later turn that does not open with a correction leaves them.
        (("thursdays work for me", "a: Great.", "it's flat 4, sorry, flat 5"),
         {("availability", "thursday", "available"), ("flat", None, "Flat 5")}),
    ],
)  # fmt: skip
def test_a_turn_that_opens_with_a_correction_takes_back_what_it_talks_about(said, kept):  # type: ignore[no-untyped-def]
    assert typed(conversation(*said)) == kept


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Somebody else, over several clauses.
        ("The flat below us, number 6, has the same boiler.", set()),
        ("my next door neighbour's got a worcester", set()),
        ("me auntie's got a combi", set()),
        ("his boiler is a vaillant ours is a baxi", {("equipment_make", None, "Baxi")}),
        # Presence needs a verb, and no negator.
        ("my friend in Leeds has her meter in the hall", set()),
        ("My son's never in on a Friday", set()),
        ("My wife isn't usually home on a Monday", set()),
        # Endearments and spelt letters name no animal; a bare answer keeps no words.
        ("Friday's no bother at all, pet.", {("availability", "friday", "available")}),
        # One call, not a preference.
        ("ring me when you get to the gate", set()),
        ("there's a key safe, i'll text you the code",
         {("access_notes", None, "there's a key safe, i'll text you the code")}),
        # Parts each in a place of their own add up; products are left to the caller.
        ("four radiators downstairs and three upstairs",
         {("equipment_count", "radiator", "7 radiators")}),
        ("two storage heaters in each bedroom", set()),
        ("a boiler, ten radiators and two thermostats",
         {("equipment_count", "boiler", "1 boiler"),
          ("equipment_count", "radiator", "10 radiators"),
          ("equipment_count", "thermostat", "2 thermostats")}),
        # Brands as written, without the boiler type.
        ("it's a worcester combi",
         {("equipment_make", None, "Worcester Bosch"), ("boiler_type", None, "combi")}),
        # The meter's whole place, never a floor or an access note.
        ("The meter box is at the end of the garden, by the gate.",
         {("meter_location", None, "The meter box is at the end of the garden, by the gate")}),
        ("the meter was in the hall", set()),
        # Ranges and weekends.
        ("I'm at work Tuesday to Thursday",
         {("availability", d, "unavailable") for d in ("tuesday", "wednesday", "thursday")}),
        ("weekends are no use",
         {("availability", d, "unavailable") for d in ("saturday", "sunday")}),
        ("Friday, please.", set()),
        # A wish for this visit is not a standing fact.
        ("a thursday would be perfect", set()),
        ("thursdays would be good", {("availability", "thursday", "available")}),
        # Somebody else's thing in the same clause: whose is whose is a guess.
        ("we have a baxi my brother has a vaillant", set()),
        # "no" before a day with its own verb answers; an alternative after a hedge is hedged.
        ("no tuesdays are fine", {("availability", "tuesday", "available")}),
        ("Email would be best maybe, or text.", set()),
        ("flat twelve c", {("flat", None, "Flat 12C")}),
        ("Number four, Orchard Rise.", {("address", None, "4 Orchard Rise")}),
    ],
)  # fmt: skip
def test_precision_first_readings(line, expected):  # type: ignore[no-untyped-def]
    assert typed(extract(line)) == expected


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("Is anyone home on Tuesdays?", "no, nobody", {("availability", "tuesday", "unavailable")}),
        ("Is anyone home on Tuesdays?", "yeah my husband is",
         {("availability", "tuesday", "available")}),
        ("How would you like us to get in touch?", "Email.",
         {("contact_preference", None, "email")}),
        ("Which days suit you best?", "wednesdays", {("preferred_day", None, "wednesday")}),
        ("Is it a combi boiler?", "Yes, it is.", {("boiler_type", None, "combi")}),
        ("Is it a combi boiler?", "No.", set()),
        ("Do you have any pets?", "No.", set()),
    ],
)  # fmt: skip
def test_a_short_answer_takes_its_meaning_from_the_question(question, answer, expected):  # type: ignore[no-untyped-def]
    assert typed(conversation("hello", f"a: {question}", answer)) == expected


def test_notes_are_read_after_caller_said():
    facts = extract("Hi.", notes=("Caller mentioned their dad only has Mondays free.",))
    assert {f.kind for f in facts} == {"note"}
    facts = extract("Hi.", notes=("Caller says the meter was moved to the garage",))
    assert typed(facts) == {("meter_location", None, "the meter was moved to the garage")}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # A simile carries no sign.
        (("Wednesdays I'm about like a bad penny, any time suits",),
         {("availability", "wednesday", "available")}),
        # A bare day followed by its own predicate does not take the last sentence's sign.
        (("Monday I'm fine. Tuesday, not a chance.",),
         {("availability", "monday", "available"), ("availability", "tuesday", "unavailable")}),
        # "I could" is ability; "actually" makes the later reading a change.
        (("I can't do Monday or Friday.", "Well, Friday I could actually."),
         {("availability", "monday", "unavailable"), ("availability", "friday", "available")}),
        # A value then "sorry" is the correction.
        (("I'm on the fourth floor. Fifth, sorry, I always miscount.",),
         {("floor", None, "5th floor")}),
        (("I'm in Wednesday and Thursday.", "a: Both, lovely.", "Just Wednesday, sorry."),
         {("availability", "wednesday", "available")}),
        # A value said to belong to the last house is not current.
        (("It's a Vaillant. No, wait, it's a Baxi, the Vaillant was at the last house.",),
         {("equipment_make", None, "Baxi")}),
        # Two floors in one breath with no correction.
        (("we're the third floor well second really cos there's a raised ground floor",), set()),
        # A correction of days replaces an "only".
        (("Tuesdays only. No, hang on, Tuesdays and Fridays are both fine.",),
         {("availability", "tuesday", "available"), ("availability", "friday", "available")}),
        # "they'll just be stood there" refers back to people, not "only" the day.
        (("I'm never in on a Monday, they'll just be stood on the step.",),
         {("availability", "monday", "unavailable")}),
    ],
)  # fmt: skip
def test_fourth_round_readings(said, expected):  # type: ignore[no-untyped-def]
    assert typed(conversation(*said)) == expected


@pytest.mark.parametrize(
    "line",
    [
        "the code's on the email i sent you last week",  # a message, not a channel
        "the combination's on a bit of paper by the door",  # not a combi
        "we used to have a cat but she passed away last year",  # no pet now
        "the meter's in the basement",  # where the meter is, not the caller's floor
        "In the basement, next to the washing machine.",  # where something is
        "I'm fairly sure it's a system boiler but I wouldn't swear to it",  # hedged
        "Would Monday work for the booking?",  # a question
    ],
)
def test_fourth_round_nothing_typed(line):  # type: ignore[no-untyped-def]
    facts = typed(extract(line))
    assert not {f for f in facts if f[0] != "meter_location"}, facts


def test_the_meter_place_said_before_the_meter():
    assert typed(extract("it's outside in the meter box by the back gate")) == {
        ("meter_location", None, "it's outside in the meter box by the back gate")
    }


def test_a_yes_to_a_day_offered_for_the_booking_is_not_a_standing_fact():
    facts = conversation("hi", "a: Would Friday work for the booking?", "Yes, Friday is fine.")
    assert typed(facts) == set()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("two bathrooms and a dozen radiators",
         {("equipment_count", "bathroom", "2 bathrooms"),
          ("equipment_count", "radiator", "12 radiators")}),
        ("we have twin boilers", {("equipment_count", "boiler", "2 boilers")}),
        # The model as said: only each word's first letter is raised.
        ("it's a vaillant ecotec 5d4974", {("equipment_make", None, "Vaillant Ecotec 5d4974")}),
        ("it'll be my dad at the house", {("who_home", None, "it'll be my dad at the house")}),
        ("grandad will be in", {("who_home", None, "grandad will be in")}),
        ("The landlord will meet your engineer there.",
         {("who_home", None, "The landlord will meet your engineer there")}),
        ("The doorbell's broken, so knock loudly.",
         {("access_notes", None, "The doorbell's broken, so knock loudly")}),
        ("I'll give him a visitor permit.", {("parking", None, "I'll give him a visitor permit")}),
        ("Any time Wednesday, I'm in all day.", {("availability", "wednesday", "available")}),
        ("were at 12 mill road", {("address", None, "12 Mill Road")}),
    ],
)  # fmt: skip
def test_more_ways_callers_say_things(line, expected):  # type: ignore[no-untyped-def]
    assert typed(extract(line)) == expected
