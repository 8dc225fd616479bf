"""respx contract tests: what CloudMemory sends and how it reads ContextDB Cloud answers."""

from __future__ import annotations

import json
from datetime import date

import httpx
import pytest
import respx
from contextdb_cloud_client import CloudClient

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.memory.errors import (
    MemoryConflict,
    MemoryNotFound,
    MemoryRejected,
    MemoryUnavailable,
)
from contextdb_livekit.memory.models import receipt_idempotency_key
from tests.memory.support import day_request, day_slot

BASE = "https://cloud.test"
KEY = "cdb_contract_test"
DAY = date(2026, 12, 10)
SLOT = day_slot(DAY)


def memory_json(memory_id: str, content: str, **overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "id": memory_id,
        "content": content,
        "user_id": "cust-1",
        "epistemic_source": "agent_inferred",
        "confidence": 0.6,
        "corroboration_count": 1,
        "action_relevant": True,
        "requires_confirmation": True,
        "confirmed": False,
        "independent_corroboration": 0,
        "injection_suspect": False,
        "entity_key": SLOT.entity,
        "attribute_key": SLOT.attribute,
        "valid_until": None,
        "superseded_by": None,
    }
    data.update(overrides)
    return data


WISH = memory_json("m-wish", day_request(DAY).content)
CONFIRMED_WISH = memory_json(
    "m-wish", WISH["content"], confirmed=True, requires_confirmation=False, confidence=0.95
)
ALLERGY = memory_json(
    "m-allergy",
    "Caller is allergic to latex",
    entity_key="user",
    attribute_key="allergy",
    confirmed=True,
    requires_confirmation=False,
)


@pytest.fixture
def cloud() -> CloudMemory:
    return CloudMemory(CloudClient(BASE, KEY, timeout=2.0))


@respx.mock
async def test_recall_request_and_shape(cloud: CloudMemory) -> None:
    route = respx.post(f"{BASE}/v1/recall").respond(
        200, json={"context": "[RECALLED DATA]\n- x\n[END RECALLED DATA]", "memories": [WISH]}
    )
    result = await cloud.recall("cust-1", "profile", top_k=8)
    request = route.calls.last.request
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert json.loads(request.content) == {"user_id": "cust-1", "query": "profile", "top_k": 8}
    assert result.memories[0].id == "m-wish" and result.context.startswith("[RECALLED DATA]")


@respx.mock
async def test_evaluate_act_in_slot(cloud: CloudMemory) -> None:
    route = respx.post(f"{BASE}/v1/recall_for_action").respond(
        200,
        json={
            "decision_id": "dec-1",
            "outcome": "act",
            "memories": [CONFIRMED_WISH],
            "pending_confirmation_ids": [],
        },
    )
    decision = await cloud.evaluate_action("cust-1", "book thursday", slot=day_slot(DAY))
    assert json.loads(route.calls.last.request.content) == {
        "user_id": "cust-1",
        "query": "book thursday",
        "top_k": 5,
    }
    assert (decision.decision_id, decision.outcome) == ("dec-1", "act")


@respx.mock
async def test_cloud_act_on_unrelated_memory_is_downgraded(cloud: CloudMemory) -> None:
    respx.post(f"{BASE}/v1/recall_for_action").respond(
        200,
        json={
            "decision_id": "dec-2",
            "outcome": "act",
            "memories": [ALLERGY],
            "pending_confirmation_ids": [],
        },
    )
    pending = respx.get(f"{BASE}/v1/pending_confirmations").respond(200, json={"memories": []})
    decision = await cloud.evaluate_action("cust-1", "book thursday", slot=day_slot(DAY))
    assert decision.outcome == "abstain" and decision.decision_id == "dec-2"
    assert pending.calls.last.request.url.params["user_id"] == "cust-1"


@respx.mock
async def test_cloud_ask_keeps_only_slot_pending_ids(cloud: CloudMemory) -> None:
    other = memory_json(
        "m-other", "Caller might want a refund", entity_key=None, attribute_key=None
    )
    respx.post(f"{BASE}/v1/recall_for_action").respond(
        200,
        json={
            "decision_id": "dec-3",
            "outcome": "ask",
            "memories": [WISH, other],
            "pending_confirmation_ids": ["m-wish", "m-other"],
        },
    )
    decision = await cloud.evaluate_action("cust-1", "book", slot=day_slot(DAY))
    assert decision.outcome == "ask" and decision.pending_confirmation_ids == ["m-wish"]


@respx.mock
async def test_report_execution_body_and_idempotency_header(cloud: CloudMemory) -> None:
    route = respx.post(f"{BASE}/v1/receipts").respond(
        200,
        json={
            "decision_id": "dec-1",
            "outcome": "act",
            "receipt": {
                "id": "rcpt_1",
                "decision_id": "dec-1",
                "action_name": "book_visit",
                "status": "failed",
                "policy_alignment": "aligned",
                "external_ref": None,
                "error_code": "current_state_changed",
                "request_id": "req_1",
                "created_at": "2026-12-03T10:00:00Z",
            },
        },
    )
    response = await cloud.report_execution(
        "cust-1",
        "dec-1",
        "book_visit",
        "failed",
        idempotency_key=receipt_idempotency_key("dec-1"),
        error_code="current_state_changed",
    )
    request = route.calls.last.request
    assert request.headers["Idempotency-Key"] == "receipt:dec-1"
    assert json.loads(request.content) == {
        "user_id": "cust-1",
        "decision_id": "dec-1",
        "action_name": "book_visit",
        "status": "failed",
        "error_code": "current_state_changed",
    }
    assert response.receipt.policy_alignment == "aligned"


@respx.mock
async def test_confirm_and_remember_many_bodies(cloud: CloudMemory) -> None:
    confirm = respx.post(f"{BASE}/v1/confirm").respond(
        200, json={"memory": CONFIRMED_WISH, "memory_version": 7, "primary_wal_lsn": None}
    )
    remember = respx.post(f"{BASE}/v1/remember_many").respond(
        200, json={"memories": [WISH], "memory_version": 8, "primary_wal_lsn": None}
    )
    memory = await cloud.confirm("cust-1", "m-wish", idempotency_key="confirm:att-1")
    assert memory.confirmed and memory.memory_version == 7
    assert confirm.calls.last.request.headers["Idempotency-Key"] == "confirm:att-1"
    assert json.loads(confirm.calls.last.request.content) == {
        "user_id": "cust-1",
        "memory_id": "m-wish",
    }
    await cloud.remember_many("cust-1", [day_request(DAY)], idempotency_key="facts:abc12345")
    body = json.loads(remember.calls.last.request.content)
    assert body["user_id"] == "cust-1"
    assert body["items"] == [
        {
            "content": WISH["content"],
            "source": "agent_inferred",
            "confidence": 0.6,
            "action_relevant": True,
            "entity": SLOT.entity,
            "attribute": SLOT.attribute,
        }
    ]
    assert remember.calls.last.request.headers["Idempotency-Key"] == "facts:abc12345"


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (401, MemoryRejected),
        (404, MemoryNotFound),
        (409, MemoryConflict),
        (422, MemoryRejected),
        (429, MemoryUnavailable),
        (500, MemoryUnavailable),
        (503, MemoryUnavailable),
    ],
)
@respx.mock
async def test_error_statuses_map_to_typed_errors(cloud, status, error) -> None:
    respx.post(f"{BASE}/v1/receipts").respond(
        status, json={"code": f"e{status}", "message": "nope", "request_id": "r"}
    )
    with pytest.raises(error) as raised:
        await cloud.report_execution(
            "cust-1", "dec-1", "book_visit", "skipped", idempotency_key="receipt:dec-1"
        )
    assert raised.value.status == status
    assert raised.value.code == f"e{status}"


@pytest.mark.parametrize("exc", [httpx.ReadTimeout("slow"), httpx.ConnectTimeout("slow")])
@respx.mock
async def test_timeouts_are_unavailable(cloud, exc) -> None:
    respx.post(f"{BASE}/v1/recall_for_action").mock(side_effect=exc)
    with pytest.raises(MemoryUnavailable) as raised:
        await cloud.evaluate_action("cust-1", "book", slot=day_slot(DAY))
    assert raised.value.code == "timeout"


@respx.mock
async def test_connection_refused_is_unavailable(cloud) -> None:
    respx.post(f"{BASE}/v1/recall").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(MemoryUnavailable):
        await cloud.recall("cust-1", "x")


@respx.mock
async def test_non_json_is_unavailable(cloud) -> None:
    respx.post(f"{BASE}/v1/recall").respond(502, text="<html>bad gateway</html>")
    with pytest.raises(MemoryUnavailable) as raised:
        await cloud.recall("cust-1", "x")
    assert raised.value.code == "non_json"


@respx.mock
async def test_wrong_shape_success_is_unavailable(cloud) -> None:
    respx.post(f"{BASE}/v1/recall").respond(200, json={"unexpected": True})
    with pytest.raises(MemoryUnavailable) as raised:
        await cloud.recall("cust-1", "x")
    assert raised.value.code == "invalid_response"


def _decision(outcome: str, memories: list, pending: list | None = None) -> dict:  # type: ignore[type-arg]
    return {
        "decision_id": "dec-p",
        "outcome": outcome,
        "memories": memories,
        "pending_confirmation_ids": pending or [],
    }


@respx.mock
async def test_cloud_act_on_unconfirmed_slot_evidence_is_only_ask(cloud: CloudMemory) -> None:
    """Cloud parity: act needs evidence the caller confirmed, whatever the service says."""
    trusted_by_policy = memory_json(
        "m-wish", WISH["content"], epistemic_source="user_stated", confidence=1.0,
        requires_confirmation=False,
    )  # fmt: skip
    respx.post(f"{BASE}/v1/recall_for_action").respond(
        200, json=_decision("act", [trusted_by_policy])
    )
    decision = await cloud.evaluate_action("cust-1", "book", slot=SLOT)
    assert decision.outcome == "ask" and decision.pending_confirmation_ids == ["m-wish"]


@respx.mock
async def test_cloud_act_on_superseded_or_flagged_evidence_is_not_act(cloud: CloudMemory) -> None:
    for stale in (
        memory_json("m-wish", WISH["content"], confirmed=True, superseded_by="m-new"),
        memory_json("m-wish", WISH["content"], confirmed=True, valid_until="2026-12-01T00:00:00"),
        memory_json("m-wish", WISH["content"], confirmed=True, injection_suspect=True),
    ):
        respx.post(f"{BASE}/v1/recall_for_action").respond(200, json=_decision("act", [stale]))
        respx.get(f"{BASE}/v1/pending_confirmations").respond(200, json={"memories": []})
        decision = await cloud.evaluate_action("cust-1", "book", slot=SLOT)
        assert decision.outcome == "abstain", stale


@respx.mock
async def test_cloud_ask_is_never_upgraded_and_always_has_pending(cloud: CloudMemory) -> None:
    respx.post(f"{BASE}/v1/recall_for_action").respond(
        200, json=_decision("ask", [CONFIRMED_WISH], [])
    )
    decision = await cloud.evaluate_action("cust-1", "book", slot=SLOT)
    assert decision.outcome == "ask" and decision.pending_confirmation_ids == ["m-wish"]
