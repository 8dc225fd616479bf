"""pycontextdb on the shared Postgres, in the worker's own process: the multi-host engine.

With DATABASE_URL set (and no ContextDB Cloud key) every job process opens the engine here,
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
from contextdb.integrations.act import VerifyBeforeAct

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.local_engine import LocalEngine, _embedder_options
from contextdb_livekit.stores.postgres.connection import (
    DATABASE_ERRORS,
    SharedDatabase,
    SharedStateUnavailable,
)
from contextdb_livekit.stores.postgres.ledger import PgDecisionLedger

# Scoped clients kept per process. A job process serves one call at a time, the drain many
# callers in turn; past this many, the least recently used client is closed.
_MAX_CLIENTS = 64


class PostgresEngine(LocalEngine):
    """`LocalEngine`'s contract on Postgres: the same slot rule, write-ahead fact writes and
    receipts, with the ledger in `host_*` tables beside pycontextdb's own."""

    def __init__(self, database: SharedDatabase, *, embedding_model: str = "mock") -> None:
        super().__init__(db=None, ledger=PgDecisionLedger(database))  # type: ignore[arg-type]
        self.database = database
        self._embedding_model = embedding_model
        self._options = _embedder_options(embedding_model)
        self._clients: OrderedDict[str, tuple[contextdb.ContextDB, VerifyBeforeAct]] = OrderedDict()
        self._opening: dict[str, asyncio.Lock] = {}
        self._indexed = False

    @classmethod
    async def connect(
        cls, database: SharedDatabase, *, embedding_model: str = "mock"
    ) -> PostgresEngine:
        """Check the database answers (and is migrated) before the first call uses it."""
        try:
            await database.ready()
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code="database_unavailable") from exc
        return cls(database, embedding_model=embedding_model)

    @property
    def db(self) -> contextdb.ContextDB:
        raise AttributeError("PostgresEngine has one engine client per caller: use client_for")

    async def client_for(self, user_id: str) -> contextdb.ContextDB:
        """This caller's scoped engine client, opened (and its schema checked) on first use."""
        cached = self._clients.get(user_id)
        if cached is not None:
            self._clients.move_to_end(user_id)
            return cached[0]
        lock = self._opening.setdefault(user_id, asyncio.Lock())
        async with lock:
            cached = self._clients.get(user_id)
            if cached is None:
                pool = await self.database.ready()
                db = contextdb.init(
                    user_id=user_id,
                    storage_url=self.database.url,
                    postgres_pool=pool,
                    embedding_model=self._embedding_model,
                    llm_model="mock",
                    enable_read_audit=False,
                    **self._options,
                )
                await db.stats()  # initialise once, before concurrent first uses
                if not self._indexed:
                    await self._index_unlabelled_rows(pool)
                cached = (db, VerifyBeforeAct(db))
                self._clients[user_id] = cached
                await self._evict()
        self._opening.pop(user_id, None)
        return cached[0]

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
            _, (db, _) = self._clients.popitem(last=False)
            await db.close()  # the pool is ours (SharedDatabase), never closed by the engine

    def _db_for(self, user_id: str) -> contextdb.ContextDB:
        cached = self._clients.get(user_id)
        if cached is None:
            raise RuntimeError("client_for(user_id) must run before the engine is used")
        return cached[0]

    def _verifier_for(self, user_id: str) -> VerifyBeforeAct:
        return self._clients[user_id][1]

    async def _opened(self, user_id: str) -> None:
        try:
            await self.client_for(user_id)
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code="database_unavailable") from exc
        except DATABASE_ERRORS as exc:
            raise MemoryUnavailable(f"shared database: {exc}", code="database_unavailable") from exc

    # Every public call opens the caller's client first; the rest is LocalEngine's.

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> Any:
        await self._opened(user_id)
        return await super().recall(user_id, query, top_k=top_k)

    async def evaluate_action(self, user_id: str, query: str, **kwargs: Any) -> Any:
        await self._opened(user_id)
        return await super().evaluate_action(user_id, query, **kwargs)

    async def forget(self, user_id: str, memory_id: str) -> int:
        await self._opened(user_id)
        return await super().forget(user_id, memory_id)

    async def pending_confirmations(self, user_id: str) -> Any:
        await self._opened(user_id)
        return await super().pending_confirmations(user_id)

    async def confirm(self, user_id: str, memory_id: str, **kwargs: Any) -> Any:
        await self._opened(user_id)
        return await super().confirm(user_id, memory_id, **kwargs)

    async def remember_many(self, user_id: str, facts: list, *, idempotency_key: str) -> Any:
        await self._opened(user_id)
        return await super().remember_many(user_id, facts, idempotency_key=idempotency_key)

    async def audit_chain_verifies(self, user_id: str) -> bool:
        """pycontextdb's hash chain over every write on this database, checked end to end."""
        db = await self.client_for(user_id)
        return bool(await db.audit.verify_chain())

    async def close(self) -> None:
        while self._clients:
            _, (db, _) = self._clients.popitem()
            await db.close()

    @staticmethod
    async def _guard(awaitable: Any) -> Any:
        try:
            return await LocalEngine._guard(awaitable)
        except DATABASE_ERRORS as exc:
            raise MemoryUnavailable(f"shared database: {exc}", code="database_unavailable") from exc
