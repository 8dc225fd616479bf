from __future__ import annotations

import asyncio
import inspect
from datetime import date
from pathlib import Path

import httpx
import pytest
import respx
from pydantic import ValidationError

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.engine_client import LocalEngineMemory
from contextdb_livekit.backends.factory import describe_backend, open_memory_backend
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from memory.facts import CALLER_FACTS, CallerFact
from tests.memory.fakes import FlakyBackend
from tests.memory.support import day_request, day_slot


@pytest.fixture
def outbox(tmp_path) -> SqliteOutbox:
    return SqliteOutbox(tmp_path / "outbox.sqlite3")


async def test_prefetch_returns_snapshot_of_facts_but_not_requests(local_engine, outbox, user_id):
    thursdays = CallerFact(
        "availability", "unavailable", "user_stated", 0.9, date(2026, 12, 1),
        polarity="negative", key="thursday",
    )  # fmt: skip
    await local_engine.remember_many(
        user_id,
        [day_request(date(2026, 12, 10)), thursdays.to_write()],
        idempotency_key="k-prefetch",
    )
    memory = CallerMemory(local_engine, outbox, user_id, facts=CALLER_FACTS)
    snapshot = await memory.prefetch_snapshot(budget_ms=2000)
    assert snapshot.available and snapshot.context.startswith("[RECALLED DATA")
    assert "Thursdays do not work for the caller (said 1 Dec)" in snapshot.context
    # A request belongs to its call; it is never shown as something the caller wants.
    assert "asked in one call" not in snapshot.context


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
        assert not isinstance(backend, LocalEngineMemory)
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
    from contextdb_livekit.backends.factory import open_memory_backend_or_unavailable
    from contextdb_livekit.memory.errors import MemoryUnavailable

    monkeypatch.setenv("MEMORY_ENABLED", "false")
    backend = await open_memory_backend_or_unavailable(MemorySettings(_env_file=None))
    with pytest.raises(MemoryUnavailable, match="disabled"):
        await backend.evaluate_action("cust-1", "book", slot=day_slot(date(2026, 12, 10)))


@pytest.mark.parametrize(
    "method",
    sorted(
        name
        for name, member in vars(MemoryBackend).items()
        if inspect.iscoroutinefunction(member) and name != "close"
    ),
)
async def test_the_stand_in_backend_fails_every_protocol_method_closed(method: str) -> None:
    """A method added to the MemoryBackend protocol must be added to UnavailableBackend."""
    from contextdb_livekit.backends.factory import UnavailableBackend
    from contextdb_livekit.memory.errors import MemoryUnavailable

    bound = getattr(UnavailableBackend("engine down"), method)
    params = inspect.signature(bound).parameters.values()
    args = [
        f"arg-{p.name}"
        for p in params
        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    kwargs = {
        p.name: f"arg-{p.name}" for p in params if p.default is p.empty and p.kind is p.KEYWORD_ONLY
    }
    with pytest.raises(MemoryUnavailable, match="engine down") as raised:
        await bound(*args, **kwargs)
    assert raised.value.code == "backend_unavailable"


async def test_unstartable_local_engine_degrades_to_unavailable(tmp_path, monkeypatch):
    from contextdb_livekit.backends.factory import open_memory_backend_or_unavailable
    from contextdb_livekit.memory.errors import MemoryUnavailable

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
    from contextdb_livekit.backends.factory import check_backend

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
    from contextdb_livekit.memory.models import receipt_idempotency_key

    engine = await open_engine(tmp_path / "restart.sqlite3")
    decision = await engine.evaluate_action(user_id, "book", slot=day_slot(date(2026, 12, 10)))
    await engine.close()

    reopened = await open_engine(tmp_path / "restart.sqlite3")
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


async def test_every_write_is_redacted_before_the_outbox_and_the_backend(
    local_engine, outbox, user_id
):
    from contextdb_livekit.memory.models import FactToRemember

    backend = FlakyBackend(local_engine, failing={"remember_many"})
    memory = CallerMemory(backend, outbox, user_id)
    facts = [
        FactToRemember("Card on file 4111 1111 1111 1111, gate code is 4821", "user_stated", 0.9)
    ]
    outcome = await memory.remember(facts, idempotency_key="k-redact-1", timeout_s=1)
    assert outcome.queued == 1
    [row] = await outbox.items()
    stored = row.payload["facts"][0]["content"]
    assert "4111" not in stored and "4821" not in stored
    backend.down = False
    [written] = await memory.write_now(facts, idempotency_key="k-redact-2")
    assert "4111" not in written.content and "4821" not in written.content


async def test_the_end_of_call_write_keeps_its_budget(local_engine, outbox, user_id):
    from contextdb_livekit.memory.models import FactToRemember

    backend = FlakyBackend(local_engine, failing={"remember_many"}, stall_s=5)
    memory = CallerMemory(backend, outbox, user_id)
    loop = asyncio.get_running_loop()
    started = loop.time()
    outcome = await memory.remember(
        [FactToRemember("Caller's address: 1 Elm Road", "user_stated", 0.9)],
        idempotency_key="k-budget",
        timeout_s=0.2,
    )
    assert loop.time() - started < 1.0
    assert (outcome.written, outcome.queued) == (0, 1)


async def test_the_fact_write_is_durable_before_the_network_call(local_engine, outbox, user_id):
    from contextdb_livekit.memory.models import FactToRemember

    seen_in_outbox: list[int] = []

    class Watching(FlakyBackend):
        async def remember_many(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            seen_in_outbox.append(len(await outbox.items()))
            return await local_engine.remember_many(*args, **kwargs)

    memory = CallerMemory(Watching(local_engine, failing=set()), outbox, user_id)
    outcome = await memory.remember(
        [FactToRemember("Caller's address: 1 Elm Road", "user_stated", 0.9)],
        idempotency_key="k-durable",
        timeout_s=2,
    )
    assert seen_in_outbox == [1] and outcome.written == 1
    assert await outbox.items() == []  # delivered, so cleared


class BrokenOutbox:
    async def put(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        from contextdb_livekit.memory.errors import OutboxUnavailable

        raise OutboxUnavailable(Path("/x/outbox.sqlite3"), "read-only file system")


async def test_a_broken_outbox_never_blocks_the_direct_fact_write(local_engine, user_id):
    from contextdb_livekit.memory.models import FactToRemember

    memory = CallerMemory(local_engine, BrokenOutbox(), user_id)  # type: ignore[arg-type]
    outcome = await memory.remember(
        [FactToRemember("Caller's address: 1 Elm Road", "user_stated", 0.9)],
        idempotency_key="k-broken",
        timeout_s=2,
    )
    assert (outcome.written, outcome.queued, outcome.lost) == (1, 0, 0)
    recalled = await local_engine.recall(user_id, "address", top_k=5)
    assert any("1 Elm Road" in m.content for m in recalled.memories)
