"""One Postgres shared by every worker host (DATABASE_URL): a pool, the project's migrations,
and one error type for "the database did not answer".

The pool connects lazily (`min_size=0`), so a worker whose database is down still starts and
takes calls: each use then fails with `SharedStateUnavailable`, which every store turns into
its own fail-closed error (the outbox's `OutboxUnavailable`, the ledger's
`MemoryUnavailable`, an unverified caller). Migrations (memory/migrations/NNN_*.sql) run once
per pool on first use, under an advisory lock so hosts starting together apply each once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import asyncpg

log = logging.getLogger("contextdb_livekit.stores.postgres.connection")

# One advisory lock key for "applying migrations"; any constant unique to this project.
_MIGRATION_LOCK = 0x6364625F686F7374  # "cdb_host"
# Errors that mean "the database is unreachable or refused", never a bug in our SQL. A
# connection whose server session was terminated mid-query can also surface as asyncpg's
# InternalClientError ("cannot switch to state ...; another operation is in progress").
DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)


class SharedStateUnavailable(Exception):
    """The shared database could not be used for one operation (down, refused, timed out)."""


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration shipped with the package, in order."""
    found = []
    for entry in resources.files("contextdb_livekit.stores.postgres.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), name, entry.read_text()))
    return sorted(found)


async def migrate(conn: Any) -> list[str]:
    """Apply the migrations this database has not seen; returns the names applied."""
    applied: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS host_schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in await conn.fetch("SELECT version FROM host_schema_migrations")}
        for version, name, sql in migrations():
            if version in done:
                continue
            await conn.execute(sql)
            await conn.execute(
                "INSERT INTO host_schema_migrations (version, name) VALUES ($1, $2)", version, name
            )
            applied.append(name)
    for name in applied:
        log.info("applied migration %s", name)
    return applied


class SharedDatabase:
    """The pool plus "migrated yet?"; every store borrows connections through `connection()`."""

    def __init__(self, url: str, *, max_size: int = 4, timeout_s: float = 5.0) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self._max_size = max_size
        self._pool: asyncpg.Pool | None = None
        self._migrated = False
        self._ready_lock = asyncio.Lock()

    @property
    def pool(self) -> asyncpg.Pool | None:
        """The asyncpg pool once created (pycontextdb's Postgres store shares it)."""
        return self._pool

    async def ready(self) -> asyncpg.Pool:
        """The pool, migrated; `SharedStateUnavailable` when the database does not answer."""
        if self._migrated and self._pool is not None:
            return self._pool
        async with self._ready_lock:
            try:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        self.url,
                        min_size=0,
                        max_size=self._max_size,
                        timeout=self.timeout_s,
                        command_timeout=self.timeout_s,
                    )
                if not self._migrated:
                    async with self._pool.acquire(timeout=self.timeout_s) as conn:
                        await migrate(conn)
                    self._migrated = True
            except DATABASE_ERRORS as exc:
                raise SharedStateUnavailable(_describe(exc)) from exc
        return self._pool

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """A pooled connection; any database failure inside becomes `SharedStateUnavailable`."""
        pool = await self.ready()
        try:
            async with pool.acquire(timeout=self.timeout_s) as conn:
                yield conn
        except DATABASE_ERRORS as exc:
            raise SharedStateUnavailable(_describe(exc)) from exc

    async def close(self) -> None:
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), timeout=self.timeout_s)
            self._pool = None
            self._migrated = False


def _describe(exc: BaseException) -> str:
    return f"shared database: {type(exc).__name__}: {exc}"[:300]
