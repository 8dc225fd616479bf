"""Retention with an injected clock, on every backend, on data planted through real calls:
an access note goes long before a boiler's make; attestations, decisions and receipts are
kept whole for the audit period, then lose their personal data but keep their ids; the
drain applies it on its schedule."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.caller_data.retention import RetentionSchedule, apply_retention
from contextdb_livekit.caller_data.stores import CallerDataStores
from contextdb_livekit.delivery.drain import run_drain_loop
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.caller_data import ErasedCount, HeldItem, RetentionPolicy
from memory.retention import RetentionSettings, retention_policy
from testkit.secret_scan import find_planted
from tests.caller_data.conftest import Line, plant
from tests.caller_data.scan import postgres_hits

POLICY = retention_policy(RetentionSettings(_env_file=None))  # type: ignore[call-arg]  # pydantic-settings takes _env_file


def days_from_now(days: int) -> datetime:
    return datetime.now(UTC) + timedelta(days=days)


def texts(items: list[HeldItem], kind: str) -> str:
    return json.dumps([item.data for item in items if item.kind == kind]).lower()


async def held(line: Line, needle: str) -> bool:
    files = find_planted(needle, [line.workdir])
    tables = await postgres_hits(line.database, needle) if line.database is not None else []
    return bool(files or tables)


def test_the_defaults_keep_an_access_note_shorter_than_a_boiler_make() -> None:
    assert POLICY.keep_fact("premises", "access") == timedelta(days=30)
    assert POLICY.keep_fact("equipment", "make") == timedelta(days=1095)
    assert POLICY.keep_fact("premises", "access") < POLICY.keep_fact("user", "address")
    assert POLICY.keep_fact("request", "book_visit_2026_12_10_call_x") == timedelta(days=7)
    assert POLICY.keep_fact("nobody", "knows") == POLICY.facts_default


async def test_facts_expire_by_kind(line: Line) -> None:
    planted = await plant(line)
    a = planted.a.customer_id
    # A day short of the access note's 30 days: nothing goes.
    early = await apply_retention(line.stores(), POLICY, days_from_now(29))
    assert early.failed == {} and early.expired.get("memory", 0) == 0
    run = await apply_retention(line.stores(), POLICY, days_from_now(31))
    assert run.failed == {} and run.expired["memory"] >= 1
    memories = texts((await export_caller(line.stores(), a)).items, "memory")
    assert "heronry" not in memories  # the access note (30 days) is gone...
    assert "quillfeather" in memories or "bramblewick" in memories  # ...the address is not
    assert not await held(line, "heronry")  # and not left in a file's free pages or WAL
    # Past every fact period: the partition is empty; the audit records are not yet touched.
    await apply_retention(line.stores(), POLICY, days_from_now(1096))
    exported = await export_caller(line.stores(), a)
    assert texts(exported.items, "memory") == "[]"


async def test_audit_records_are_kept_whole_then_stripped(line: Line) -> None:
    planted = await plant(line)
    a = planted.a.customer_id
    before = await export_caller(line.stores(), a)
    attestations = [i for i in before.items if i.kind == "attestation"]
    receipts = [i for i in before.items if i.kind == "receipt"]
    assert attestations and receipts
    # Within the evidence-text period: whole, words included.
    await apply_retention(line.stores(), POLICY, days_from_now(29))
    whole = await export_caller(line.stores(), a)
    assert [i for i in whole.items if i.kind == "attestation"] == attestations
    # Then the words go (a read-back can quote an access note), the rest stays for the audit.
    await apply_retention(line.stores(), POLICY, days_from_now(399))
    within = await export_caller(line.stores(), a)
    kept = [i for i in within.items if i.kind == "attestation"]
    assert [i.item_id for i in kept] == [i.item_id for i in attestations]
    for old, new in zip(attestations, kept, strict=True):
        assert new.data["answer"] == new.data["question"] == ""
        assert {**old.data, "answer": "", "question": ""} == new.data
    assert [i for i in within.items if i.kind == "receipt"] == receipts
    run = await apply_retention(line.stores(), POLICY, days_from_now(401))
    assert run.expired["attestations"] >= len(attestations) and run.expired["memory"] >= 1
    after = await export_caller(line.stores(), a)
    assert not [i for i in after.items if i.kind in ("attestation", "decision", "receipt")]
    # The records survive without the caller: same ids, the receipt's key, the outcome.
    survivors = await _all_receipts(line)
    for receipt in receipts:
        kept = survivors[receipt.item_id]
        assert kept["idempotency_key"] == receipt.data["idempotency_key"]
        assert kept["status"] == receipt.data["status"]
        assert kept["user_id"].startswith("erased-") and a not in json.dumps(kept)


async def _all_receipts(line: Line) -> dict[str, dict[str, str]]:
    """Every receipt with its decision's owner, read straight from the ledger's store."""
    query = (
        "SELECT r.receipt_id, r.idempotency_key, r.status, d.user_id FROM {r} r"
        " JOIN {d} d ON d.decision_id = r.decision_id"
    )
    if line.database is not None:
        async with line.database.connection() as conn:
            rows = await conn.fetch(query.format(r="host_receipts", d="host_decisions"))
    else:
        import sqlite3

        path = line.workdir / "memory.ledger.sqlite3"

        def read() -> list[tuple[str, ...]]:
            conn = sqlite3.connect(path)
            try:
                return conn.execute(query.format(r="receipts", d="decisions")).fetchall()
            finally:
                conn.close()

        rows = await asyncio.to_thread(read)
    return {r[0]: {"idempotency_key": r[1], "status": r[2], "user_id": r[3]} for r in rows}


class CountingStore:
    name = "counting"

    def __init__(self) -> None:
        self.at: list[datetime] = []

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        return []

    async def erase(self, customer_id: str) -> ErasedCount:
        return ErasedCount()

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        self.at.append(now)
        return 1


async def test_the_drain_applies_retention_on_its_schedule(tmp_path: Path) -> None:
    store = CountingStore()
    now = [datetime(2026, 12, 4, 12, 0, tzinfo=UTC)]

    async def open_stores() -> CallerDataStores:
        return CallerDataStores([store])

    schedule = RetentionSchedule(open_stores, POLICY, timedelta(hours=1), clock=lambda: now[0])
    settings = MemorySettings(
        _env_file=None,  # type: ignore[call-arg]  # pydantic-settings takes _env_file
        MEMORY_OUTBOX_PATH=tmp_path / "outbox.sqlite3",
        CONTEXTDB_LOCAL_PATH=tmp_path / "memory.sqlite3",
    )

    async def drain_pass() -> None:
        await run_drain_loop(settings, asyncio.Event(), {}, once=True, housekeeping=schedule)

    await drain_pass()  # the first pass applies it at once
    now[0] += timedelta(minutes=59)
    await drain_pass()  # not due yet
    now[0] += timedelta(minutes=2)
    await drain_pass()  # an hour on: due again
    assert store.at == [datetime(2026, 12, 4, 12, 0, tzinfo=UTC), now[0]]


class FailingStore(CountingStore):
    name = "failing"

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        raise RuntimeError("store down")


async def test_a_failed_store_is_retried_at_the_next_pass_and_others_still_expire() -> None:
    good, bad = CountingStore(), FailingStore()
    now = datetime(2026, 12, 4, tzinfo=UTC)

    async def open_stores() -> CallerDataStores:
        return CallerDataStores([bad, good])

    schedule = RetentionSchedule(open_stores, POLICY, timedelta(hours=1), clock=lambda: now)
    first = await schedule()
    assert first is not None and first.failed == {"failing": "RuntimeError: store down"}
    assert first.expired == {"counting": 1}
    assert await schedule() is not None  # not an hour later: at once
    assert len(good.at) == 2


@pytest.mark.parametrize("line", ["sqlite"], indirect=True)
async def test_queued_writes_are_not_expired_but_dead_ones_are(line: Line) -> None:
    planted = await plant(line)
    a = planted.a.customer_id
    await apply_retention(line.stores(), POLICY, days_from_now(400))
    queued = [i for i in (await export_caller(line.stores(), a)).items if i.kind == "queued_write"]
    assert len(queued) == 2  # pending rows are still to be delivered: never expired
    outbox = line.outbox
    [row] = [r for r in await outbox.items() if r.kind == "remember_many"]
    await outbox.mark_dead(row.idempotency_key, "rejected: test")
    await apply_retention(line.stores(), POLICY, days_from_now(31))
    left = [i for i in (await export_caller(line.stores(), a)).items if i.kind == "queued_write"]
    assert [i.store for i in left] == ["spill"]


@pytest.mark.parametrize("line", ["sqlite", "postgres"], indirect=True)
async def test_erasure_notes_are_kept_a_day_then_dropped(line: Line) -> None:
    journal = line.erasures
    await journal.note("cust-gone")
    assert await journal.erased_since("cust-gone", 0.0)
    assert not await journal.erased_since("cust-other", 0.0)
    await apply_retention(line.stores(), POLICY, days_from_now(0))
    assert await journal.erased_since("cust-gone", 0.0)  # a call may still be running
    run = await apply_retention(line.stores(), POLICY, datetime.now(UTC) + timedelta(hours=25))
    assert run.expired["erasures"] == 1
    assert not await journal.erased_since("cust-gone", 0.0)
