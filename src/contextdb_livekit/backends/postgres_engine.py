"""The engine's storage part on the shared Postgres (`stores.engine.EngineClients`).

With DATABASE_URL set (and no ContextDB Cloud key) every job process runs the engine itself,
on one asyncpg pool it shares with the host state; there is no engine process. pycontextdb's
Postgres store serialises slot writes and audit-chain appends across processes with advisory
locks (tests/multihost checks that they hold), so hosts can write one caller's slots at once.

One scoped engine client per caller: the store mirrors vectors into an in-process index and
reloads it after any other process wrote. Scoped to one caller, that reload reads the
caller's rows, not the whole store, so recall cost follows the caller (bench/postgres_engine).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from typing import Any

import asyncpg
import contextdb

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.engine import engine_options
from contextdb_livekit.stores.postgres.connection import (
    DATABASE_ERRORS,
    SharedDatabase,
    SharedStateUnavailable,
)
from contextdb_livekit.stores.postgres.ledger import PostgresDecisionLedger

# Scoped clients kept per process. A job process serves one call at a time, the drain many
# callers in turn; past this many, the least recently used client is closed.
_MAX_CLIENTS = 64


class PostgresEngineClients:
    """One scoped pycontextdb client per caller on the shared database's pool."""

    unavailable_errors: tuple[type[BaseException], ...] = (
        SharedStateUnavailable,
        *DATABASE_ERRORS,
    )

    def __init__(self, database: SharedDatabase, *, embedding_model: str = "mock") -> None:
        self.database = database
        self._embedding_model = embedding_model
        self._options = engine_options(embedding_model)
        self._clients: OrderedDict[str, contextdb.ContextDB] = OrderedDict()
        self._opening: dict[str, asyncio.Lock] = {}
        self._indexed = False

    @classmethod
    async def connect(
        cls, database: SharedDatabase, *, embedding_model: str = "mock"
    ) -> PostgresEngineClients:
        """Check the database answers (and is migrated) before the first call uses it."""
        try:
            await database.ready()
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code="database_unavailable") from exc
        return cls(database, embedding_model=embedding_model)

    async def client_for(self, user_id: str) -> contextdb.ContextDB:
        """This caller's scoped client, opened (and its schema checked) on first use."""
        cached = self._clients.get(user_id)
        if cached is not None:
            self._clients.move_to_end(user_id)
            return cached
        lock = self._opening.setdefault(user_id, asyncio.Lock())
        async with lock:
            cached = self._clients.get(user_id)
            if cached is None:
                pool = await self.database.ready()
                cached = contextdb.init(
                    user_id=user_id,
                    storage_url=self.database.url,
                    postgres_pool=pool,
                    embedding_model=self._embedding_model,
                    llm_model="mock",
                    enable_read_audit=False,
                    **self._options,
                )
                await cached.stats()  # initialise once, before concurrent first uses
                if not self._indexed:
                    await self._index_unlabelled_rows(pool)
                self._clients[user_id] = cached
                await self._evict()
        self._opening.pop(user_id, None)
        return cached

    def opened(self, user_id: str) -> contextdb.ContextDB:
        cached = self._clients.get(user_id)
        if cached is None:
            raise RuntimeError("client_for(user_id) must run before the engine is used")
        return cached

    async def _index_unlabelled_rows(self, pool: Any) -> None:
        """Every client's schema check runs `UPDATE memories ... WHERE embedding_model_id IS
        NULL`, a scan of the whole store at each call start without an index (55 ms at 100K
        memories, growing with the store). A partial index of those rows, normally empty,
        makes it a lookup. Created once per database, after pycontextdb made the table."""
        async with pool.acquire() as conn:
            # Looked up first: CREATE INDEX locks the table against writes even when the
            # index exists, and every call start passes here.
            if await conn.fetchval("SELECT to_regclass('host_memories_unlabelled')") is None:
                with contextlib.suppress(asyncpg.DuplicateTableError, asyncpg.UniqueViolationError):
                    await conn.execute(
                        "CREATE INDEX IF NOT EXISTS host_memories_unlabelled"
                        " ON memories (embedding_dim) WHERE embedding_model_id IS NULL"
                    )
        self._indexed = True

    async def _evict(self) -> None:
        while len(self._clients) > _MAX_CLIENTS:
            _, db = self._clients.popitem(last=False)
            await db.close()  # the pool is ours (SharedDatabase), never closed by the engine

    async def close(self) -> None:
        while self._clients:
            _, db = self._clients.popitem()
            await db.close()


async def connect_engine(
    database: SharedDatabase, *, embedding_model: str = "mock"
) -> LocalEngine[PostgresEngineClients]:
    """The engine on the shared database, its decision ledger in the `host_*` tables beside
    pycontextdb's own; `MemoryUnavailable` when the database does not answer."""
    clients = await PostgresEngineClients.connect(database, embedding_model=embedding_model)
    return LocalEngine(clients, PostgresDecisionLedger(database))
