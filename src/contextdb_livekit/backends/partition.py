"""One caller's partition in ContextDB, for export, erasure and retention
(`stores.caller_data.CallerDataStore`), one implementation per way the worker reaches memory:

- `EnginePartition`: the embedded engine in this process (`LocalEngine`, on a SQLite file in
  the engine process, or on the shared Postgres): pycontextdb's `forget_user` (every row of
  the partition, derived rows and graph edges included, with its FORGET proof in the audit
  chain), then the decision ledger (`stores.*.caller_data` ledger siblings). On SQLite the
  engine file is scrubbed on the engine's own connection afterwards.
- `EngineProcessPartition`: the same, asked of the local engine process over its socket
  (the process owns the file; nobody else may write it).
- `CloudPartition`: ContextDB Cloud's verified partition erasure (`forget` with
  `erase_partition`). Cloud has no per-caller listing or retention API in
  contextdb-cloud-client 0.2: the export lists what recall and pending confirmations return,
  marked partial, and retention of Cloud memories is the Cloud project's own setting.

pycontextdb's audit chain is append-only: it keeps the customer id and memory ids (never
text) of every write and of the erasure itself, as its proof of erasure.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import contextdb
from contextdb.core.exceptions import MemoryNotFoundError
from contextdb.store.sqlite_store import SQLiteStore

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.caller_data import (
    CallerDataStore,
    ErasedCount,
    HeldItem,
    RetentionPolicy,
    SlotRetention,
)

# Broad enough to reach every kind of caller fact through recall (Cloud has no listing).
_CLOUD_EXPORT_QUERIES = ("caller details address equipment access contact", "visit day")
_CLOUD_EXPORT_TOP_K = 50


@dataclass(frozen=True)
class StoredMemory:
    """What retention needs of a memory row, whoever's it is."""

    memory_id: str
    user_id: str
    entity: str | None
    attribute: str | None
    created_at: datetime


# Every memory row in the store (retention runs across callers).
MemoryScan = Callable[[], Awaitable[list[StoredMemory]]]


def parse_time(value: Any) -> datetime:
    parsed = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def memory_item(location: str, item: Any) -> HeldItem:
    """A pycontextdb MemoryItem as the export shows it."""
    created = item.created_at
    return HeldItem(
        "memory",
        location,
        "memory",
        item.id,
        created.isoformat() if isinstance(created, datetime) else str(created),
        {
            "text": item.content,
            # What kind of fact: its slot names it (README "Caller facts that stay true").
            "slot": f"{item.entity_key}/{item.attribute_key}" if item.entity_key else None,
            "memory_type": str(item.memory_type),
            "source": str(item.epistemic_source),
            "confidence": float(item.confidence),
            "status": str(item.status),
            "confirmed": bool(item.confirmed),
            "superseded_by": item.superseded_by,
        },
    )


def _store_of(db: contextdb.ContextDB) -> Any:
    store = getattr(db, "_store", None)
    if store is None:
        raise MemoryUnavailable("the engine's store is not open", code="engine_unavailable")
    return store


async def scrub_engine_file(db: contextdb.ContextDB) -> None:
    """After an erasure on a SQLite engine file: rewrite the file (no free page keeps the
    deleted text) and empty its WAL, on the engine's own connection, under its write lock
    so no write of another coroutine is open meanwhile."""
    store = _store_of(db)
    if not isinstance(store, SQLiteStore):
        return
    conn = store._conn
    if conn is None:
        raise MemoryUnavailable("the engine's SQLite store is not open", code="engine_unavailable")
    async with store._write_lock:
        await conn.commit()
        await conn.execute("VACUUM")
        for _ in range(100):
            cursor = await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            busy = next(iter(await cursor.fetchall()))[0]
            if busy == 0:
                return
    raise MemoryUnavailable("engine WAL still in use; run erase again", code="scrub_incomplete")


async def secure_deletes(db: contextdb.ContextDB) -> None:
    """Every page the engine frees from now on is zeroed (SQLite `secure_delete`)."""
    store = _store_of(db)
    if isinstance(store, SQLiteStore) and store._conn is not None:
        await store._conn.execute("PRAGMA secure_delete=ON")


async def sqlite_memory_scan(db: contextdb.ContextDB) -> list[StoredMemory]:
    store = _store_of(db)
    cursor = await store._conn.execute(
        "SELECT id, user_id, entity_key, attribute_key, created_at FROM memories"
    )
    return [
        StoredMemory(r[0], r[1] or "", r[2], r[3], parse_time(r[4]))
        for r in await cursor.fetchall()
    ]


class EnginePartition:
    """The embedded engine in this process, with its ledger's caller data."""

    name = "memory"

    def __init__(
        self,
        engine: LocalEngine[Any],
        ledger: CallerDataStore,
        *,
        location: str,
        scan: MemoryScan | None = None,
        after_change: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.engine = engine
        self.ledger = ledger
        self.location = location
        self._scan = scan
        # Postgres: VACUUM the engine's tables once rows were deleted.
        self._after_change = after_change

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        db = await self.engine.client_for(customer_id)
        items = [
            memory_item(self.location, item)
            async for item in _store_of(db).iter_memories(user_id=customer_id, status=None)
        ]
        return [*items, *await self.ledger.held_about(customer_id)]

    async def erase(self, customer_id: str) -> ErasedCount:
        db = await self.engine.client_for(customer_id)
        await secure_deletes(db)
        deleted = int(await db.forget_user(customer_id))
        if not await db.verify_forgotten(customer_id):
            raise MemoryUnavailable(
                "the engine still holds rows for this caller; run erase again",
                code="erase_unverified",
            )
        await scrub_engine_file(db)
        if deleted and self._after_change is not None:
            await self._after_change()
        ledger = await self.ledger.erase(customer_id)
        return ErasedCount(deleted + ledger.changed, ledger.deferred)

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        expired = 0
        if self._scan is not None:
            touched: set[str] = set()
            for row in await self._scan():
                if row.created_at + policy.keep_fact(row.entity, row.attribute) > now:
                    continue
                db = await self.engine.client_for(row.user_id)
                with contextlib.suppress(MemoryNotFoundError):
                    expired += int(await db.forget(user_id=row.user_id, memory_id=row.memory_id))
                touched.add(row.user_id)
            if touched:
                await scrub_engine_file(await self.engine.client_for(next(iter(touched))))
                if self._after_change is not None:
                    await self._after_change()
        return expired + await self.ledger.expire(policy, now)


def policy_to_json(policy: RetentionPolicy) -> dict[str, Any]:
    return {
        "slots": [
            {
                "entity": rule.entity,
                "attribute_prefix": rule.attribute_prefix,
                "keep_s": rule.keep.total_seconds(),
            }
            for rule in policy.slots
        ],
        "facts_default_s": policy.facts_default.total_seconds(),
        "audit_s": policy.audit.total_seconds(),
        "parked_s": policy.parked.total_seconds(),
        "evidence_text_s": policy.evidence_text.total_seconds(),
    }


def policy_from_json(data: dict[str, Any]) -> RetentionPolicy:
    return RetentionPolicy(
        slots=tuple(
            SlotRetention(r["entity"], r["attribute_prefix"], timedelta(seconds=r["keep_s"]))
            for r in data["slots"]
        ),
        facts_default=timedelta(seconds=data["facts_default_s"]),
        audit=timedelta(seconds=data["audit_s"]),
        parked=timedelta(seconds=data["parked_s"]),
        evidence_text=timedelta(seconds=data["evidence_text_s"]),
    )


class EngineCallerDataClient(Protocol):
    """What `backends.engine_client.LocalEngineMemory` offers for this (not imported here:
    the engine process imports this module and needs none of the client's machinery)."""

    async def caller_data(self, user_id: str) -> dict[str, Any]: ...

    async def erase_partition(self, user_id: str) -> dict[str, Any]: ...

    async def retention(self, policy: dict[str, Any], now: str) -> dict[str, Any]: ...


class EngineProcessPartition:
    """The local engine process's partition, over its socket (local extensions of the
    Cloud-shaped API: `/v1/caller_data`, `/v1/retention`; erasure is Cloud's own
    `/v1/forget` with `erase_partition`, which the engine also applies to its ledger)."""

    name = "memory"

    def __init__(self, memory: EngineCallerDataClient) -> None:
        self.memory = memory

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        data = await self.memory.caller_data(customer_id)
        return [HeldItem(**item) for item in data["items"]]

    async def erase(self, customer_id: str) -> ErasedCount:
        data = await self.memory.erase_partition(customer_id)
        return ErasedCount(int(data.get("deleted", 0)), int(data.get("deferred", 0)))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        data = await self.memory.retention(policy_to_json(policy), now.isoformat())
        return int(data["expired"])


class CloudPartition:
    """ContextDB Cloud's partition of one caller."""

    name = "memory"

    def __init__(self, memory: CloudMemory) -> None:
        self.memory = memory

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        seen: dict[str, HeldItem] = {}
        found = list(await self.memory.pending_confirmations(customer_id))
        for query in _CLOUD_EXPORT_QUERIES:
            result = await self.memory.recall(customer_id, query, top_k=_CLOUD_EXPORT_TOP_K)
            found.extend(result.memories)
        for memory in found:
            if memory.id in seen or memory.user_id != customer_id:
                continue
            seen[memory.id] = HeldItem(
                "memory",
                self.memory.label,
                "memory",
                memory.id,
                None,
                {
                    "text": memory.content,
                    "source": memory.epistemic_source,
                    "confidence": memory.confidence,
                    "slot": f"{memory.entity_key}/{memory.attribute_key}"
                    if memory.entity_key
                    else None,
                    "confirmed": memory.confirmed,
                    # Cloud lists no partition: what recall reaches, not a full listing.
                    "listing": "partial",
                },
            )
        return list(seen.values())

    async def erase(self, customer_id: str) -> ErasedCount:
        response = await self.memory.erase_partition(customer_id)
        if response.get("verified") is False:
            raise MemoryUnavailable(
                "ContextDB Cloud did not verify the erasure; run erase again",
                code="erase_unverified",
            )
        return ErasedCount(int(response.get("deleted", 0)))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        return 0
