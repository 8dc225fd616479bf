"""The fact batches the fault tests write: plain notes plus one slotted fact, per key."""

from __future__ import annotations

from datetime import date

from contextdb_livekit.memory.models import FactToRemember
from tests.memory.support import day_request, day_slot

DAY = date(2026, 12, 10)
DAY_SLOT = day_slot(DAY)

BATCH_STEPS = ["begun", "fact:0", "fact:1", "fact:2", "recorded"]


def batch(key: str) -> list[FactToRemember]:
    """Two unslotted notes unique to the key and one slotted fact (the requested day)."""
    return [
        FactToRemember(f"Note A for {key}", "agent_inferred", 0.5),
        FactToRemember(f"Note B for {key}", "agent_inferred", 0.5),
        day_request(DAY),
    ]
