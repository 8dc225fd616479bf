"""A job-like process racing another for the last visit of each day (started with spawn)."""

from __future__ import annotations

import asyncio
from datetime import date
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from calendar_client import LocalCalendar


def race_for_days(
    db: str,
    days: list[str],
    expected_version: int,
    who: str,
    start_together: Barrier,
    results: Queue[tuple[str, str, str]],
) -> None:
    asyncio.run(_race(Path(db), days, expected_version, who, start_together, results))


async def _race(
    db: Path,
    days: list[str],
    expected_version: int,
    who: str,
    start_together: Barrier,
    results: Queue[tuple[str, str, str]],
) -> None:
    calendar = LocalCalendar(db)
    await calendar.get_slot(date.fromisoformat(days[0]))  # open the file before the race
    for day in days:
        # Both processes leave the barrier together, so their bookings really overlap.
        await asyncio.to_thread(start_together.wait, 60)
        try:
            await calendar.book(
                who, date.fromisoformat(day), expected_version, idempotency_key=f"{who}:{day}"
            )
        except Exception as exc:  # reported, not raised: a dead racer would stall the other
            results.put((who, day, type(exc).__name__))
        else:
            results.put((who, day, "booked"))
