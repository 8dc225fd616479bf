"""The host state on the shared Postgres: hosts claiming and reporting at once, the small
stores, and failing closed when Postgres is down (the outbox and ledger contracts, run on
both stores, are tests/stores)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.postgres_engine import PostgresEngineClients, connect_engine
from contextdb_livekit.memory.errors import (
    MemoryConflict,
    MemoryNotFound,
    MemoryUnavailable,
    OutboxUnavailable,
)
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.ledger import ReceiptRequest
from contextdb_livekit.stores.postgres.connection import SharedDatabase, migrate, migrations
from contextdb_livekit.stores.postgres.ledger import PostgresDecisionLedger
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from testkit.fault_points import with_faults

PAYLOAD = {"decision_id": "dec-1", "action_name": "book_visit", "status": "skipped"}


async def test_hosts_claiming_together_never_share_a_row(shared_database, database_url) -> None:
    writer = PostgresOutbox(shared_database)
    for i in range(200):
        await writer.put(f"k-{i}", "receipt", "cust-1", PAYLOAD, hold=False)
    hosts = [SharedDatabase(database_url) for _ in range(8)]
    try:
        for db in hosts:  # connected and migrated first, so the claims really overlap
            async with db.connection() as conn:
                await conn.fetchval("SELECT 1")
        batches = await asyncio.gather(
            *(PostgresOutbox(db).claim_due(limit=200) for db in hosts for _ in range(3))
        )
    finally:
        for db in hosts:
            await db.close()
    keys = [item.idempotency_key for batch in batches for item in batch]
    assert len(keys) == len(set(keys)) == 200


async def test_migrations_apply_once_when_hosts_start_together(database_url) -> None:
    hosts = [SharedDatabase(database_url) for _ in range(5)]
    try:
        await asyncio.gather(*(db.ready() for db in hosts))
        async with hosts[0].connection() as conn:
            assert await migrate(conn) == []  # nothing left to apply
            versions = await conn.fetch("SELECT version FROM host_schema_migrations")
        assert [row["version"] for row in versions] == [v for v, _, _ in migrations()]
    finally:
        for db in hosts:
            await db.close()


async def test_one_receipt_per_decision_when_hosts_report_at_once(
    shared_database, database_url
) -> None:
    ledger = PostgresDecisionLedger(shared_database)
    decision = await ledger.record_decision(
        user_id="cust-1", query="book", outcome="ask", memories=[], pending_ids=[]
    )
    hosts = [SharedDatabase(database_url) for _ in range(4)]

    def receipt(status: str) -> ReceiptRequest:
        return ReceiptRequest("cust-1", decision.decision_id, "book_visit", status,
                              f"receipt:{decision.decision_id}:{status}")  # fmt: skip

    try:
        results = await asyncio.gather(
            *(
                PostgresDecisionLedger(db).report(receipt(status))
                for db in hosts
                for status in ("skipped", "failed")
            ),
            return_exceptions=True,
        )
    finally:
        for db in hosts:
            await db.close()
    landed = [r for r in results if not isinstance(r, BaseException)]
    conflicts = [r for r in results if isinstance(r, MemoryConflict)]
    assert len(landed) + len(conflicts) == len(results)
    # Replays of the winning key return the same receipt; the other status conflicts.
    assert len({r.receipt.id for r in landed}) == 1
    [trail] = await ledger.trail("cust-1")
    assert trail.status in {"skipped", "failed"} and trail.policy_alignment in {
        "aligned",
        "violated",
    }
    with pytest.raises(MemoryNotFound):
        await ledger.report(ReceiptRequest("cust-2", decision.decision_id, "book_visit",
                                           "skipped", "receipt:other-partition"))  # fmt: skip


async def test_one_write_key_sent_by_two_hosts_stores_its_facts_once(database_url, user_id) -> None:
    hosts = [SharedDatabase(database_url) for _ in range(2)]
    engines = [await connect_engine(db) for db in hosts]
    facts = [FactToRemember(f"Gate code is on the side door, note {i}", "user_stated", 0.9)
             for i in range(3)]  # fmt: skip
    try:
        await asyncio.gather(
            *(
                engine.remember_many(user_id, facts, idempotency_key="write-once-key")
                for engine in engines
                for _ in range(3)
            )
        )
        db = await engines[0].client_for(user_id)
        stored = await db.factual.list_facts(limit=100, user_id=user_id)
        assert len(stored) == 3
    finally:
        for engine in engines:
            await engine.close()
        for db in hosts:
            await db.close()


async def test_an_interrupted_write_is_completed_not_repeated(postgres_engine, user_id) -> None:
    facts = [FactToRemember(f"Prefers mornings, note {i}", "user_stated", 0.9) for i in range(3)]

    async def die_after_first_fact(step: str) -> None:
        if step == "fact:0":
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        await with_faults(postgres_engine, die_after_first_fact).remember_many(
            user_id, facts, idempotency_key="cut-short-1"
        )
    assert await postgres_engine.ledger.write_state("cut-short-1") == "in_progress"
    await postgres_engine.remember_many(user_id, facts, idempotency_key="cut-short-1")
    db = await postgres_engine.client_for(user_id)
    assert len(await db.factual.list_facts(limit=100, user_id=user_id)) == 3
    assert await postgres_engine.ledger.write_state("cut-short-1") == "done"


async def test_postgres_down_fails_closed_with_typed_errors(tmp_path: Path) -> None:
    down = SharedDatabase("postgresql://postgres@127.0.0.1:9/nothing", timeout_s=1)
    with pytest.raises(OutboxUnavailable):
        await PostgresOutbox(down).put("k-1", "receipt", "cust-1", PAYLOAD)
    with pytest.raises(MemoryUnavailable):
        await connect_engine(down)
    with pytest.raises(MemoryUnavailable):
        engine = LocalEngine(PostgresEngineClients(down), PostgresDecisionLedger(down))
        await engine.recall("cust-1", "anything")
    with pytest.raises(MemoryUnavailable):
        await PostgresDecisionLedger(down).trail("cust-1")


async def test_the_startup_probe_names_the_shared_database(database_url: str) -> None:
    from contextdb_livekit.backends.factory import check_backend, describe_backend
    from contextdb_livekit.memory.settings import MemorySettings

    live = MemorySettings(_env_file=None, DATABASE_URL=database_url)
    assert live.backend_name == "postgres" and "shared Postgres" in describe_backend(live)
    assert await check_backend(live) is None
    down = MemorySettings(_env_file=None, DATABASE_URL="postgresql://postgres@127.0.0.1:9/x")
    problem = await check_backend(down)
    assert problem is not None and "DATABASE_URL" in problem
    with pytest.raises(ValueError, match="postgresql://"):
        MemorySettings(_env_file=None, DATABASE_URL="mysql://db/x")
