"""Where a host keeps its own state: local SQLite files, or the shared Postgres.

    one host (default)   outbox, attestations, directory, used claims: SQLite files on the
                         host's disk (the container's /data volume)
    DATABASE_URL set     the same four in Postgres tables (stores/postgres/migrations), shared by
                         every host; a replaced or scaled-down container loses nothing.
                         While Postgres does not answer, outbox rows go to a local spill
                         (MEMORY_SPILL_PATH) and move into Postgres once it is back
                         (contextdb_livekit.delivery.spill)

Each store's contract is a Protocol in stores/ (stores.attestations, stores.claims,
stores.directory), kept by a sibling in stores/sqlite/ and in stores/postgres/. This is the
composition root: the only place that picks the implementations; identity and the kit only
see the contracts.

The decision ledger follows the memory backend (the local engine's file, the Postgres
engine's table, or ContextDB Cloud itself), see contextdb_livekit.backends.factory.
"""

from __future__ import annotations

from dataclasses import dataclass

from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.attestations import AttestationStore
from contextdb_livekit.stores.claims import ClaimRegistry
from contextdb_livekit.stores.directory import CustomerDirectory
from contextdb_livekit.stores.erasures import ErasureJournal
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.postgres.attestations import PgAttestationStore
from contextdb_livekit.stores.postgres.claims import PgClaimRegistry
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.directory import PgCustomerDirectory
from contextdb_livekit.stores.postgres.erasures import PgErasureJournal
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.erasures import SqliteErasureJournal, journal_path
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from contextdb_livekit.worker.settings import WorkerSettings


@dataclass
class HostState:
    outbox: Outbox
    attestations: AttestationStore
    directory: CustomerDirectory
    claims: ClaimRegistry
    # The shared database when DATABASE_URL is set; the memory engine borrows its pool.
    database: SharedDatabase | None = None
    # Callers erased in the last day (stores.erasures).
    erasures: ErasureJournal | None = None

    async def close(self) -> None:
        if self.database is not None:
            await self.database.close()


def open_host_state(worker: WorkerSettings, memory: MemorySettings) -> HostState:
    """No I/O against Postgres here: the pool connects (and migrates) on first use, so a
    database that is down makes each use fail closed instead of stopping the call."""
    if memory.database_dsn is not None:
        database = SharedDatabase(memory.database_dsn)
        return HostState(
            outbox=SpillingOutbox.for_settings(memory, database),
            attestations=PgAttestationStore(database),
            directory=PgCustomerDirectory(database),
            claims=PgClaimRegistry(database),
            database=database,
            erasures=PgErasureJournal(database),
        )
    return HostState(
        outbox=SqliteOutbox.for_settings(memory),
        attestations=SqliteAttestationStore(worker.attestation_path),
        directory=SqliteCustomerDirectory(worker.customer_directory_path),
        claims=SqliteClaimRegistry(worker.claim_registry_path),
        erasures=SqliteErasureJournal(journal_path(memory.outbox_path)),
    )
