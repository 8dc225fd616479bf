"""Books the last visit from a separate process.

python -m tests.calendar_client.race_worker DB DAY VERSION WHO
"""

from __future__ import annotations

import asyncio
import sys
from datetime import date
from pathlib import Path

from calendar_client import LocalCalendar, SlotChanged, SlotUnavailable


async def main(db: str, day: str, version: str, who: str) -> str:
    calendar = LocalCalendar(Path(db), capacity=1)
    try:
        await calendar.book(who, date.fromisoformat(day), int(version), idempotency_key=f"k-{who}")
    except (SlotChanged, SlotUnavailable) as exc:
        return type(exc).__name__
    return "booked"


if __name__ == "__main__":
    print(asyncio.run(main(*sys.argv[1:5])))
