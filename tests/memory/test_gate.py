from __future__ import annotations

import asyncio
from datetime import date

import pytest

from memory.gate import ActionGate
from memory.outbox import Outbox, OutboxFlusher
from tests.memory.fakes import FlakyBackend
from tests.memory.support import day_request, day_slot

SLOT = day_slot(date(2026, 12, 10))


@pytest.fixture
def outbox(tmp_path) -> Outbox:
    return Outbox(tmp_path / "outbox.sqlite3")


async def _receipt_status(engine, user_id, decision_id):
    found = await engine.receipt_for(user_id, decision_id)
    return None if found is None else (found.receipt.status, found.receipt.error_code)


async def test_explicit_success_reports_once(local_engine, outbox, user_id):
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-wish-1"
    )
    await local_engine.confirm(user_id, wish.id)
    gate = ActionGate(local_engine, outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.outcome == "act"
        await decision.before_execution({"day": "2026-12-10"})
        assert [i.state for i in await outbox.items()] == ["intent"]
        decision.succeeded(external_ref="bk_9")
    assert decision.receipt is not None
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("succeeded", None)
    assert await outbox.items() == []  # intent cleared once the receipt landed


async def test_early_exit_without_status_on_ask_is_skipped(local_engine, outbox, user_id):
    gate = ActionGate(local_engine, outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.outcome == "abstain"
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("skipped", None)


async def test_exception_inside_reports_failed_and_propagates(local_engine, outbox, user_id):
    gate = ActionGate(local_engine, outbox)
    with pytest.raises(ZeroDivisionError):
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            raise ZeroDivisionError
    status = await _receipt_status(local_engine, user_id, decision.decision_id)
    assert status == ("failed", "unhandled_exception")


async def test_cancellation_reports_failed(local_engine, outbox, user_id):
    gate = ActionGate(local_engine, outbox)
    entered = asyncio.Event()
    holder = {}

    async def tool() -> None:
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            holder["decision"] = decision
            entered.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(tool())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    status = await _receipt_status(local_engine, user_id, holder["decision"].decision_id)
    assert status == ("failed", "cancelled")


async def test_refuses_execution_without_act(local_engine, outbox, user_id):
    gate = ActionGate(local_engine, outbox)
    with pytest.raises(RuntimeError):
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            await decision.before_execution({})
    assert await outbox.items() == []


async def test_backend_down_fails_closed(local_engine, outbox, user_id):
    backend = FlakyBackend(local_engine, failing={"evaluate_action"})
    gate = ActionGate(backend, outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.outcome == "abstain"
        assert decision.decision is None
        assert "down" in (decision.unavailable_reason or "")
    assert "report_execution" not in backend.calls


async def test_backend_stall_fails_closed_within_budget(local_engine, outbox, user_id):
    backend = FlakyBackend(local_engine, failing={"evaluate_action"}, stall_s=5)
    gate = ActionGate(backend, outbox, evaluate_timeout_s=0.05)
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.outcome == "abstain"
    assert loop.time() - started < 1.0
    assert decision.unavailable_reason == "memory backend timed out"


async def test_receipt_failure_goes_to_outbox_and_lands_later(local_engine, outbox, user_id):
    backend = FlakyBackend(local_engine, failing={"report_execution"})
    gate = ActionGate(backend, outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        decision.skipped()
    assert decision.receipt is None and decision.receipt_queued
    assert await _receipt_status(local_engine, user_id, decision.decision_id) is None
    [queued] = await outbox.items()
    assert queued.idempotency_key == f"receipt:{decision.decision_id}"

    backend.down = False
    flusher = OutboxFlusher(outbox, backend, {}, base_delay_s=0)
    await outbox.reschedule(queued.idempotency_key, 0, "retry now")
    assert await flusher.flush_once() == 1
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("skipped", None)
    assert await outbox.items() == []
