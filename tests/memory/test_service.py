from __future__ import annotations

import asyncio
from datetime import date

import httpx
import pytest
import respx
from pydantic import ValidationError

from memory.cloud import CloudMemory
from memory.factory import describe_backend, open_memory_backend
from memory.outbox import Outbox
from memory.service import CallerMemory, ConfirmationRefused
from memory.settings import MemorySettings
from memory.write_policy import requested_visit_day
from tests.memory.fakes import FlakyBackend


@pytest.fixture
def outbox(tmp_path) -> Outbox:
    return Outbox(tmp_path / "outbox.sqlite3")


async def test_prefetch_returns_snapshot(local_engine, outbox, user_id):
    await local_engine.remember_many(
        user_id, [requested_visit_day(date(2026, 12, 10))], idempotency_key="k-prefetch"
    )
    memory = CallerMemory(local_engine, outbox, user_id)
    snapshot = await memory.prefetch_snapshot(budget_ms=2000)
    assert snapshot.available and "Thursday 2026-12-10" in snapshot.context
    assert snapshot.context.startswith("[RECALLED DATA")


async def test_prefetch_timeout_yields_unavailable_snapshot(local_engine, outbox, user_id):
    backend = FlakyBackend(local_engine, failing={"recall"}, stall_s=5)
    memory = CallerMemory(backend, outbox, user_id)
    loop = asyncio.get_running_loop()
    started = loop.time()
    snapshot = await memory.prefetch_snapshot(budget_ms=50)
    assert loop.time() - started < 1
    assert not snapshot.available and snapshot.context == ""
    assert snapshot.reason == "timed out after 50 ms"


async def test_prefetch_error_never_raises(local_engine, outbox, user_id):
    memory = CallerMemory(FlakyBackend(local_engine, failing={"recall"}), outbox, user_id)
    snapshot = await memory.prefetch_snapshot(budget_ms=500)
    assert not snapshot.available and "network" in (snapshot.reason or "")


async def test_turn_recall_has_its_own_budget(local_engine, outbox, user_id):
    backend = FlakyBackend(local_engine, failing={"recall"}, stall_s=5)
    memory = CallerMemory(backend, outbox, user_id, turn_recall_budget_ms=30)
    snapshot = await memory.recall_for_turn("anything")
    assert snapshot.reason == "timed out after 30 ms"


async def test_only_offered_ids_can_be_confirmed(local_engine, outbox, user_id):
    [wish] = await local_engine.remember_many(
        user_id, [requested_visit_day(date(2026, 12, 10))], idempotency_key="k-offer"
    )
    memory = CallerMemory(local_engine, outbox, user_id)
    with pytest.raises(ConfirmationRefused):
        await memory.confirm(wish.id, attestation_id="att-1")
    memory.offer_for_confirmation([wish.id])
    confirmed = await memory.confirm(wish.id, attestation_id="att-1")
    assert confirmed.confirmed
    with pytest.raises(ConfirmationRefused):  # one yes per offer
        await memory.confirm(wish.id, attestation_id="att-2")


def test_settings_reject_a_non_project_key(monkeypatch):
    monkeypatch.setenv("CONTEXTDB_API_KEY", "sk-not-a-contextdb-key")
    with pytest.raises(ValidationError, match="cdb_"):
        MemorySettings(_env_file=None)


def test_settings_default_to_local(monkeypatch):
    monkeypatch.delenv("CONTEXTDB_API_KEY", raising=False)
    settings = MemorySettings(_env_file=None)
    assert settings.backend_name == "local"
    assert "local engine" in describe_backend(settings)


async def test_factory_picks_cloud_with_a_key(monkeypatch):
    monkeypatch.setenv("CONTEXTDB_API_KEY", "cdb_abc")
    monkeypatch.setenv("CONTEXTDB_BASE_URL", "https://cloud.test")
    settings = MemorySettings(_env_file=None)
    backend = await open_memory_backend(settings)
    try:
        assert isinstance(backend, CloudMemory)
    finally:
        await backend.close()


async def test_factory_local_engine_roundtrip(tmp_path, monkeypatch):
    monkeypatch.delenv("CONTEXTDB_API_KEY", raising=False)
    monkeypatch.setenv("CONTEXTDB_LOCAL_PATH", str(tmp_path / "m.sqlite3"))
    backend = await open_memory_backend(MemorySettings(_env_file=None))
    try:
        assert (await backend.recall("cust-x", "hello")).memories == []
    finally:
        await backend.close()
        from testkit.engine import stop_engine

        await stop_engine(tmp_path / "m.sqlite3")


async def test_disabled_memory_fails_closed(monkeypatch):
    from memory.errors import MemoryUnavailable
    from memory.factory import open_memory_backend_or_unavailable

    monkeypatch.setenv("MEMORY_ENABLED", "false")
    backend = await open_memory_backend_or_unavailable(MemorySettings(_env_file=None))
    with pytest.raises(MemoryUnavailable, match="disabled"):
        await backend.evaluate_action("cust-1", "book")


async def test_unstartable_local_engine_degrades_to_unavailable(tmp_path, monkeypatch):
    from memory.errors import MemoryUnavailable
    from memory.factory import open_memory_backend_or_unavailable

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the engine's folder should be")
    monkeypatch.delenv("CONTEXTDB_API_KEY", raising=False)
    monkeypatch.setenv("CONTEXTDB_LOCAL_PATH", str(blocker / "memory.sqlite3"))
    backend = await open_memory_backend_or_unavailable(MemorySettings(_env_file=None))
    with pytest.raises(MemoryUnavailable):
        await backend.recall("cust-1", "anything")


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (httpx.Response(200, json={"ok": True, "service": "contextdb"}), None),
        (httpx.Response(401, json={"code": "unauthorized", "message": "bad key"}), "refused"),
        (httpx.ConnectError("refused"), "unreachable"),
    ],
)
@respx.mock
async def test_startup_check_names_the_cloud_problem(monkeypatch, response, expected):
    from memory.factory import check_backend

    monkeypatch.setenv("CONTEXTDB_API_KEY", "cdb_probe")
    monkeypatch.setenv("CONTEXTDB_BASE_URL", "https://cloud.test")
    route = respx.get("https://cloud.test/health")
    if isinstance(response, Exception):
        route.mock(side_effect=response)
    else:
        route.mock(return_value=response)
    problem = await check_backend(MemorySettings(_env_file=None))
    if expected is None:
        assert problem is None
    else:
        assert expected in problem and "https://cloud.test" in problem


async def test_decisions_and_receipts_survive_a_restart(tmp_path, user_id):
    from memory.local_engine import LocalEngine
    from memory.models import receipt_idempotency_key
    from memory.write_policy import visit_day_slot

    engine = await LocalEngine.open(tmp_path / "restart.sqlite3")
    decision = await engine.evaluate_action(
        user_id, "book", slot=visit_day_slot(date(2026, 12, 10))
    )
    await engine.close()

    reopened = await LocalEngine.open(tmp_path / "restart.sqlite3")
    try:
        receipt = await reopened.report_execution(
            user_id,
            decision.decision_id,
            "book_visit",
            "skipped",
            idempotency_key=receipt_idempotency_key(decision.decision_id),
        )
        assert receipt.outcome == "abstain"
        [record] = await reopened.decision_trail(user_id)
        assert (record.decision_id, record.status) == (decision.decision_id, "skipped")
    finally:
        await reopened.close()
