"""Two callers' data planted through real calls (the real AgentSession, the scripted model,
the host's real stores), on one backend: SQLite files, or the shared Postgres.

Caller A, three calls: facts and a booking confirmed out loud (its attestation, decision and
receipt); facts whose end-of-call write memory did not take (queued in the outbox); facts
written while the shared database was away too (kept in the local spill). Caller B: one call
with a booking and facts of their own.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from livekit.agents import AgentSession

from billing_client import LocalBilling
from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.caller_data.stores import memory_data
from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.caller_data import CallerDataStore
from contextdb_livekit.stores.erasures import ErasureJournal, ErasureJournalData
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.postgres.attestations import PgAttestationStore
from contextdb_livekit.stores.postgres.caller_data import (
    PgAttestationData,
    PgDirectoryData,
    PgOutboxData,
)
from contextdb_livekit.stores.postgres.claims import PgClaimRegistry
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.directory import PgCustomerDirectory
from contextdb_livekit.stores.postgres.erasures import PgErasureJournal
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.caller_data import (
    SqliteAttestationData,
    SqliteDirectoryData,
    SqliteOutboxData,
)
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.erasures import SqliteErasureJournal
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.engine import stop_engine
from testkit.postgres import create_database
from testkit.scripted_llm import ScriptedLLM
from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend
from tools.systems import VisitSystems

# Caller A's words, each unique to this test: none may survive A's erasure anywhere.
A_PHONE = "+15550107733"
A_LINES = (
    "my address is 14 Quillfeather Lane",
    "access notes: use the side gate by the heronry shed",
)
A_QUEUED = "my address is 9 Bramblewick Close now"
A_SPILLED = "my address is 22 Larchmont Road"
A_PLANTED = ("Quillfeather", "heronry", "Bramblewick", "larchmont", A_PHONE)
# Caller B's: all of it must still be there after A's erasure.
B_PHONE = "+15550104411"
B_LINES = ("my address is 3 Ottersley Gardens",)
B_PLANTED = ("Ottersley", B_PHONE)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"postgresql://postgres@127.0.0.1:{port}/postgres"


@dataclass
class Line:
    """One backend's host: what its calls use, and its caller-data stores."""

    name: str
    workdir: Path
    backend: Any
    outbox: Outbox
    spill: SqliteOutbox
    attestations: Any
    directory: Any
    claims: Any
    calendar: LocalCalendar
    database: SharedDatabase | None

    def host(self, *, backend: Any = None, outbox: Outbox | None = None) -> HostServices:
        return HostServices(
            backend=backend or self.backend,
            outbox=outbox or self.outbox,
            line=VisitSystems(
                self.calendar, LocalBilling(self.calendar.path.with_name("billing.sqlite3"))
            ),
            attestations=self.attestations,
            policy=AssurancePolicy(),
            memory_settings=MemorySettings(
                _env_file=None, MEMORY_PREFETCH_BUDGET_MS=5000, MEMORY_GATE_BUDGET_MS=1000
            ),
            directory=self.directory,
            claims=self.claims,
            erasures=self.erasures,
        )

    @property
    def erasures(self) -> ErasureJournal:
        if self.database is not None:
            return PgErasureJournal(self.database)
        return SqliteErasureJournal(self.workdir / "erasures.sqlite3")

    def stores(self) -> list[CallerDataStore]:
        if self.database is not None:
            return [
                ErasureJournalData(self.erasures),
                PgOutboxData(self.database),
                SqliteOutboxData(self.spill.path, name="spill"),
                memory_data(self.backend),
                PgAttestationData(self.database),
                PgDirectoryData(self.database),
            ]
        return [
            ErasureJournalData(self.erasures),
            SqliteOutboxData(self.outbox_path),
            SqliteOutboxData(self.spill.path, name="spill"),
            memory_data(self.backend),
            SqliteAttestationData(self.workdir / "attestations.sqlite3"),
            SqliteDirectoryData(self.workdir / "customers.sqlite3"),
        ]

    @property
    def outbox_path(self) -> Path:
        assert isinstance(self.outbox, SqliteOutbox)
        return self.outbox.path


async def run_call(
    host: HostServices, identity: CallerIdentity, lines: tuple[str, ...], *, end: Any = None
) -> Any:
    """One whole call through the real AgentSession; `end` runs before the hang-up."""
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    try:
        await call.start(session)
        for line in lines:
            await session.run(user_input=line)
        await session.run(user_input="that's all, bye")
        await session.run(user_input="yes, that's right")
        if end is not None:
            end()
        return await call.finish(session.history)
    finally:
        await session.aclose()


@dataclass
class Planted:
    line: Line
    a: CallerIdentity
    b: CallerIdentity


async def plant(line: Line) -> Planted:
    a, b = caller(), caller()
    await line.directory.add(A_PHONE, a.customer_id)
    await line.directory.add(B_PHONE, b.customer_id)
    # A: facts and a booking with its attestation, written.
    first = await run_call(line.host(), a, (*A_LINES, "book a visit on thursday", "yes"))
    assert first.written > 0
    # A: a write memory did not take: queued in the outbox.
    flaky = FlakyBackend(line.backend, failing={"remember_many"})
    flaky.down = False

    def memory_goes_down() -> None:
        flaky.down = True

    queued = await run_call(line.host(backend=flaky), a, (A_QUEUED,), end=memory_goes_down)
    assert queued.queued == 1
    # A: memory and the shared database both away: the write is kept in the spill.
    away = SharedDatabase(closed_port_url(), timeout_s=1)
    spilling = SpillingOutbox(PostgresOutbox(away), line.spill)
    flaky_again = FlakyBackend(line.backend, failing={"remember_many"})
    spilled = await run_call(line.host(backend=flaky_again, outbox=spilling), a, (A_SPILLED,))
    await away.close()
    assert spilled.queued == 1
    assert len(await line.spill.items()) == 1
    # B: a booking and facts of their own.
    other = await run_call(line.host(), b, (*B_LINES, "book a visit on friday", "yes"))
    assert other.written > 0
    return Planted(line, a, b)


@pytest.fixture(params=["sqlite", "engine_process", "postgres"])
async def line(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Line]:
    data = tmp_path / "data"
    data.mkdir()
    calendar = LocalCalendar(data / "calendar.sqlite3", capacity=50)
    spill = SqliteOutbox(data / "spill.sqlite3")
    if request.param in ("sqlite", "engine_process"):
        # In this process (tests, benches) or in its own process, as the worker runs it.
        engine: Any = (
            await open_engine(data / "memory.sqlite3")
            if request.param == "sqlite"
            else await connect_local_engine(data / "memory.sqlite3", idle_exit_s=120)
        )
        yield Line(
            request.param, data, engine, SqliteOutbox(data / "outbox.sqlite3"), spill,
            SqliteAttestationStore(data / "attestations.sqlite3"),
            SqliteCustomerDirectory(data / "customers.sqlite3"),
            SqliteClaimRegistry(data / "claims.sqlite3"), calendar, None,
        )  # fmt: skip
        await engine.close()
        if request.param == "engine_process":
            await stop_engine(data / "memory.sqlite3")
        return
    database = SharedDatabase(await _database_url(request))
    engine = await connect_engine(database)
    yield Line(
        "postgres", data, engine, PostgresOutbox(database), spill,
        PgAttestationStore(database), PgCustomerDirectory(database),
        PgClaimRegistry(database), calendar, database,
    )  # fmt: skip
    await engine.close()
    await database.close()


async def _database_url(request: pytest.FixtureRequest) -> str:
    """A fresh database on the session's Postgres (started only for this parameter)."""
    server = request.getfixturevalue("postgres_server")
    return await create_database(server, f"t_{uuid.uuid4().hex[:16]}")
