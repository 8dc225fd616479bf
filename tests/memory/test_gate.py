from __future__ import annotations

import asyncio
from datetime import date

import pytest

from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.kit.gate import ActionGate
from contextdb_livekit.memory.errors import MemoryConflict, MemoryRejected, MemoryUnavailable
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.fakes import FlakyBackend
from tests.memory.support import day_request, day_slot

SLOT = day_slot(date(2026, 12, 10))


@pytest.fixture
def outbox(tmp_path) -> SqliteOutbox:
    return SqliteOutbox(tmp_path / "outbox.sqlite3")


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


async def test_an_act_block_that_ends_without_a_status_is_receipted_failed(
    local_engine, outbox, user_id
):
    """An `act` whose block returns without saying what happened may have run its side
    effect: the receipt says failed (outcome not reported), never skipped."""
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-wish-silent"
    )
    await local_engine.confirm(user_id, wish.id)
    gate = ActionGate(local_engine, outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.outcome == "act"
    status = await _receipt_status(local_engine, user_id, decision.decision_id)
    assert status == ("failed", "outcome_not_reported")


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
    await outbox.settle(queued.idempotency_key, MemoryUnavailable("retry now"), delay_s=0)
    assert await flusher.flush_once() == 1
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("skipped", None)
    assert await outbox.items() == []


class Pausing:
    """Wraps a backend or outbox: the named method waits at `gate` until released."""

    def __init__(self, inner, method: str) -> None:  # type: ignore[no-untyped-def]
        self._inner, self.method = inner, method
        self.reached, self.release = asyncio.Event(), asyncio.Event()

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        target = getattr(self._inner, name)
        if name != self.method:
            return target

        async def paused(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.reached.set()
            await self.release.wait()
            return await target(*args, **kwargs)

        return paused


async def _one_receipt_per_decision(engine, user_id) -> list:  # type: ignore[no-untyped-def]
    trail = await engine.decision_trail(user_id)
    assert all(record.status is not None for record in trail), trail
    return trail


@pytest.mark.parametrize(
    "where",
    ["evaluate_action", "record_intent", "inside_block", "report_execution"],
)
async def test_cancelled_at_every_await_leaves_one_receipt_or_no_decision(
    local_engine, outbox, user_id, where
):
    """A barge-in or hang-up can cancel the tool at any await of the gate."""
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key=f"k-cancel-{where}"
    )
    await local_engine.confirm(user_id, wish.id)
    backend = (
        Pausing(local_engine, where)
        if where in ("evaluate_action", "report_execution")
        else local_engine
    )
    box = Pausing(outbox, where) if where == "record_intent" else outbox
    gate = ActionGate(backend, box)
    inside = asyncio.Event()

    async def tool() -> None:
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            await decision.before_execution({"day": "2026-12-10"})
            inside.set()
            if where == "inside_block":
                await asyncio.sleep(30)
            decision.succeeded(external_ref="bk_done")

    task = asyncio.create_task(tool())
    pauser = backend if isinstance(backend, Pausing) else box if isinstance(box, Pausing) else None
    if pauser is not None:
        await asyncio.wait_for(pauser.reached.wait(), 5)
    else:
        await asyncio.wait_for(inside.wait(), 5)
    task.cancel()
    if pauser is not None:
        await asyncio.sleep(0.05)
        pauser.release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(100):  # a shielded receipt may still be landing
        trail = await local_engine.decision_trail(user_id)
        if all(record.status is not None for record in trail):
            break
        await asyncio.sleep(0.02)
    [record] = await _one_receipt_per_decision(local_engine, user_id)
    if where == "report_execution":
        # Cancelled while the receipt was in flight: the outcome already set is what lands.
        assert (record.status, record.external_ref) == ("succeeded", "bk_done")
    else:
        assert (record.status, record.error_code) == ("failed", "cancelled")


@pytest.mark.parametrize(
    "error",
    [
        MemoryConflict("receipt exists", status=409),
        MemoryRejected("bad", status=422),
        MemoryUnavailable("non-JSON 2xx", code="non_json", status=200),
        KeyError("receipt"),
    ],
    ids=["409", "422", "non_json", "raw"],
)
async def test_receipt_errors_after_a_booking_never_escape(local_engine, outbox, user_id, error):
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key=f"k-err-{error!r}"
    )
    await local_engine.confirm(user_id, wish.id)

    class Failing(FlakyBackend):
        async def report_execution(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise error

    gate = ActionGate(Failing(local_engine, failing=set()), outbox)
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        await decision.before_execution({"day": "2026-12-10"})
        decision.succeeded(external_ref="bk_1")
    # The booking's answer to the model stays "booked"; the receipt is queued or parked.
    # A 409 is never "already recorded" (this very receipt would have been replayed): the
    # real receipt is kept, parked for a human with the conflict as its reason.
    [item] = await outbox.items()
    assert item.idempotency_key == f"receipt:{decision.decision_id}"
    assert item.payload["status"] == "succeeded"
    parks = isinstance(error, MemoryRejected | MemoryConflict)
    assert item.state == ("dead" if parks else "pending")
    if isinstance(error, MemoryConflict):
        assert item.last_error is not None and item.last_error.startswith("receipt_conflict")
        assert decision.receipt_conflict is not None


class BrokenOutbox:
    async def record_intent(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    put = mark_done = mark_dead = record_intent


async def test_a_broken_outbox_never_blocks_direct_delivery(local_engine, user_id):
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-broken-outbox"
    )
    await local_engine.confirm(user_id, wish.id)
    gate = ActionGate(local_engine, BrokenOutbox())
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        await decision.before_execution({"day": "2026-12-10"})
        decision.succeeded(external_ref="bk_2")
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("succeeded", None)


async def test_a_booking_in_progress_outlives_the_sweeper_and_its_receipt_is_the_real_one(
    tmp_path, user_id
):
    """Issue 31: the engine's sweeper closed a booking still running (its clock an hour
    off), and the gate dropped the real `succeeded` receipt as "already recorded". The
    booking's intent is in the worker's outbox from before the side effect: the engine's
    sweeper leaves it, however often it runs and however small its threshold."""
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    engine = await open_engine(tmp_path / "memory.sqlite3", outbox_path=outbox.path)
    try:
        [wish] = await engine.remember_many(
            user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-wish-sweep"
        )
        await engine.confirm(user_id, wish.id)
        gate = ActionGate(engine, outbox)
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            await decision.before_execution({"day": "2026-12-10"})
            for _ in range(3):  # the booking takes a while; the sweeper keeps passing
                assert await engine.sweep_open_decisions(0) == []
                await asyncio.sleep(0.02)
            decision.succeeded(external_ref="bk_7")
        assert await _receipt_status(engine, user_id, decision.decision_id) == ("succeeded", None)
        assert await outbox.items() == []
    finally:
        await engine.close()


async def test_a_receipt_refused_because_the_sweeper_closed_first_is_parked_not_dropped(
    tmp_path, user_id
):
    """Whatever closed the decision first (here the sweeper, before any intent existed),
    the real receipt is never lost: it stays in the outbox, parked with the conflict."""
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    engine = await open_engine(tmp_path / "memory.sqlite3", outbox_path=outbox.path)
    try:
        [wish] = await engine.remember_many(
            user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-wish-409"
        )
        await engine.confirm(user_id, wish.id)
        gate = ActionGate(engine, outbox)
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            assert await engine.sweep_open_decisions(0) == [decision.decision_id]
            await decision.before_execution({"day": "2026-12-10"})
            decision.succeeded(external_ref="bk_8")
        assert decision.receipt_conflict is not None
        [parked] = await outbox.parked()
        assert parked.idempotency_key == f"receipt:{decision.decision_id}"
        assert (parked.payload["status"], parked.payload["external_ref"]) == ("succeeded", "bk_8")
        assert parked.state == "dead" and "receipt_conflict" in (parked.last_error or "")
    finally:
        await engine.close()


async def test_a_second_status_never_overwrites_the_first(local_engine, outbox, user_id):
    """Issue 31 (a mutation that survived): once the block said what happened, nothing
    later in it (a second status, an exception, a cancellation's default) changes it."""
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-wish-twice"
    )
    await local_engine.confirm(user_id, wish.id)
    gate = ActionGate(local_engine, outbox)
    with pytest.raises(ZeroDivisionError):
        async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
            await decision.before_execution({"day": "2026-12-10"})
            decision.succeeded(external_ref="bk_first")
            for second in (lambda: decision.failed("calendar_down"), decision.skipped):
                with pytest.raises(RuntimeError, match="already set"):
                    second()
            raise ZeroDivisionError  # after the booking: its outcome stands
    assert (decision.status, decision.external_ref, decision.error_code) == (
        "succeeded", "bk_first", None,
    )  # fmt: skip
    assert await _receipt_status(local_engine, user_id, decision.decision_id) == ("succeeded", None)
