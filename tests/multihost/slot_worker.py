"""One process writing competing values into one slot of pycontextdb's Postgres store.

    python -m tests.multihost.slot_worker DATABASE_URL USER_ID WORKER_NO COUNT [--unlocked]

`--unlocked` replaces the store's cross-process slot and audit locks with no-ops: the
check that the multi-process test can tell a working lock from a missing one.

Each worker prints "ready" once connected and writes only after a line on stdin, so the
test starts every worker's writes at once instead of hoping their start-ups overlap.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from datetime import date

from contextdb.store.postgres_store import PostgresStore

from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from memory.facts import CallerFact


class _NoLock:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *_: object) -> None:
        return None


def remove_locks() -> None:
    async def slot_lock(self, *_: object, **__: object) -> _NoLock:  # type: ignore[no-untyped-def]
        return _NoLock()

    PostgresStore.slot_lock = slot_lock  # type: ignore[method-assign]
    PostgresStore.audit_lock = lambda self: _NoLock()  # type: ignore[method-assign]


async def run(url: str, user_id: str, worker: int, count: int) -> None:
    database = SharedDatabase(url)
    engine = await connect_engine(database)
    try:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        for i in range(count):
            value = f"{(worker * count + i) % 7 + 1} boilers"
            fact = CallerFact("equipment_count", value, "user_stated", 0.9, date(2026, 12, 7))
            with contextlib.suppress(Exception):
                await engine.remember_many(
                    user_id, [fact.to_write()], idempotency_key=f"slot-{worker}-{i}"
                )
    finally:
        await engine.close()
        await database.close()


if __name__ == "__main__":
    url, user, worker_no, n = sys.argv[1:5]
    if "--unlocked" in sys.argv:
        remove_locks()
    asyncio.run(run(url, user, int(worker_no), int(n)))
