"""Every decision names its slot: there is no unslotted path that would hand pycontextdb's
trust shortcuts (a `user_stated` fact at >= 0.7, two sessions as corroboration) to a caller
who forgot it."""

from __future__ import annotations

import httpx
import pytest

from contextdb_livekit.kit.gate import ActionGate


async def test_a_backend_decision_without_a_slot_is_refused(backend) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        await backend.evaluate_action("cust-1", "book a visit on thursday")


async def test_a_gate_decision_without_a_slot_is_refused(local_engine) -> None:  # type: ignore[no-untyped-def]
    gate = ActionGate(local_engine, None)
    with pytest.raises(TypeError):
        async with gate.evaluate("cust-1", "book_visit", "book a visit"):  # type: ignore[call-arg]
            pass


async def test_the_engine_service_refuses_a_request_without_a_slot(engine_service, user_id) -> None:  # type: ignore[no-untyped-def]
    """Only ContextDB Cloud names no slot (its stand-in is `testkit.cloud_standin`); the
    engine service decides in a slot or not at all, and records nothing."""
    transport = httpx.AsyncHTTPTransport(uds=str(engine_service.socket_path))
    async with httpx.AsyncClient(transport=transport, base_url="http://engine") as http:
        answer = await http.post(
            "/v1/recall_for_action",
            json={"user_id": user_id, "query": "book a visit on thursday", "request_key": "k-1"},
        )
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid"
    assert await engine_service.decision_trail(user_id) == []
