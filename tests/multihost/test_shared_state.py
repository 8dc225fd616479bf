"""The host state on the shared Postgres: the outbox contract (run on both stores), the
ledger under concurrent hosts, the small stores, and failing closed when Postgres is down."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from contextdb_livekit.delivery.outbox import Outbox
from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.memory.errors import (
    MemoryConflict,
    MemoryNotFound,
    MemoryUnavailable,
    OutboxUnavailable,
)
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.postgres.connection import SharedDatabase, migrate, migrations
from contextdb_livekit.stores.postgres.engine import PostgresEngine
from contextdb_livekit.stores.postgres.ledger import PgDecisionLedger
from contextdb_livekit.stores.postgres.outbox import PgOutbox
from contextdb_livekit.stores.sqlite.ledger import ReceiptRequest

PAYLOAD = {"decision_id": "dec-1", "action_name": "book_visit", "status": "skipped"}


@pytest.fixture(params=["sqlite", "postgres", "spilling"])
def make_outbox(request, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Two outboxes on one store behave like two hosts (or job processes) sharing it. The
    worker's own outbox with DATABASE_URL is the spilling one (each host its own spill)."""

    database = request.getfixturevalue("shared_database") if request.param != "sqlite" else None
    hosts = iter(range(100))

    def make(**kwargs):  # type: ignore[no-untyped-def]
        if database is None:
            return Outbox(tmp_path / "outbox.sqlite3", **kwargs)
        if request.param == "spilling":
            spill = Outbox(tmp_path / f"spill-{next(hosts)}.sqlite3")
            return SpillingOutbox(PgOutbox(database, **kwargs), spill)
        return PgOutbox(database, **kwargs)

    return make


async def test_a_held_row_is_not_claimed_until_its_lease_runs_out(make_outbox) -> None:
    owner, flusher = make_outbox(owner_lease_s=0.5), make_outbox()
    assert await owner.put("k-1", "receipt", "cust-1", PAYLOAD) is True
    assert await flusher.claim_due() == []
    await asyncio.sleep(0.6)
    [claimed] = await flusher.claim_due()
    assert claimed.idempotency_key == "k-1" and claimed.payload == PAYLOAD
    # A second claimer gets nothing while the first claim's lease is live.
    assert await make_outbox().claim_due() == []


async def test_a_second_owner_never_takes_a_live_hold(make_outbox) -> None:
    first, second = make_outbox(), make_outbox()
    assert await first.put("k-1", "receipt", "cust-1", PAYLOAD) is True
    # Another host writing the same key meanwhile: the row is theirs to send, not ours.
    assert await second.put("k-1", "receipt", "cust-1", PAYLOAD) is False
    [row] = await first.items()
    assert row.lease_owner == first.owner


async def test_rewriting_a_row_in_flight_keeps_the_newer_payload(make_outbox) -> None:
    outbox = make_outbox()
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    [claimed] = await outbox.claim_due()
    await outbox.put("k-1", "receipt", "cust-1", {**PAYLOAD, "status": "failed"}, hold=False)
    assert await outbox.renew(claimed, 30) is False  # changed meanwhile: do not send
    await outbox.mark_done("k-1", version=claimed.version)
    [left] = await outbox.items()
    assert left.payload["status"] == "failed"


async def test_failures_back_off_honour_retry_after_and_park(make_outbox) -> None:
    outbox = make_outbox(max_attempts=3)
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    hinted = MemoryUnavailable("429", status=429, retry_after_s=42)
    assert await outbox.settle("k-1", hinted) == "pending"
    [row] = await outbox.items()
    assert 41 <= row.next_attempt_at - time.time() <= 43
    assert await outbox.settle("k-1", MemoryUnavailable("down")) == "pending"
    assert await outbox.settle("k-1", MemoryUnavailable("down")) == "dead"
    [parked] = await outbox.parked()
    assert parked.last_error.startswith("gave up after 3 attempts")
    assert await outbox.put("k-1", "receipt", "cust-1", PAYLOAD) is False  # parked stays
    assert await outbox.redrive(["k-1"]) == 1
    [due] = await outbox.claim_due()
    assert due.state == "pending" and due.attempts == 0


async def test_rows_parked_for_configuration_wait_for_a_new_key(make_outbox) -> None:
    outbox = make_outbox(config_fingerprint="key-1")
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    unauthorized = MemoryUnavailable("x")
    unauthorized.disposition = "needs_config"  # type: ignore[misc]
    assert await outbox.settle("k-1", unauthorized) == "needs_config"
    assert await outbox.redrive_config() == 0  # same key: stays parked
    assert await make_outbox(config_fingerprint="key-2").redrive_config() == 1
    assert await outbox.has_due()


async def test_an_intent_is_resolved_under_its_claim(make_outbox) -> None:
    outbox = make_outbox(intent_grace_s=0)
    await outbox.record_intent("k-1", "receipt", "cust-1", {**PAYLOAD, "day": "2026-12-10"})
    [intent] = await outbox.claim_due()
    assert intent.state == "intent"
    resolved = await outbox.resolve_intent(intent, {**PAYLOAD, "status": "succeeded"})
    assert resolved is not None and resolved.state == "pending"
    assert await outbox.resolve_intent(intent, PAYLOAD) is None  # stale claim
    await outbox.mark_done("k-1", version=resolved.version)
    assert await outbox.items() == []


async def test_hosts_claiming_together_never_share_a_row(shared_database, database_url) -> None:
    writer = PgOutbox(shared_database)
    for i in range(200):
        await writer.put(f"k-{i}", "receipt", "cust-1", PAYLOAD, hold=False)
    hosts = [SharedDatabase(database_url) for _ in range(8)]
    try:
        for db in hosts:  # connected and migrated first, so the claims really overlap
            async with db.connection() as conn:
                await conn.fetchval("SELECT 1")
        batches = await asyncio.gather(
            *(PgOutbox(db).claim_due(limit=200) for db in hosts for _ in range(3))
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
    ledger = PgDecisionLedger(shared_database)
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
                PgDecisionLedger(db).report(receipt(status))
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
    engines = [await PostgresEngine.connect(db) for db in hosts]
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

    PostgresEngine.fault_hook = staticmethod(die_after_first_fact)  # type: ignore[assignment]
    try:
        with pytest.raises(RuntimeError):
            await postgres_engine.remember_many(user_id, facts, idempotency_key="cut-short-1")
    finally:
        PostgresEngine.fault_hook = None
    assert await postgres_engine._ledger.write_state("cut-short-1") == "in_progress"
    await postgres_engine.remember_many(user_id, facts, idempotency_key="cut-short-1")
    db = await postgres_engine.client_for(user_id)
    assert len(await db.factual.list_facts(limit=100, user_id=user_id)) == 3
    assert await postgres_engine._ledger.write_state("cut-short-1") == "done"


async def test_postgres_down_fails_closed_with_typed_errors(tmp_path: Path) -> None:
    down = SharedDatabase("postgresql://postgres@127.0.0.1:9/nothing", timeout_s=1)
    with pytest.raises(OutboxUnavailable):
        await PgOutbox(down).put("k-1", "receipt", "cust-1", PAYLOAD)
    with pytest.raises(MemoryUnavailable):
        await PostgresEngine.connect(down)
    with pytest.raises(MemoryUnavailable):
        await PostgresEngine(down).recall("cust-1", "anything")
    with pytest.raises(MemoryUnavailable):
        await PgDecisionLedger(down).trail("cust-1")


async def test_the_startup_probe_names_the_shared_database(database_url: str) -> None:
    from contextdb_livekit.memory.factory import check_backend, describe_backend
    from contextdb_livekit.memory.settings import MemorySettings

    live = MemorySettings(_env_file=None, DATABASE_URL=database_url)
    assert live.backend_name == "postgres" and "shared Postgres" in describe_backend(live)
    assert await check_backend(live) is None
    down = MemorySettings(_env_file=None, DATABASE_URL="postgresql://postgres@127.0.0.1:9/x")
    problem = await check_backend(down)
    assert problem is not None and "DATABASE_URL" in problem
    with pytest.raises(ValueError, match="postgresql://"):
        MemorySettings(_env_file=None, DATABASE_URL="mysql://db/x")
