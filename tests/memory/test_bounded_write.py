"""The end-of-call write keeps its budget as a whole, and reports `queued` only for a row
already committed (issue 31).

No wall clock is asserted: a slow store here is one that blocks until the test lets it go,
so "the write returned while the settle was still blocked" is a fact, not a timing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from contextdb_livekit.delivery.flusher import deliver
from contextdb_livekit.kit import bounded_write
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.line_host import local_services

# A budget an unblocked SQLite commit keeps well inside, even on a loaded machine (the
# outbox row gets half of it before the send starts without it).
BUDGET_S = 2.0
# Far above any budget used here: a write that waits for a blocked step fails the test.
STUCK_S = 20.0


class GatedOutbox:
    """A real outbox whose named steps wait until the test opens their gate: a store that
    takes as long as it takes. `committed` records each row write once it landed."""

    def __init__(self, inner: SqliteOutbox, *, blocked: set[str]) -> None:
        self._inner = inner
        self.blocked = blocked
        self.gate = asyncio.Event()
        self.done: list[str] = []
        self.owner = inner.owner
        self.config_fingerprint = inner.config_fingerprint

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            if name in self.blocked:
                await self.gate.wait()
            result = await target(*args, **kwargs)
            self.done.append(name)
            return result

        return call


class Backend:
    """The engine behind a send that hangs, fails, or first lets a blocked outbox go."""

    def __init__(self, inner: Any, mode: str, outbox: GatedOutbox | None = None) -> None:
        self._inner, self.mode, self.outbox = inner, mode, outbox
        self.cancelled = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def remember_many(self, *args: Any, **kwargs: Any) -> Any:
        if self.mode == "hang":
            try:
                await asyncio.sleep(STUCK_S * 2)
            except asyncio.CancelledError:
                self.cancelled = True
                raise
        if self.mode == "release_then_fail":
            assert self.outbox is not None
            self.outbox.gate.set()  # the slow commit lands while the send fails
        raise MemoryUnavailable("engine restarting", code="network")


FACT = FactToRemember("Caller's address: 1 Elm Road", "user_stated", 0.9)


@pytest.fixture
def outbox(tmp_path: Path) -> SqliteOutbox:
    return SqliteOutbox(tmp_path / "outbox.sqlite3")


async def _background_done() -> None:
    await asyncio.wait_for(
        asyncio.gather(*list(bounded_write._background), return_exceptions=True), STUCK_S
    )


async def test_a_slow_settle_is_not_waited_for_and_the_row_stays_queued(
    local_engine, outbox, user_id
) -> None:
    gated = GatedOutbox(outbox, blocked={"settle", "mark_done"})
    backend = Backend(local_engine, "hang")
    memory = CallerMemory(backend, gated, user_id)  # type: ignore[arg-type]
    outcome = await asyncio.wait_for(
        memory.remember([FACT], idempotency_key="facts:slow-settle", timeout_s=BUDGET_S),
        STUCK_S,
    )
    assert (outcome.written, outcome.queued) == (0, 1)
    assert backend.cancelled  # the send was stopped at the bound, not left holding the call
    # Reported queued: the row was committed before the report; the settle is still blocked.
    [row] = await outbox.items()
    assert row.idempotency_key == "facts:slow-settle" and "settle" not in gated.done
    gated.gate.set()
    await _background_done()
    [row] = await outbox.items()
    assert row.lease_owner is None  # released to the flusher once the settle could run


async def test_a_commit_slower_than_the_budget_is_never_reported_queued_nor_lost(
    local_engine, outbox, user_id
) -> None:
    gated = GatedOutbox(outbox, blocked={"put"})
    memory = CallerMemory(Backend(local_engine, "fail"), gated, user_id)  # type: ignore[arg-type]
    outcome = await asyncio.wait_for(
        memory.remember([FACT], idempotency_key="facts:slow-put", timeout_s=0.3), STUCK_S
    )
    # Not delivered and not (yet) durable: neither queued nor written.
    assert (outcome.written, outcome.queued, outcome.unconfirmed) == (0, 0, 1)
    assert await outbox.items() == []
    # The commit was left running, not cancelled: when it lands, the facts are delivered.
    gated.gate.set()
    await _background_done()
    [row] = await outbox.items()
    assert row.payload["facts"][0]["content"] == FACT.content
    # Settled once committed: released to any flusher, which sends it under its key.
    assert (row.state, row.lease_owner) == ("pending", None)
    await deliver(local_engine, row)
    recalled = await local_engine.recall(user_id, "address", top_k=5)
    assert any("1 Elm Road" in m.content for m in recalled.memories)


async def test_queued_is_reported_only_after_the_row_committed(
    local_engine, outbox, user_id
) -> None:
    """The outbox is slower than its share of the budget, so the send goes first; it fails
    while the commit is still running. The write waits for that commit (within the budget)
    before it says queued."""
    gated = GatedOutbox(outbox, blocked={"put"})
    backend = Backend(local_engine, "release_then_fail", gated)
    memory = CallerMemory(backend, gated, user_id)  # type: ignore[arg-type]
    outcome = await asyncio.wait_for(
        memory.remember([FACT], idempotency_key="facts:late-commit", timeout_s=2 * BUDGET_S),
        STUCK_S,
    )
    assert (outcome.written, outcome.queued, outcome.unconfirmed) == (0, 1, 0)
    assert "put" in gated.done
    [row] = await outbox.items()
    assert row.idempotency_key == "facts:late-commit"


async def test_a_broken_outbox_and_a_down_backend_report_lost(local_engine, user_id) -> None:
    class Refusing:
        owner, config_fingerprint = "owner:x", None

        async def put(self, *args: Any, **kwargs: Any) -> bool:
            from contextdb_livekit.memory.errors import OutboxUnavailable

            raise OutboxUnavailable(Path("/x/outbox.sqlite3"), "read-only file system")

    memory = CallerMemory(Backend(local_engine, "fail"), Refusing(), user_id)  # type: ignore[arg-type]
    outcome = await memory.remember([FACT], idempotency_key="facts:lost", timeout_s=1)
    assert (outcome.written, outcome.queued, outcome.lost) == (0, 0, 1)


async def test_the_end_of_call_write_bounds_its_bookkeeping_too(
    tmp_path: Path, local_engine
) -> None:
    """`Call.finish`: after the write, the outbox read for the metrics and the checkpoint's
    retirement ran unbounded (each up to 2 s on a slow store). A blocked outbox is not
    waited for; the call's facts are queued in a committed row all the same."""
    import dataclasses
    import uuid

    from livekit.agents import llm

    from contextdb_livekit.memory.settings import MemorySettings
    from contextdb_livekit.worker.call import Call
    from tests.conversation.conftest import caller
    from tests.worker.test_line_profile import LIBRARY

    settings = MemorySettings(_env_file=None, MEMORY_SHUTDOWN_WRITE_BUDGET_MS=int(BUDGET_S * 1000))  # type: ignore[call-arg]
    host = local_services(tmp_path, local_engine, memory_settings=settings, line=None)
    real = host.outbox
    assert isinstance(real, SqliteOutbox)
    gated = GatedOutbox(real, blocked={"settle", "mark_done", "items"})
    host = dataclasses.replace(host, backend=Backend(local_engine, "hang"), outbox=gated)  # type: ignore[arg-type]
    call = Call.open(host, LIBRARY, identity=caller(), auth_error=None, call_id=uuid.uuid4().hex)
    history = llm.ChatContext()
    history.add_message(role="user", content="I like mysteries")
    await call.checkpoint(history)  # a checkpoint to retire at the end
    outcome = await asyncio.wait_for(call.finish(history), STUCK_S)
    assert (outcome.written, outcome.queued) == (0, 1)
    assert {"items", "mark_done", "settle"}.isdisjoint(gated.done)  # all still blocked
    rows = {row.idempotency_key: row for row in await real.items()}
    assert any(key.startswith("facts:") and ":checkpoint:" not in key for key in rows)
    gated.gate.set()
    await _background_done()


async def test_writes_reported_queued_survive_engine_kills_mid_burst(tmp_path: Path) -> None:
    """Issue 31's scenario: 4 callers' end-of-call writes, the engine `kill -9`ed twice
    mid-burst, writes running into their budget while it restarts. Every write reported
    written or queued is in memory exactly once after the outbox is drained; nothing is
    lost (the outbox works throughout)."""
    import os
    import signal
    from collections import Counter

    from contextdb_livekit.backends.engine_client import connect_local_engine
    from contextdb_livekit.backends.sqlite_engine import open_engine
    from contextdb_livekit.delivery.flusher import OutboxFlusher
    from contextdb_livekit.stores.outbox_policy import Backoff
    from testkit.engine import stop_engine_if_running
    from tests.memory.test_faults import fact_counts

    db = tmp_path / "memory.sqlite3"
    outbox_path = tmp_path / "outbox.sqlite3"
    fast = Backoff(base_s=0.01, max_s=0.05)
    client = await connect_local_engine(db, idle_exit_s=120, timeout_s=5)
    users = [f"cust-burst-{n}" for n in range(4)]
    # One outbox per caller on one file, as four job processes have.
    memories = {
        user: CallerMemory(client, SqliteOutbox(outbox_path, backoff=fast), user) for user in users
    }
    outcomes: dict[str, str] = {}
    started = asyncio.Event()

    async def write(user: str, i: int) -> None:
        key = f"facts:{user}:{i}"
        fact = FactToRemember(f"Burst note {i} of {user}", "user_stated", 0.9)
        outcome = await memories[user].remember([fact], idempotency_key=key, timeout_s=0.4)
        outcomes[key] = (
            "written" if outcome.written else "queued" if outcome.queued
            else "unconfirmed" if outcome.unconfirmed else "lost"
        )  # fmt: skip
        started.set()

    async def killer() -> None:
        await started.wait()
        for _ in range(2):
            os.kill(await client.engine_pid(), signal.SIGKILL)
            await asyncio.sleep(0.3)

    try:
        await asyncio.wait_for(
            asyncio.gather(killer(), *(write(u, i) for u in users for i in range(12))), 240
        )
        await _background_done()
    finally:
        await client.close()
        await stop_engine_if_running(db.resolve())
    tally = Counter(outcomes.values())
    print(dict(tally))
    assert tally["lost"] == 0
    engine = await open_engine(db)
    try:
        outbox = SqliteOutbox(outbox_path, backoff=fast, owner_lease_s=0.1)
        flusher = OutboxFlusher(outbox, engine, {}, base_delay_s=0, max_delay_s=0)
        for _ in range(100):
            await flusher.flush_once()
            if not await outbox.items():
                break
            await asyncio.sleep(0.1)
        assert await outbox.items() == []
        for user in users:
            counts = await fact_counts(engine, user)
            for i in range(12):
                key = f"facts:{user}:{i}"
                if outcomes[key] in ("written", "queued"):
                    assert counts[f"Burst note {i} of {user}"] == 1, (key, outcomes[key])
    finally:
        await engine.close()
