"""The local spill (issue 21.1) at the contract level: what goes there when the shared
Postgres does not answer, that it is redacted and leased like any outbox row, and that the
move into Postgres once it is back is exactly once (interrupted, repeated, parked rows)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncpg
import pytest

from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.errors import MemoryRejected, MemoryUnavailable
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox

PAYLOAD = {"decision_id": "dec-1", "action_name": "book_visit", "status": "skipped"}
SECRET = "4111 1111 1111 1111"


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"postgresql://postgres@127.0.0.1:{port}/postgres"


@pytest.fixture
async def down(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A host whose shared database refuses connections, and its spill."""
    database = SharedDatabase(closed_port_url(), timeout_s=1)
    outbox = SpillingOutbox(PostgresOutbox(database), SqliteOutbox(tmp_path / "spill.sqlite3"))
    yield outbox
    await database.close()


def back(outbox: SpillingOutbox, database: SharedDatabase) -> SpillingOutbox:
    """The same host (same spill file) once the database answers again."""
    return SpillingOutbox(PostgresOutbox(database), SqliteOutbox(outbox.spill.path))


class Down:
    async def remember_many(self, *args: object, **kwargs: object) -> None:
        raise MemoryUnavailable("shared database: refused", code="database_unavailable")


async def test_an_end_of_call_write_is_kept_in_the_spill_redacted(down) -> None:
    memory = CallerMemory(Down(), down, "cust-1")  # type: ignore[arg-type]
    fact = FactToRemember(f"Paid with card {SECRET}", "user_stated", 0.9)
    outcome = await memory.remember([fact], idempotency_key="facts:k1", timeout_s=1)
    assert (outcome.written, outcome.queued, outcome.lost) == (0, 1, 0)
    [row] = await down.spill.items()
    assert row.idempotency_key == "facts:k1" and row.state == "pending" and row.attempts == 1
    assert row.lease_owner is None  # released to any mover once the direct send failed
    assert SECRET.encode() not in Path(down.spill.path).read_bytes()


async def test_the_spill_keeps_the_outbox_contract(down) -> None:
    # Held by its writer: no mover takes it while the writer is sending.
    assert await down.put("k-held", "receipt", "cust-1", PAYLOAD) is True
    assert await down.spill.claim_movable() == []
    await down.mark_done("k-held")
    # Parked with its reason, in the spill, until it is moved.
    await down.put("k-bad", "receipt", "cust-1", PAYLOAD)
    await down.mark_dead("k-bad", "rejected: invalid")
    [parked] = await down.spill.parked()
    assert (parked.idempotency_key, parked.last_error) == ("k-bad", "rejected: invalid")


async def test_spilled_rows_move_once_and_are_delivered(
    down, shared_database, database_url, postgres_engine
) -> None:
    memory = CallerMemory(Down(), down, "cust-move")  # type: ignore[arg-type]
    facts = [FactToRemember("Has two boilers", "user_stated", 0.9)]
    await memory.remember(facts, idempotency_key="facts:move", timeout_s=1)
    await down.put("k-parked", "receipt", "cust-move", PAYLOAD)
    await down.settle("k-parked", MemoryRejected("bad request", status=422))
    outbox = back(down, shared_database)
    flusher = OutboxFlusher(outbox, postgres_engine, {}, base_delay_s=0, max_delay_s=0)
    for _ in range(20):
        await flusher.flush_once()
        if not await outbox.items(states=["pending", "intent"]):
            break
        await asyncio.sleep(0.3)
    assert await outbox.spill.items() == []
    [parked] = await outbox.items()  # moved with its state and reason, not retried
    assert (parked.idempotency_key, parked.state) == ("k-parked", "dead")
    assert "bad request" in (parked.last_error or "")
    db = await postgres_engine.client_for("cust-move")
    stored = [f.content for f in await db.factual.list_facts(limit=100, user_id="cust-move")]
    assert stored.count("Has two boilers") == 1


async def test_a_move_interrupted_after_the_insert_is_repeated_without_a_second_row(
    down, shared_database, database_url
) -> None:
    await down.put("k-twice", "receipt", "cust-1", PAYLOAD, hold=False)
    outbox = back(down, shared_database)
    [item] = await outbox.spill.claim_movable(lease_s=0.2)
    await outbox.primary.adopt(item)  # ... and the mover dies before deleting it
    await asyncio.sleep(0.3)
    assert await outbox.move_spilled() == 1
    assert await outbox.move_spilled() == 0
    rows = await outbox.primary.items()
    assert [(r.idempotency_key, r.version, r.payload) for r in rows] == [("k-twice", 1, PAYLOAD)]


async def test_a_newer_spilled_payload_replaces_an_intent_left_in_postgres(
    shared_database, tmp_path: Path
) -> None:
    primary = PostgresOutbox(shared_database)
    await primary.record_intent("k-i", "receipt", "cust-1", {**PAYLOAD, "intent": True})
    spill = SqliteOutbox(tmp_path / "spill.sqlite3")
    await spill.put("k-i", "receipt", "cust-1", {**PAYLOAD, "status": "succeeded"}, hold=False)
    outbox = SpillingOutbox(primary, spill)
    assert await outbox.move_spilled() == 1
    [row] = await primary.items()
    assert (row.state, row.payload["status"]) == ("pending", "succeeded")


async def test_a_database_that_hangs_costs_one_timeout_then_the_spill(tmp_path: Path) -> None:
    """A listener that accepts and never answers (a partitioned network)."""
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    database = SharedDatabase(f"postgresql://postgres@127.0.0.1:{port}/postgres", timeout_s=30)
    outbox = SpillingOutbox(
        PostgresOutbox(database), SqliteOutbox(tmp_path / "spill.sqlite3"), primary_timeout_s=0.3
    )
    loop = asyncio.get_running_loop()
    try:
        started = loop.time()
        for i in range(10):
            assert await outbox.put(f"k-{i}", "receipt", "cust-1", PAYLOAD) is True
        assert loop.time() - started < 0.3 + 1.0  # one timeout, then straight to the spill
        assert len(await outbox.spill.items()) == 10
    finally:
        server.close()
        await database.close()


async def test_outbox_cli_lists_the_spill_with_the_shared_rows(
    down, shared_database, database_url, monkeypatch, capsys
) -> None:
    await down.put("k-spilled", "receipt", "cust-1", PAYLOAD, hold=False)
    await PostgresOutbox(shared_database).put("k-shared", "receipt", "cust-1", PAYLOAD, hold=False)
    from contextdb_livekit.delivery import outbox as outbox_cli

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("MEMORY_SPILL_PATH", str(down.spill.path))
    assert await asyncio.to_thread(outbox_cli.main, ["list"]) == 0
    listed = capsys.readouterr().out
    assert "k-spilled" in listed and "k-shared" in listed


class DroppedMidQuery(PostgresOutbox):
    """The connection dies during a query: asyncpg's own error, not the store's typed one
    (the pool answered, so `SharedStateUnavailable` never fires)."""

    def __init__(self, database: SharedDatabase, error: BaseException) -> None:
        super().__init__(database)
        self.error = error
        self.asked = 0

    async def _query(self, method: str, sql: str, *args: object) -> object:
        self.asked += 1
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"
        ),
        ConnectionResetError(104, "Connection reset by peer"),
        asyncpg.exceptions.InterfaceError("pool is closing"),
    ],
    ids=["closed_mid_query", "reset", "pool_closing"],
)
async def test_any_failure_of_the_database_sends_the_row_to_the_spill(
    tmp_path: Path, error: BaseException
) -> None:
    """Issue 31 (a mutation that survived): the spill is the fallback for *any* failure of
    the shared database, not only the typed ones; a raw driver error must not lose the row."""
    database = SharedDatabase(closed_port_url(), timeout_s=1)
    primary = DroppedMidQuery(database, error)
    outbox = SpillingOutbox(primary, SqliteOutbox(tmp_path / "spill.sqlite3"), probe_after_s=60)
    try:
        assert await outbox.put("k-drop", "receipt", "cust-1", PAYLOAD) is True
        await outbox.settle("k-drop", MemoryUnavailable("down", code="network"))
        [row] = await outbox.spill.items()
        assert (row.idempotency_key, row.state) == ("k-drop", "pending")
        # The database is not asked again until the probe interval has passed.
        await outbox.put("k-next", "receipt", "cust-1", PAYLOAD)
        assert primary.asked == 1
    finally:
        await database.close()


async def test_a_moved_row_keeps_the_wait_the_backend_asked_for(
    tmp_path: Path, shared_database
) -> None:
    """Issue 31 (a mutation that survived): a spilled row the backend answered 429 with
    Retry-After keeps that wait when it moves into the shared table; due at once, every
    host would send it straight back into the rate limit."""
    spill = SqliteOutbox(tmp_path / "spill.sqlite3")
    await spill.put("k-429", "receipt", "cust-1", PAYLOAD)
    limited = MemoryUnavailable("rate limited", code="rate_limited", status=429, retry_after_s=240)
    await spill.settle("k-429", limited)
    outbox = SpillingOutbox(PostgresOutbox(shared_database), spill)
    assert await outbox.move_spilled() == 1
    [row] = await outbox.primary.items()
    assert row.idempotency_key == "k-429" and row.attempts == 1
    assert await outbox.primary.claim_due() == []  # not due: the wait came along
    conn = await asyncpg.connect(shared_database.url)
    try:
        left = await conn.fetchval(
            "SELECT next_attempt_at - extract(epoch FROM clock_timestamp())"
            " FROM host_outbox WHERE idempotency_key = 'k-429'"
        )
    finally:
        await conn.close()
    assert 200 < left <= 240
