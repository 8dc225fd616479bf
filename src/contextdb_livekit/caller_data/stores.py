"""Every store that holds personal data about callers, for the configured backends, in the
order an erasure must visit them.

The erasure journal goes first (a call of the caller still running then keeps nothing more),
then queued writes (a write delivered after the memory step would bring facts back), then
memory and its ledger, then the host's evidence and directory. The claim registry keeps
only claim ids and expiry times (nothing that names a caller) and is not listed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.engine_client import LocalEngineMemory
from contextdb_livekit.backends.factory import open_memory_backend
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.partition import (
    CloudPartition,
    EnginePartition,
    EngineProcessPartition,
    StoredMemory,
    parse_time,
    sqlite_memory_scan,
)
from contextdb_livekit.backends.postgres_engine import PostgresEngineClients
from contextdb_livekit.backends.sqlite_engine import SqliteEngineClients
from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.attestations import AttestationStore
from contextdb_livekit.stores.caller_data import (
    CallerDataStore,
    ErasedCount,
    HeldItem,
    RetentionPolicy,
)
from contextdb_livekit.stores.directory import CustomerDirectory
from contextdb_livekit.stores.erasures import ErasureJournal, ErasureJournalData
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.postgres.attestations import PgAttestationStore
from contextdb_livekit.stores.postgres.caller_data import (
    PgAttestationData,
    PgDirectoryData,
    PgLedgerData,
    PgOutboxData,
)
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.directory import PgCustomerDirectory
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.caller_data import (
    SqliteAttestationData,
    SqliteDirectoryData,
    SqliteLedgerData,
    SqliteOutboxData,
)
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from contextdb_livekit.worker.host_state import open_host_state
from contextdb_livekit.worker.settings import WorkerSettings


@dataclass
class CallerDataStores:
    """The stores, in erasure order, and what to close when done."""

    stores: list[CallerDataStore]
    _closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    async def close(self) -> None:
        for close in reversed(self._closers):
            with contextlib.suppress(Exception):
                await close()


def journal_data(journal: ErasureJournal | None) -> list[CallerDataStore]:
    """First in an erasure: calls of the caller still running then keep nothing more."""
    return [] if journal is None else [ErasureJournalData(journal)]


def outbox_data(outbox: Outbox) -> list[CallerDataStore]:
    if isinstance(outbox, SpillingOutbox):
        return [
            PgOutboxData(outbox.primary.database),
            SqliteOutboxData(outbox.spill.path, name="spill"),
        ]
    if isinstance(outbox, PostgresOutbox):
        return [PgOutboxData(outbox.database)]
    if isinstance(outbox, SqliteOutbox):
        return [SqliteOutboxData(outbox.path)]
    return [UnreachableStore("outbox", f"no caller-data view of {type(outbox).__name__}")]


def attestation_data(store: AttestationStore) -> CallerDataStore:
    if isinstance(store, PgAttestationStore):
        return PgAttestationData(store.database)
    if isinstance(store, SqliteAttestationStore):
        return SqliteAttestationData(store.path)
    return UnreachableStore("attestations", f"no caller-data view of {type(store).__name__}")


def directory_data(directory: CustomerDirectory) -> CallerDataStore:
    if isinstance(directory, PgCustomerDirectory):
        return PgDirectoryData(directory.database)
    if isinstance(directory, SqliteCustomerDirectory):
        return SqliteDirectoryData(directory.path)
    return UnreachableStore("directory", f"no caller-data view of {type(directory).__name__}")


class UnreachableStore:
    """A store this module cannot read (memory the host could not open or turned off, a
    fork's own directory or outbox): every use fails as unavailable, so an export says it
    is incomplete and an erasure says to run again; the other stores are still read and
    erased. A fork adds its own `CallerDataStore` for such a store."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason

    def _unavailable(self) -> MemoryUnavailable:
        return MemoryUnavailable(f"{self.name} not reachable: {self.reason}", code="unavailable")

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        raise self._unavailable()

    async def erase(self, customer_id: str) -> ErasedCount:
        raise self._unavailable()

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        raise self._unavailable()


def memory_data(backend: MemoryBackend) -> CallerDataStore:
    """The caller's partition behind whichever backend the host uses."""
    if isinstance(backend, LocalEngineMemory):
        return EngineProcessPartition(backend)
    if isinstance(backend, CloudMemory):
        return CloudPartition(backend)
    if isinstance(backend, LocalEngine):
        return _engine_partition(backend)
    return UnreachableStore("memory", f"no caller-data view of {type(backend).__name__}")


def _engine_partition(engine: LocalEngine[Any]) -> CallerDataStore:
    clients = engine.clients
    if isinstance(clients, SqliteEngineClients):
        ledger = engine.ledger
        assert isinstance(ledger, SqliteDecisionLedger)
        db = clients.db

        async def sqlite_scan() -> list[StoredMemory]:
            return await sqlite_memory_scan(db)

        return EnginePartition(
            engine, SqliteLedgerData(ledger.path), location="local engine file", scan=sqlite_scan
        )
    if isinstance(clients, PostgresEngineClients):
        database = clients.database

        async def pg_scan() -> list[StoredMemory]:
            async with database.connection() as conn:
                rows = await conn.fetch(
                    "SELECT id, user_id, entity_key, attribute_key, created_at FROM memories"
                )
            return [StoredMemory(r[0], r[1] or "", r[2], r[3], parse_time(r[4])) for r in rows]

        async def vacuum() -> None:
            async with database.connection() as conn:
                await conn.execute("VACUUM memories")

        return EnginePartition(
            engine,
            PgLedgerData(database),
            location="memories",
            scan=pg_scan,
            after_change=vacuum,
        )
    return UnreachableStore("memory", f"no caller-data view of {type(clients).__name__}")


def for_host(host: HostServices) -> list[CallerDataStore]:
    """The stores of a call's host (the in-call forget, tests), in erasure order."""
    stores = [*journal_data(host.erasures), *outbox_data(host.outbox), memory_data(host.backend)]
    stores.append(attestation_data(host.attestations))
    if host.directory is not None:
        stores.append(directory_data(host.directory))
    return stores


async def open_caller_data(
    memory: MemorySettings | None = None, worker: WorkerSettings | None = None
) -> CallerDataStores:
    """The configured backends' stores, as the worker would open them (settings from the
    environment and `.env`)."""
    memory = memory or MemorySettings()
    worker = worker or WorkerSettings()
    host = open_host_state(worker, memory)
    database: SharedDatabase | None = host.database
    backend = await open_memory_backend(memory, database)
    outboxes = outbox_data(host.outbox)
    if not any(store.name == "spill" for store in outboxes):
        # A host that once ran with DATABASE_URL may still hold rows in its spill.
        outboxes.append(SqliteOutboxData(memory.spill_path, name="spill"))
    stores = [*journal_data(host.erasures), *outboxes, memory_data(backend)]
    stores += [attestation_data(host.attestations), directory_data(host.directory)]
    return CallerDataStores(stores, [host.close, backend.close])
