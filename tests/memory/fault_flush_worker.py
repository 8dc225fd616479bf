"""A flusher process SIGKILLed at one named step of one row kind.

python -m tests.memory.fault_flush_worker OUTBOX DB CALENDAR STEP KIND

STEP is a flusher step of `testkit.fault_points.FaultyOutbox` ("claimed", "renewed",
"resolved", "delivered"); KIND is "receipt", "remember_many" or "intent" (a receipt row that
starts as an intent).
Prints "finished" if it never reached the step.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import date
from pathlib import Path

from billing_client import LocalBilling
from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.stores.outbox import OutboxItem
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.fault_points import FaultyOutbox
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

TODAY = date(2026, 12, 7)


async def main(outbox_path: Path, db: Path, calendar_path: Path, step: str, kind: str) -> None:
    client = await connect_local_engine(db)
    calendar = LocalCalendar(calendar_path, today=TODAY)

    async def kill_at(reached: str, item: OutboxItem) -> None:
        # Only the intent's row carries the booking context, before and after resolution.
        row_kind = "intent" if item.payload.get("customer_id") else item.kind
        if reached == step and row_kind == kind:
            os.kill(os.getpid(), signal.SIGKILL)

    flusher = OutboxFlusher(
        FaultyOutbox(SqliteOutbox(outbox_path), kill_at),  # type: ignore[arg-type]
        client,
        LINE_ACTIONS.resolvers(
            VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
        ),
        lease_s=1.0,
    )
    while await flusher.flush_once():
        pass
    print("finished", flush=True)
    await client.close()


if __name__ == "__main__":
    outbox, db, cal, step, kind = sys.argv[1:6]
    asyncio.run(main(Path(outbox), Path(db), Path(cal), step, kind))
