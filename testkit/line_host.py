"""This line's host services on local files in one folder: the playground, tests and benches.

The worker opens its stores from the settings (`worker.host_state`); this builds the same
contracts on SQLite files under `workdir`, with the line's systems on a local calendar.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from billing_client import BillingClient, LocalBilling
from calendar_client import CalendarClient, LocalCalendar
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.erasures import SqliteErasureJournal
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tools.systems import VisitHost, VisitSystems

L = TypeVar("L")


def local_services(
    workdir: Path,
    backend: MemoryBackend,
    *,
    memory_settings: MemorySettings,
    line: L,
    policy: AssurancePolicy | None = None,
    timezone: str = "UTC",
) -> HostServices[L]:
    """Any line's host services on SQLite files in `workdir`."""
    return HostServices(
        backend=backend,
        outbox=SqliteOutbox(workdir / "outbox.sqlite3"),
        line=line,
        attestations=SqliteAttestationStore(workdir / "attestations.sqlite3"),
        policy=policy or AssurancePolicy(),
        memory_settings=memory_settings,
        timezone=timezone,
        directory=SqliteCustomerDirectory(workdir / "customers.sqlite3"),
        claims=SqliteClaimRegistry(workdir / "claims.sqlite3"),
        erasures=SqliteErasureJournal(workdir / "erasures.sqlite3"),
    )


def local_host(
    workdir: Path,
    backend: MemoryBackend,
    *,
    memory_settings: MemorySettings,
    calendar: CalendarClient | None = None,
    billing: BillingClient | None = None,
    policy: AssurancePolicy | None = None,
    timezone: str = "UTC",
) -> VisitHost:
    return local_services(
        workdir,
        backend,
        memory_settings=memory_settings,
        line=VisitSystems(
            calendar or LocalCalendar(workdir / "calendar.sqlite3"),
            billing or LocalBilling(workdir / "billing.sqlite3"),
        ),
        policy=policy,
        timezone=timezone,
    )
