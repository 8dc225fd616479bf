"""One of two flusher processes racing on one outbox file, with slow deliveries.

python -m tests.memory.race_flush_worker OUTBOX_PATH NAME DELIVERY_S LEASE_S BATCH

Prints "start KEY NAME" when a delivery begins, so the test can count rows sent twice.
Exits when the outbox is empty (or after 60 s).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox


class SlowCountingBackend:
    def __init__(self, name: str, delivery_s: float) -> None:
        self.name = name
        self.delivery_s = delivery_s

    async def report_execution(self, user_id: str, decision_id: str, *args: Any, **kw: Any) -> None:
        print(f"start {kw['idempotency_key']} {self.name}", flush=True)
        await asyncio.sleep(self.delivery_s)


async def main(path: Path, name: str, delivery_s: float, lease_s: float, batch: int) -> None:
    outbox = SqliteOutbox(path)
    flusher = OutboxFlusher(
        outbox,
        SlowCountingBackend(name, delivery_s),  # type: ignore[arg-type]
        {},
        lease_s=lease_s,
        call_timeout_s=lease_s / 2,
        batch_size=batch,
    )
    deadline = time.monotonic() + 60
    while await outbox.items() and time.monotonic() < deadline:
        await flusher.flush_once()
        await asyncio.sleep(0.01)


if __name__ == "__main__":
    path, name, delivery, lease, batch = sys.argv[1:6]
    asyncio.run(main(Path(path), name, float(delivery), float(lease), int(batch)))
