"""A flusher process the outbox test kills mid-way.

python -m tests.memory.flush_worker OUTBOX_PATH ENGINE_DB_PATH
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox


class SlowBackend:
    """Each delivery takes a while, so a kill lands between send and bookkeeping."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self._inner = inner

    async def report_execution(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = await self._inner.report_execution(*args, **kwargs)
        print("delivered", flush=True)
        await asyncio.sleep(0.05)
        return result


async def main(outbox_path: Path, db_path: Path) -> None:
    client = await connect_local_engine(db_path)
    flusher = OutboxFlusher(SqliteOutbox(outbox_path), SlowBackend(client), {}, lease_s=0.5)
    while await flusher.flush_once():
        pass


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
