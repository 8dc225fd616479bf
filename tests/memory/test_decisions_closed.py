"""Every decision closed (issue 21.2): request keys, the sweeper, decisions heard late, and
a gate that keeps to its budget whatever the backend or the outbox does."""

from __future__ import annotations

import asyncio
from datetime import date

import asyncpg
import pytest

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.kit.gate import ActionGate
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.ledger import SWEEP_ERROR
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.support import day_request, day_slot

SLOT = day_slot(date(2026, 12, 10))


@pytest.fixture(params=["local_engine", "engine_service", "postgres_engine"])
def keyed_backend(request):  # type: ignore[no-untyped-def]
    """Every backend with a ledger of ours (Cloud's recall_for_action takes no key)."""
    return request.getfixturevalue(request.param)


async def test_one_request_key_one_decision(keyed_backend, user_id: str) -> None:
    """Asking again under the same key (the answer was lost) returns the same decision."""
    backend = keyed_backend
    first = await backend.evaluate_action(user_id, "book", slot=SLOT, request_key="gate:k1")
    again = await backend.evaluate_action(user_id, "book", slot=SLOT, request_key="gate:k1")
    other = await backend.evaluate_action(user_id, "book", slot=SLOT, request_key="gate:k2")
    assert again.decision_id == first.decision_id and again.outcome == first.outcome
    assert other.decision_id != first.decision_id
    trail = await backend.decision_trail(user_id)
    assert sorted(d.decision_id for d in trail) == sorted({first.decision_id, other.decision_id})


async def test_a_request_key_is_the_callers_own(local_engine, user_id, other_user_id) -> None:
    mine = await local_engine.evaluate_action(user_id, "book", slot=SLOT, request_key="gate:k")
    theirs = await local_engine.evaluate_action(
        other_user_id, "book", slot=SLOT, request_key="gate:k"
    )
    assert mine.decision_id != theirs.decision_id


async def test_concurrent_asks_with_one_key_record_one_decision(keyed_backend, user_id) -> None:
    decisions = await asyncio.gather(
        *(keyed_backend.evaluate_action(user_id, "book", slot=SLOT, request_key="gate:same")
          for _ in range(6))
    )  # fmt: skip
    assert len({d.decision_id for d in decisions}) == 1
    assert len(await keyed_backend.decision_trail(user_id)) == 1


async def test_the_sweeper_closes_only_old_open_decisions(local_engine, user_id) -> None:
    old = await local_engine.evaluate_action(user_id, "book", slot=SLOT)
    closed = await local_engine.evaluate_action(user_id, "book", slot=SLOT)
    await local_engine.report_execution(
        user_id, closed.decision_id, "book_visit", "skipped",
        idempotency_key=receipt_idempotency_key(closed.decision_id),
    )  # fmt: skip
    assert await local_engine.sweep_open_decisions(3600) == []  # nothing that old
    await asyncio.sleep(0.05)
    young = await local_engine.evaluate_action(user_id, "book", slot=SLOT)
    assert await local_engine.sweep_open_decisions(0.03) == [old.decision_id]
    trail = {d.decision_id: d for d in await local_engine.decision_trail(user_id)}
    swept = trail[old.decision_id]
    assert (swept.status, swept.error_code, swept.policy_alignment) == (
        "failed",
        SWEEP_ERROR,
        "aligned",
    )
    assert trail[closed.decision_id].status == "skipped"
    assert trail[young.decision_id].status is None
    # A receipt arriving after the sweep is refused, never a second one.
    with pytest.raises(Exception, match="terminal receipt"):
        await local_engine.report_execution(
            user_id, old.decision_id, "book_visit", "skipped",
            idempotency_key=receipt_idempotency_key(old.decision_id),
        )  # fmt: skip


async def test_the_shared_sweeper_leaves_a_decision_whose_receipt_is_queued(
    postgres_engine, shared_database, database_url, user_id
) -> None:
    queued = await postgres_engine.evaluate_action(user_id, "book", slot=SLOT)
    unheard = await postgres_engine.evaluate_action(user_id, "book", slot=SLOT)
    await PostgresOutbox(shared_database).put(
        receipt_idempotency_key(queued.decision_id), "receipt", user_id,
        {"decision_id": queued.decision_id, "action_name": "book_visit", "status": "skipped"},
        hold=False,
    )  # fmt: skip
    await asyncio.sleep(0.05)
    swept = await asyncio.gather(
        postgres_engine.sweep_open_decisions(0.01), postgres_engine.sweep_open_decisions(0.01)
    )
    assert sorted(d for ids in swept for d in ids) == [unheard.decision_id]  # once, not twice
    conn = await asyncpg.connect(database_url)
    try:
        receipts = await conn.fetch("SELECT decision_id, error_code FROM host_receipts")
    finally:
        await conn.close()
    assert [tuple(r) for r in receipts] == [(unheard.decision_id, SWEEP_ERROR)]


class LateAnswer:
    """The backend records the decision, then answers only after the gate gave up; and it
    ignores being cancelled (a transport that finishes its read anyway)."""

    def __init__(self, inner, delay_s: float) -> None:  # type: ignore[no-untyped-def]
        self._inner, self.delay_s = inner, delay_s
        self.recorded: list[str] = []

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def evaluate_action(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        decision = await self._inner.evaluate_action(*args, **kwargs)
        self.recorded.append(decision.decision_id)
        try:
            await asyncio.sleep(self.delay_s)
        except asyncio.CancelledError:
            await asyncio.sleep(self.delay_s)  # cancellation ignored for a while
        return decision


@pytest.mark.parametrize("outcome", ["abstain", "act"])
async def test_a_decision_heard_after_the_budget_is_closed_and_the_gate_kept_its_budget(
    local_engine, tmp_path, user_id, outcome: str
) -> None:
    if outcome == "act":
        [wish] = await local_engine.remember_many(
            user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-late-act"
        )
        await local_engine.confirm(user_id, wish.id)
    backend = LateAnswer(local_engine, delay_s=0.6)
    gate = ActionGate(backend, SqliteOutbox(tmp_path / "outbox.sqlite3"), evaluate_timeout_s=0.2)
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        assert decision.decision is None and decision.outcome == "abstain"
    assert loop.time() - started < 0.2 + 0.15
    [recorded] = backend.recorded
    for _ in range(100):
        found = await local_engine.receipt_for(user_id, recorded)
        if found is not None:
            break
        await asyncio.sleep(0.02)
    assert found is not None, "the late decision was never closed"
    expected = ("failed", "decision_too_late") if outcome == "act" else ("skipped", None)
    assert (found.receipt.status, found.receipt.error_code) == expected
    assert found.receipt.policy_alignment == "aligned"


class HangingOutbox:
    """Every outbox step takes far longer than its bound and ignores cancellation."""

    def __init__(self, inner: SqliteOutbox) -> None:
        self._inner = inner

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        target = getattr(self._inner, name)

        async def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
            try:
                await asyncio.sleep(3)
            except asyncio.CancelledError:
                await asyncio.sleep(3)
            return await target(*args, **kwargs)

        return slow


async def test_a_hanging_outbox_never_holds_the_gate_past_its_bounds(
    local_engine, tmp_path, user_id
) -> None:
    [wish] = await local_engine.remember_many(
        user_id, [day_request(date(2026, 12, 10))], idempotency_key="k-hanging-outbox"
    )
    await local_engine.confirm(user_id, wish.id)
    gate = ActionGate(
        local_engine, HangingOutbox(SqliteOutbox(tmp_path / "outbox.sqlite3")), outbox_timeout_s=0.1
    )  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with gate.evaluate(user_id, "book_visit", "book", SLOT) as decision:
        await decision.before_execution({"day": "2026-12-10"})
        decision.succeeded(external_ref="bk_h")
    # intent (0.1 s) + receipt sent directly; nothing waits for the hanging outbox.
    assert loop.time() - started < 1.0
    found = await local_engine.receipt_for(user_id, decision.decision_id)
    assert found is not None and found.receipt.status == "succeeded"


async def test_a_lost_answer_is_asked_again_under_the_same_key(local_engine, user_id) -> None:
    class LosesFirstAnswer:
        def __init__(self) -> None:
            self.calls = 0

        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(local_engine, name)

        async def evaluate_action(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.calls += 1
            decision = await local_engine.evaluate_action(*args, **kwargs)
            if self.calls == 1:
                raise MemoryUnavailable("reset after the decision was recorded", code="network")
            return decision

    backend = LosesFirstAnswer()
    async with ActionGate(backend, None).evaluate(user_id, "book_visit", "book", SLOT) as gate:
        assert gate.decision is not None
    trail = await local_engine.decision_trail(user_id)
    assert [(d.decision_id, d.status) for d in trail] == [(gate.decision_id, "skipped")]


async def test_postgres_engine_sweeps_through_the_backend(postgres_engine, user_id) -> None:
    assert isinstance(postgres_engine, LocalEngine)
    decision = await postgres_engine.evaluate_action(user_id, "book", slot=SLOT)
    await asyncio.sleep(0.02)
    assert await postgres_engine.sweep_open_decisions(0.01) == [decision.decision_id]
