"""Model extraction: schema-validated, host-checked, bounded, and it falls back to the rules."""

from __future__ import annotations

import json
from datetime import date

import httpx
import pytest
import respx

from memory.extract import CallOutcome, Turn
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
    booked = CallOutcome(booked=((date(2026, 12, 10), "bk_1"),))
    return await extract_with_model(
        TURNS, ["Caller mentioned a Baxi boiler"], booked,
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
    assert facts["visit_booked"].source == "third_party"  # from the call, not the model


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
        "visit_booked",
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
