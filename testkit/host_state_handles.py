"""Handles onto one host-state store, for the contract suites: each `open_*` call is what
another job process (SQLite) or another host (Postgres) would open onto the same store."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from contextdb_livekit.stores.postgres.attestations import PgAttestationStore
from contextdb_livekit.stores.postgres.claims import PgClaimRegistry
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.directory import PgCustomerDirectory
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory

Kind = Literal["sqlite", "postgres"]
KINDS: list[Kind] = ["sqlite", "postgres"]
# Nothing listens on the discard port: a database that does not answer.
DOWN_URL = "postgresql://postgres@127.0.0.1:9/nothing"
_FILES = {
    "attestations": "attestations.sqlite3",
    "claims": "claims.sqlite3",
    "directory": "customers.sqlite3",
}
_TABLES = {
    "attestations": "host_attestations",
    "claims": "host_used_claims",
    "directory": "host_customers",
}


class Handles:
    def __init__(self, kind: Kind, data: Path, database_url: str | None) -> None:
        self.kind = kind
        self.data = data
        self.database_url = database_url
        self._databases: list[SharedDatabase] = []

    def _database(self, url: str | None = None) -> SharedDatabase:
        database = SharedDatabase(url or self.database_url or "", timeout_s=2)
        self._databases.append(database)
        return database

    def path(self, store: str) -> Path:
        return self.data / "nested" / _FILES[store]

    def attestations(self) -> SqliteAttestationStore | PgAttestationStore:
        if self.kind == "sqlite":
            return SqliteAttestationStore(self.path("attestations"))
        return PgAttestationStore(self._database())

    def claims(self) -> SqliteClaimRegistry | PgClaimRegistry:
        if self.kind == "sqlite":
            return SqliteClaimRegistry(self.path("claims"))
        return PgClaimRegistry(self._database())

    def directory(self) -> SqliteCustomerDirectory | PgCustomerDirectory:
        if self.kind == "sqlite":
            return SqliteCustomerDirectory(self.path("directory"))
        return PgCustomerDirectory(self._database())

    def down(self, store: str) -> Handles:
        """Handles onto a store that cannot be used: a SQLite path whose folder is a file, a
        Postgres that does not answer."""
        if self.kind == "sqlite":
            blocker = self.data / "not-a-folder"
            blocker.write_text("")
            return Handles("sqlite", blocker, None)
        broken = Handles("postgres", self.data, DOWN_URL)
        broken._databases = self._databases  # closed with ours
        return broken

    async def stored_text(self, store: str) -> str:
        """Everything the store holds, raw: the SQLite file with its WAL, or the rows."""
        if self.kind == "sqlite":
            path = self.path(store)
            return "".join(
                Path(str(path) + suffix).read_bytes().decode("utf-8", "replace")
                for suffix in ("", "-wal")
                if Path(str(path) + suffix).exists()
            )
        async with self._database().connection() as conn:
            rows = await conn.fetch(f"SELECT t::text FROM {_TABLES[store]} t")
        return "\n".join(row[0] for row in rows)

    async def close(self) -> None:
        for database in self._databases:
            await database.close()


@dataclass(frozen=True)
class Backend:
    kind: Kind
    database_url: str | None


def backend_for(request: pytest.FixtureRequest) -> Backend:
    """For a fixture parametrised over KINDS. Synchronous on purpose: pytest-asyncio resolves
    the async `database_url` fixture (a fresh database) from a plain fixture, not from an
    async one."""
    kind: Kind = request.param
    url = request.getfixturevalue("database_url") if kind == "postgres" else None
    return Backend(kind, url)


@contextlib.asynccontextmanager
async def open_handles(backend: Backend, data: Path) -> AsyncIterator[Handles]:
    handles = Handles(backend.kind, data, backend.database_url)
    try:
        yield handles
    finally:
        await handles.close()


@contextlib.contextmanager
def umask(value: int) -> Iterator[None]:
    old = os.umask(value)
    try:
        yield
    finally:
        os.umask(old)
