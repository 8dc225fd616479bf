"""Model extraction: schema-validated, host-checked, bounded, and it falls back to the rules."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import date

import httpx
import pytest
import respx

from contextdb_livekit.api import ModelExtractionError
from contextdb_livekit.memory.settings import MemorySettings
from memory.extract import Turn
from memory.llm_extract import extract_with_model

BASE = "http://model.test/v1"
TODAY = date(2026, 12, 3)
TURNS = [
    Turn("user", "I can't do Thursdays any more"),
    Turn("assistant", "Noted."),
    Turn("user", "my card is 4111 1111 1111 1111 and we have three boilers now"),
]


def answer(facts: list[dict]) -> dict:  # type: ignore[type-arg]
    return {"choices": [{"message": {"content": json.dumps({"facts": facts})}}]}


async def run(**kwargs):  # type: ignore[no-untyped-def]
    return await extract_with_model(
        TURNS, ["Caller mentioned a Baxi boiler"],
        today=TODAY, call_id="c1", base_url=BASE, api_key="k", model="m", timeout_s=0.5, **kwargs,
    )  # fmt: skip


@respx.mock
async def test_model_facts_are_checked_against_the_callers_words():
    route = respx.post(f"{BASE}/chat/completions").respond(
        200,
        json=answer(
            [
                {"kind": "availability", "value": "no", "weekday": "thursday", "negative": True,
                 "said_by_caller": True, "quote": "I can't do Thursdays any more"},
                # A quote the caller never said: the model's reading, not the caller's words.
                {"kind": "address", "value": "9 Fake Street", "said_by_caller": True,
                 "quote": "I live at 9 Fake Street"},
                {"kind": "equipment_make", "value": "Baxi", "said_by_caller": False},
            ]
        ),
    )  # fmt: skip
    facts = {f.kind: f for f in await run()}
    sent = json.loads(route.calls.last.request.content)
    assert "4111" not in json.dumps(sent)  # secrets never leave the host
    assert sent["response_format"]["type"] == "json_schema"
    never = facts["availability"]
    assert (never.key, never.polarity, never.source, never.confidence) == (
        "thursday", "negative", "user_stated", 0.9,
    )  # fmt: skip
    assert facts["address"].source == "agent_inferred" and facts["address"].confidence == 0.6
    assert facts["equipment_make"].source == "agent_inferred"
    assert "visit_booked" not in facts  # host records are the gated actions', never the model's


@respx.mock
async def test_the_model_cannot_invent_requests_or_bookings():
    respx.post(f"{BASE}/chat/completions").respond(
        200, json=answer([{"kind": "request", "value": "book friday", "said_by_caller": True}])
    )
    facts = await run()
    # Schema mismatch → the rules, which know nothing of a Friday request.
    assert {f.kind for f in facts} == {
        "availability",
        "equipment_count",
        "equipment_make",
    }


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(500, json={"error": "down"}),
        httpx.Response(200, text="not json"),
        httpx.Response(200, json={"choices": [{"message": {"content": '{"facts": 3}'}}]}),
        httpx.TimeoutException("slow"),
    ],
    ids=["5xx", "non_json", "bad_schema", "timeout"],
)
@respx.mock
async def test_any_failure_falls_back_to_the_rules(reply):
    route = respx.post(f"{BASE}/chat/completions")
    if isinstance(reply, Exception):
        route.side_effect = reply
    else:
        route.mock(return_value=reply)
    facts = {(f.kind, f.value) for f in await run()}
    assert ("availability", "unavailable") in facts and ("equipment_count", "3 boilers") in facts


# -- the contract: schema, quotes, order, time bound, fallback -------------------------------


def fact(kind: str, value: str, quote: str = "", **extra) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return {
        "kind": kind, "value": value, "weekday": extra.get("weekday"),
        "negative": extra.get("negative", False),
        "said_by_caller": extra.get("said_by_caller", bool(quote)), "quote": quote,
    }  # fmt: skip


async def extract(turns: list[Turn], facts: list[dict], **kwargs) -> list:  # type: ignore[type-arg]
    respx.post(f"{BASE}/chat/completions").respond(200, json=answer(facts))
    return await extract_with_model(
        turns, [], today=TODAY, call_id="c2", base_url=BASE, api_key="k",
        model="m", timeout_s=0.5, **kwargs,
    )  # fmt: skip


@respx.mock
async def test_the_request_carries_a_strict_schema_and_the_whole_exchange():
    route = respx.post(f"{BASE}/chat/completions").respond(200, json=answer([]))
    await run()
    sent = json.loads(route.calls.last.request.content)
    schema = sent["response_format"]["json_schema"]
    assert schema["strict"] is True
    item = schema["schema"]["properties"]["facts"]["items"]
    assert item["additionalProperties"] is False
    assert set(item["required"]) == set(item["properties"])
    kinds = set(item["properties"]["kind"]["enum"])
    assert {"floor", "flat", "parking", "pets", "who_home", "availability"} <= kinds
    assert "request" not in kinds and "visit_booked" not in kinds
    transcript = sent["messages"][1]["content"]
    # The agent's questions go too (a short answer needs them), marked as the agent's.
    assert "- Agent: Noted." in transcript and "- Caller: I can't do Thursdays" in transcript


@respx.mock
async def test_a_quote_is_matched_without_case_punctuation_or_spacing():
    turns = [Turn("user", "Thursdays?   No way -- I'm at the hospital, every week.")]
    [never] = await extract(
        turns,
        [fact("availability", "x", "thursdays no way", weekday="thursday", negative=True)],
    )
    assert (never.source, never.key, never.polarity) == ("user_stated", "thursday", "negative")


@respx.mock
async def test_a_quote_that_does_not_carry_its_weekday_or_number_is_dropped():
    turns = [Turn("user", "mondays are fine, and we have two boilers")]
    facts = await extract(
        turns,
        [
            # The model put the wrong day and number on the caller's words.
            fact("availability", "x", "mondays are fine", weekday="friday"),
            fact("equipment_count", "5 boilers", "we have two boilers"),
            fact("equipment_make", "Baxi", "Baxi", said_by_caller=False),
        ],
    )
    assert [(f.kind, f.source) for f in facts] == [("equipment_make", "agent_inferred")]


@respx.mock
async def test_the_later_quote_wins_its_slot_whatever_order_the_model_listed():
    turns = [
        Turn("user", "we've got two boilers"),
        Turn("assistant", "Two boilers."),
        Turn("user", "sorry, three boilers actually"),
    ]
    facts = await extract(
        turns,
        [
            fact("equipment_count", "3 boilers", "three boilers actually"),
            fact("equipment_count", "2 boilers", "we've got two boilers"),
        ],
    )
    assert [(f.kind, f.value) for f in facts] == [("equipment_count", "3 boilers")]


@respx.mock
async def test_the_models_reading_never_beats_the_callers_words_in_a_slot():
    turns = [
        Turn("user", "we're on the second floor"),
        Turn("user", "my neighbour's on the third floor, she has a key"),
    ]
    facts = await extract(
        turns,
        [
            fact("floor", "2nd floor", "we're on the second floor"),
            # The model's own reading, placed after the caller's words: it still loses.
            fact("floor", "3rd floor", "the third floor", said_by_caller=False),
            fact("floor", "4th floor", "", said_by_caller=False),
        ],
    )
    assert [(f.value, f.source) for f in facts] == [("2nd floor", "user_stated")]


@respx.mock
async def test_a_slow_answer_is_cut_at_the_time_bound_and_the_rules_answer():
    async def slow(request):  # type: ignore[no-untyped-def]
        await asyncio.sleep(5)
        return httpx.Response(200, json=answer([]))

    respx.post(f"{BASE}/chat/completions").mock(side_effect=slow)
    started = time.perf_counter()
    facts = {(f.kind, f.value) for f in await run()}
    assert time.perf_counter() - started < 2
    assert ("availability", "unavailable") in facts  # the rules' reading


@respx.mock
async def test_without_a_fallback_a_failure_is_an_error_not_an_empty_answer():
    respx.post(f"{BASE}/chat/completions").respond(500)
    with pytest.raises(ModelExtractionError):
        await run(fallback=None)


def test_the_model_is_the_default_whenever_an_llm_key_is_set(monkeypatch):
    monkeypatch.delenv("MEMORY_EXTRACTION", raising=False)
    unset = MemorySettings(_env_file=None)
    assert unset.extraction_mode(llm_key_configured=True) == "llm"
    assert unset.extraction_mode(llm_key_configured=False) == "rules"
    forced = MemorySettings(_env_file=None, MEMORY_EXTRACTION="rules")
    assert forced.extraction_mode(llm_key_configured=True) == "rules"
    blank = MemorySettings(_env_file=None, MEMORY_EXTRACTION="")
    assert blank.extraction_mode(llm_key_configured=True) == "llm"
    # Asking for the model without a key is the rules: there is nothing to call.
    assert MemorySettings(_env_file=None, MEMORY_EXTRACTION="llm").extraction_mode(False) == "rules"


@respx.mock
async def test_a_fact_quoted_from_words_about_somebody_else_is_dropped():
    turns = [
        Turn("user", "my mum's only free on wednesdays"),
        Turn("user", "my husband will be in"),
    ]
    respx.post(f"{BASE}/chat/completions").respond(
        200,
        json=answer(
            [
                {"kind": "preferred_day", "value": "wednesday only", "weekday": "wednesday",
                 "said_by_caller": True, "quote": "my mum's only free on wednesdays"},
                {"kind": "who_home", "value": "husband", "said_by_caller": True,
                 "quote": "my husband will be in"},
            ]
        ),
    )  # fmt: skip
    facts = await extract_with_model(
        turns, [], today=TODAY, call_id="c1", base_url=BASE, api_key="k", model="m", timeout_s=0.5
    )
    assert [f.kind for f in facts] == ["who_home"]


@respx.mock
async def test_the_agents_own_lines_are_never_quotable_as_the_callers():
    """A fact the model quotes from the agent's words is the model's reading at most, never
    the caller's (issue 31: agent lines counted as the caller's and the mutation survived)."""
    turns = [
        Turn("assistant", "So Thursdays don't work for you and you have a Vaillant?"),
        Turn("user", "hmm, let me think"),
    ]
    respx.post(f"{BASE}/chat/completions").respond(
        200,
        json=answer(
            [
                {"kind": "availability", "value": "no", "weekday": "thursday", "negative": True,
                 "said_by_caller": True, "quote": "Thursdays don't work for you"},
                {"kind": "equipment_make", "value": "Vaillant", "said_by_caller": True,
                 "quote": "you have a Vaillant"},
            ]
        ),
    )  # fmt: skip
    facts = await extract_with_model(
        turns, [], today=TODAY, call_id="c1", base_url=BASE, api_key="k", model="m",
        timeout_s=0.5,
    )  # fmt: skip
    assert facts, "the model's reading is kept, as its reading"
    for fact in facts:
        assert (fact.source, fact.confidence, fact.said) == ("agent_inferred", 0.6, "")
