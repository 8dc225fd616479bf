"""The decision ledger contract (`stores.ledger.DecisionLedger`), one suite run against both
stores: the engine process's SQLite file and the shared Postgres tables."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from contextdb_livekit.memory.errors import MemoryConflict, MemoryNotFound, MemoryRejected
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.ledger import (
    SWEEP_ACTION,
    SWEEP_ERROR,
    DecisionLedger,
    ReceiptRequest,
    RecordedDecision,
)
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.postgres.ledger import PostgresDecisionLedger
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.multihost.test_clock import faketime

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgres"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DecisionLedger]:
    store: DecisionLedger
    if request.param == "sqlite":
        # The engine's ledger reads the worker's outbox beside it (`outbox`, below).
        store = SqliteDecisionLedger(
            tmp_path / "memory.ledger.sqlite3", outbox_path=tmp_path / "outbox.sqlite3"
        )
    else:
        store = PostgresDecisionLedger(request.getfixturevalue("shared_database"))
    yield store
    store.close()


@pytest.fixture
def outbox(ledger: DecisionLedger, tmp_path: Path) -> Outbox:
    """The outbox the ledger's sweeper consults: the worker's file, or the shared table."""
    if isinstance(ledger, SqliteDecisionLedger):
        assert ledger.outbox_path is not None
        return SqliteOutbox(ledger.outbox_path)
    assert isinstance(ledger, PostgresDecisionLedger)
    return PostgresOutbox(ledger.database)


async def sweep_until_closed(ledger: DecisionLedger, older_than_s: float) -> list[str]:
    """Passes a moment apart until one closes something (a sweeper may need to see a
    decision open for `older_than_s` itself); the ids closed, or [] after a second."""
    for _ in range(20):
        closed = await ledger.sweep_open(older_than_s)
        if closed:
            return closed
        await asyncio.sleep(0.05)
    return []


async def decide(ledger: DecisionLedger, user_id: str = "cust-1", **kwargs):  # type: ignore[no-untyped-def]
    return await ledger.record_decision(
        user_id=user_id, query="book Thursday", memories=[], pending_ids=["m-9"],
        **{"outcome": "ask", **kwargs},
    )  # fmt: skip


def receipt(decision_id: str, status: str = "skipped", key: str = "", **kwargs) -> ReceiptRequest:  # type: ignore[no-untyped-def]
    return ReceiptRequest(
        kwargs.pop("user_id", "cust-1"), decision_id, kwargs.pop("action_name", "book_visit"),
        status, key or f"receipt:{decision_id}", **kwargs,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_a_request_key_returns_the_decision_recorded_first(ledger) -> None:
    first = await decide(ledger, request_key="eval-1")
    uuid.UUID(first.decision_id)  # a fresh uuid per decision
    again = await decide(ledger, request_key="eval-1", outcome="act")
    assert isinstance(again, RecordedDecision)
    assert (again.decision_id, again.outcome, again.pending_ids) == (
        first.decision_id, "ask", ["m-9"],
    )  # fmt: skip
    assert await ledger.find_request("cust-1", "eval-1") == again
    # The key is the caller's: another caller's evaluation is its own decision.
    other = await decide(ledger, user_id="cust-2", request_key="eval-1")
    assert other.decision_id != first.decision_id
    assert await ledger.find_request("cust-1", "eval-2") is None
    # Without a key every ask is a new decision.
    assert (await decide(ledger)).decision_id != (await decide(ledger)).decision_id


async def test_one_terminal_receipt_per_decision_replayed_by_its_key(ledger) -> None:
    decision = await decide(ledger)
    assert await ledger.receipt_for("cust-1", decision.decision_id) is None
    landed = await ledger.report(receipt(decision.decision_id))
    assert (landed.outcome, landed.receipt.status) == ("ask", "skipped")
    assert landed.receipt.policy_alignment == "aligned"
    replay = await ledger.report(receipt(decision.decision_id))
    assert replay.receipt.id == landed.receipt.id
    with pytest.raises(MemoryConflict) as reused:
        await ledger.report(receipt(decision.decision_id, "failed"))
    assert reused.value.code == "idempotency_conflict"
    with pytest.raises(MemoryConflict) as second:
        await ledger.report(receipt(decision.decision_id, "failed", key="receipt:another"))
    assert second.value.code == "receipt_exists"
    stored = await ledger.receipt_for("cust-1", decision.decision_id)
    assert stored is not None and stored.receipt.id == landed.receipt.id


async def test_a_receipt_is_bound_to_its_callers_partition(ledger) -> None:
    decision = await decide(ledger)
    with pytest.raises(MemoryNotFound):
        await ledger.report(receipt(decision.decision_id, user_id="cust-2"))
    with pytest.raises(MemoryNotFound):
        await ledger.report(receipt(str(uuid.uuid4())))
    await ledger.report(receipt(decision.decision_id))
    assert await ledger.receipt_for("cust-2", decision.decision_id) is None


async def test_executing_anything_but_act_violates_the_policy(ledger) -> None:
    asked, acted = await decide(ledger), await decide(ledger, outcome="act")
    violated = await ledger.report(receipt(asked.decision_id, "succeeded", external_ref="b-1"))
    aligned = await ledger.report(receipt(acted.decision_id, "succeeded", external_ref="b-2"))
    assert violated.receipt.policy_alignment == "violated"
    assert (aligned.receipt.policy_alignment, aligned.receipt.external_ref) == ("aligned", "b-2")


async def test_a_malformed_receipt_is_rejected_before_the_store(ledger) -> None:
    decision = await decide(ledger)
    for bad in (
        receipt(decision.decision_id, action_name="Book Visit!"),
        receipt(decision.decision_id, "pending"),
        receipt(decision.decision_id, "skipped", error_code="calendar_down"),
        receipt(decision.decision_id, key="short"),
    ):
        with pytest.raises(MemoryRejected):
            await ledger.report(bad)
    assert await ledger.receipt_for("cust-1", decision.decision_id) is None


async def test_the_trail_lists_each_decision_with_its_receipt_oldest_first(ledger) -> None:
    first, second, third = await decide(ledger), await decide(ledger), await decide(ledger)
    await decide(ledger, user_id="cust-2")
    await ledger.report(receipt(second.decision_id, "failed", error_code="calendar_down"))
    trail = await ledger.trail("cust-1")
    assert [r.decision_id for r in trail] == [
        first.decision_id, second.decision_id, third.decision_id,
    ]  # fmt: skip
    assert (trail[1].status, trail[1].error_code, trail[1].policy_alignment) == (
        "failed", "calendar_down", "violated",
    )  # fmt: skip
    assert trail[0].status is None and trail[2].status is None


async def test_the_sweeper_closes_only_old_open_decisions(ledger) -> None:
    closed_one, open_one = await decide(ledger), await decide(ledger)
    await ledger.report(receipt(closed_one.decision_id))
    assert await ledger.sweep_open(3600) == []  # nothing that old
    await asyncio.sleep(0.05)
    assert await ledger.sweep_open(0.01) == [open_one.decision_id]
    swept = await ledger.receipt_for("cust-1", open_one.decision_id)
    assert swept is not None
    assert (swept.receipt.status, swept.receipt.error_code, swept.receipt.action_name) == (
        "failed", SWEEP_ERROR, SWEEP_ACTION,
    )  # fmt: skip
    assert swept.receipt.policy_alignment == "aligned"  # the sweeper executed nothing
    assert await ledger.sweep_open(0) == []


async def test_a_write_record_goes_in_progress_then_done(ledger) -> None:
    assert await ledger.write_state("w-1") is None
    async with ledger.write_guard("w-1"):
        assert (await ledger.begin_write("w-1", "hash-a", "cust-1")).state == "new"
    assert await ledger.write_state("w-1") == "in_progress"
    # An attempt that stopped part-way is found again, to be completed.
    again = await ledger.begin_write("w-1", "hash-a", "cust-1")
    assert (again.state, again.ids) == ("in_progress", [])
    with pytest.raises(MemoryConflict):
        await ledger.begin_write("w-1", "hash-b", "cust-1")
    await ledger.complete_write("w-1", ["m-1", "m-2"])
    done = await ledger.begin_write("w-1", "hash-a", "cust-1")
    assert (done.state, done.ids) == ("done", ["m-1", "m-2"])
    with pytest.raises(MemoryConflict):
        await ledger.begin_write("w-1", "hash-b", "cust-1")


async def test_one_write_per_key_at_a_time(ledger) -> None:
    active: dict[str, int] = {"k-1": 0, "k-2": 0}
    most_per_key: dict[str, int] = {"k-1": 0, "k-2": 0}
    most_overall = 0

    async def write(key: str) -> None:
        nonlocal most_overall
        async with ledger.write_guard(key):
            active[key] += 1
            most_per_key[key] = max(most_per_key[key], active[key])
            most_overall = max(most_overall, sum(active.values()))
            await asyncio.sleep(0.05)
            active[key] -= 1

    await asyncio.gather(write("k-1"), write("k-1"), write("k-1"), write("k-2"))
    assert most_per_key == {"k-1": 1, "k-2": 1}  # never two writers of one key at once
    assert most_overall == 2  # writers of different keys do not wait for each other


async def test_the_sweeper_leaves_a_decision_whose_receipt_is_queued(ledger, outbox) -> None:
    """Which sweeper was right (issue 31): a decision whose receipt is in the outbox, the
    intent written before a booking runs included, is on its way to being closed by its real
    receipt; the sweeper leaves it. Once the row is gone and the decision is still open, it
    is swept like any other."""
    booking, unheard = await decide(ledger, outcome="act"), await decide(ledger)
    key = receipt_idempotency_key(booking.decision_id)
    await outbox.record_intent(
        key, "receipt", "cust-1", {"decision_id": booking.decision_id, "intent": True}
    )
    assert await sweep_until_closed(ledger, 0.01) == [unheard.decision_id]
    for _ in range(4):  # however many passes see it
        assert await ledger.sweep_open(0.01) == []
        await asyncio.sleep(0.03)
    assert await ledger.receipt_for("cust-1", booking.decision_id) is None
    # Its real receipt lands after all that time: it is the one recorded.
    landed = await ledger.report(receipt(booking.decision_id, "succeeded", external_ref="bk-1"))
    assert (landed.receipt.status, landed.receipt.external_ref) == ("succeeded", "bk-1")
    # A queued receipt that never lands (the row gone, the decision open) is swept after all.
    other = await decide(ledger, outcome="act")
    other_key = receipt_idempotency_key(other.decision_id)
    await outbox.put(other_key, "receipt", "cust-1", {"decision_id": other.decision_id})
    assert await ledger.sweep_open(0.01) == []
    await outbox.mark_done(other_key)
    assert await sweep_until_closed(ledger, 0.01) == [other.decision_id]


def _sweep_in_a_process(ledger: DecisionLedger, clock_offset: str) -> list[str]:
    if isinstance(ledger, SqliteDecisionLedger):
        args = ["sqlite", str(ledger.path), str(ledger.outbox_path)]
    else:
        assert isinstance(ledger, PostgresDecisionLedger)
        args = ["postgres", ledger.database.url]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [*faketime(clock_offset), sys.executable, "-m", "tests.stores.sweep_once", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("clock_offset", ["+1h", "+3d"])
async def test_a_sweeper_whose_clock_is_ahead_closes_nothing_still_running(
    ledger, clock_offset: str
) -> None:
    """Issue 31: an engine restarted with its clock an hour ahead closed a booking still in
    progress (its only receipt `decision_never_closed`, the real one refused). A sweeper
    judges by how long it has itself seen a decision open, never by comparing a stamp made
    under one clock with another clock."""
    running = await decide(ledger, outcome="act")
    closed = await asyncio.to_thread(_sweep_in_a_process, ledger, clock_offset)
    assert closed == []
    landed = await ledger.report(receipt(running.decision_id, "succeeded", external_ref="bk-2"))
    assert landed.receipt.status == "succeeded"


async def test_the_first_terminal_receipt_stands_whatever_comes_after(ledger) -> None:
    """Issue 31 (a mutation that survived): a second status must never overwrite the
    first. Not its id alone: its status, reference and error code, as `receipt_for` and the
    trail read them, after a report under another key, the same key with another payload,
    and a sweep."""
    booked = await decide(ledger, outcome="act")
    first = await ledger.report(receipt(booked.decision_id, "succeeded", external_ref="bk-1"))
    attempts = [
        receipt(booked.decision_id, "failed", key="sweep:late", error_code="decision_never_closed"),
        receipt(booked.decision_id, "failed", error_code="cancelled"),
        receipt(booked.decision_id, "skipped", key="receipt:other"),
        receipt(booked.decision_id, "succeeded", external_ref="bk-2", key="receipt:again"),
    ]
    for attempt in attempts:
        with pytest.raises(MemoryConflict):
            await ledger.report(attempt)
    assert await ledger.sweep_open(0) == []
    stored = await ledger.receipt_for("cust-1", booked.decision_id)
    assert stored is not None
    got = stored.receipt
    assert (got.id, got.status, got.external_ref, got.error_code, got.action_name) == (
        first.receipt.id, "succeeded", "bk-1", None, "book_visit",
    )  # fmt: skip
    [record] = [r for r in await ledger.trail("cust-1") if r.decision_id == booked.decision_id]
    assert (record.status, record.external_ref, record.error_code) == ("succeeded", "bk-1", None)
