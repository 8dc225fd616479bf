"""What erasing one caller costs: export and erase of a caller with N facts (and N
attestations and N queued writes), in a store shared with other callers, on the embedded
engine's SQLite file and on Postgres (`--postgres`, starts its own).

    python -m bench.caller_erase [--facts 100,1000] [--others 2000] [--postgres]

Prints, per size: export ms, erase ms (the scrub included), and the sizes of the data files
before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.caller_data.stores import memory_data
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.caller_data import CallerDataStore
from contextdb_livekit.stores.postgres.attestations import PgAttestationStore
from contextdb_livekit.stores.postgres.caller_data import (
    PgAttestationData,
    PgDirectoryData,
    PgOutboxData,
)
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.directory import PgCustomerDirectory
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.caller_data import (
    SqliteAttestationData,
    SqliteDirectoryData,
    SqliteOutboxData,
)
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.postgres import create_database, running_postgres


def facts(user: str, n: int) -> list[FactToRemember]:
    return [
        FactToRemember(
            f"Note {i} for {user}: the shed behind number {i} has the stopcock",
            "user_stated",
            0.9,
            entity="caller",
            attribute=f"note_{i}",
        )
        for i in range(n)
    ]


async def plant(backend: Any, outbox: Any, attestations: Any, directory: Any, user: str, n: int):  # type: ignore[no-untyped-def]
    for start in range(0, n, 20):
        batch = facts(user, n)[start : start + 20]
        await backend.remember_many(user, batch, idempotency_key=f"bench:{user}:{start}")
    for i in range(n):
        await attestations.record(
            customer_id=user, actor_id="web", channel="web", room_name="r", memory_ids=[],
            turn_id=f"t{i}", turn_text="yes please", question_text=f"shall I note {i}?",
        )  # fmt: skip
        payload = {"facts": [f.as_item() for f in facts(user, 1)]}
        await outbox.put(f"facts:{user}:{i}", "remember_many", user, payload, hold=False)
    await directory.add(f"+1555{abs(hash(user)) % 10**7:07d}", user)


def size(paths: list[Path]) -> int:
    return sum(p.stat().st_size for d in paths for p in d.parent.glob(d.name + "*"))


async def run_sqlite(sizes: list[int], others: int) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp)
            backend = await open_engine(data / "memory.sqlite3")
            outbox = SqliteOutbox(data / "outbox.sqlite3")
            attestations = SqliteAttestationStore(data / "attestations.sqlite3")
            directory = SqliteCustomerDirectory(data / "customers.sqlite3")
            try:
                for k in range(max(1, others // 20)):
                    other = f"cust-other-{k}"
                    await backend.remember_many(other, facts(other, 20), idempotency_key=other)
                user = f"cust-{uuid.uuid4().hex[:8]}"
                await plant(backend, outbox, attestations, directory, user, n)
                stores: list[CallerDataStore] = [
                    SqliteOutboxData(data / "outbox.sqlite3"),
                    memory_data(backend),
                    SqliteAttestationData(data / "attestations.sqlite3"),
                    SqliteDirectoryData(data / "customers.sqlite3"),
                ]
                files = [data / "memory.sqlite3", data / "outbox.sqlite3"]
                await report("sqlite", n, others, stores, user, files)
            finally:
                await backend.close()


async def run_postgres(sizes: list[int], others: int) -> None:
    with running_postgres() as server:
        for n in sizes:
            database = SharedDatabase(
                await create_database(server.url, f"b_{uuid.uuid4().hex[:8]}")
            )
            engine = await connect_engine(database)
            try:
                for k in range(max(1, others // 20)):
                    other = f"cust-other-{k}"
                    await engine.remember_many(other, facts(other, 20), idempotency_key=other)
                user = f"cust-{uuid.uuid4().hex[:8]}"
                await plant(
                    engine, PostgresOutbox(database), PgAttestationStore(database),
                    PgCustomerDirectory(database), user, n,
                )  # fmt: skip
                stores: list[CallerDataStore] = [
                    PgOutboxData(database),
                    memory_data(engine),
                    PgAttestationData(database),
                    PgDirectoryData(database),
                ]
                await report("postgres", n, others, stores, user, [])
            finally:
                await engine.close()
                await database.close()


async def report(
    label: str, n: int, others: int, stores: list[CallerDataStore], user: str, files: list[Path]
) -> None:
    before = size(files) if files else 0
    started = time.perf_counter()
    exported = await export_caller(stores, user)
    export_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    erased = await erase_caller(stores, user)
    erase_ms = (time.perf_counter() - started) * 1000
    after = size(files) if files else 0
    sizes = f"; files {before // 1024} → {after // 1024} KiB" if files else ""
    print(
        f"{label}: caller with {n} facts + {n} attestations + {n} queued writes, "
        f"{others} other memories: export {len(exported.items)} items in {export_ms:.0f} ms, "
        f"erase {sum(erased.changed.values())} items in {erase_ms:.0f} ms "
        f"(complete={erased.complete}){sizes}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", default="100,1000")
    parser.add_argument("--others", type=int, default=2000)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.facts.split(",")]
    asyncio.run(run_sqlite(sizes, args.others))
    if args.postgres:
        asyncio.run(run_postgres(sizes, args.others))


if __name__ == "__main__":
    main()
