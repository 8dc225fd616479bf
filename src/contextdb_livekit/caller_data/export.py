"""Export everything held about one caller, from every store, as JSON."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from contextdb_livekit.stores.caller_data import CallerDataStore, HeldItem


@dataclasses.dataclass(frozen=True)
class CallerExport:
    customer_id: str
    exported_at: str
    items: list[HeldItem]
    # Stores that did not answer: the export is incomplete without them.
    unavailable: dict[str, str]

    def as_json(self) -> dict[str, Any]:
        return {
            "customer_id": self.customer_id,
            "exported_at": self.exported_at,
            "complete": not self.unavailable,
            "unavailable": self.unavailable,
            "items": [dataclasses.asdict(item) for item in self.items],
        }


async def export_caller(stores: Sequence[CallerDataStore], customer_id: str) -> CallerExport:
    items: list[HeldItem] = []
    unavailable: dict[str, str] = {}
    for store in stores:
        try:
            items.extend(await store.held_about(customer_id))
        except Exception as exc:  # the rest of the export still says what it found
            unavailable[store.name] = f"{type(exc).__name__}: {exc}"[:300]
    return CallerExport(customer_id, datetime.now(UTC).isoformat(), items, unavailable)
