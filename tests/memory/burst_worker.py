"""One job-like process for the multi-process test: a burst of writes, decisions and receipts.

python -m tests.memory.burst_worker DB_PATH USER_ID WORKER_NO COUNT
"""

from __future__ import annotations

import asyncio
import sys
from datetime import date
from pathlib import Path

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.memory.models import FactToRemember, receipt_idempotency_key
from memory.facts import CallerFact
from tests.memory.support import day_request, day_slot


async def burst(db_path: Path, user_id: str, worker: int, count: int) -> None:
    # Correctness under contention, not latency: a generous per-request timeout.
    client = await connect_local_engine(db_path, idle_exit_s=60, timeout_s=60)
    try:

        async def one(i: int) -> None:
            await client.remember_many(
                user_id,
                [FactToRemember(f"Worker {worker} note {i}", "agent_inferred", 0.5)],
                idempotency_key=f"burst-{worker}-{i}",
            )
            day = date(2026, 12, 7 + (worker + i) % 5)
            # Competing values for one slot: exactly one may stay current.
            count = CallerFact(
                "equipment_count", f"{(worker + i) % 5 + 1} boilers", "user_stated", 0.9, day
            )
            await client.remember_many(
                user_id,
                [day_request(day), count.to_write()],
                idempotency_key=f"slot-{worker}-{i}",
            )
            decision = await client.evaluate_action(user_id, "book", slot=day_slot(day))
            await client.report_execution(
                user_id,
                decision.decision_id,
                "book_visit",
                "skipped",
                idempotency_key=receipt_idempotency_key(decision.decision_id),
            )

        # Concurrent within the process too, like overlapping turns and shutdown writes.
        await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        await client.close()


if __name__ == "__main__":
    db, user, worker_no, n = sys.argv[1:5]
    asyncio.run(burst(Path(db), user, int(worker_no), int(n)))
