"""Erase one caller from every store, resumably.

Each store's `erase` is idempotent, so the erasure is simply every store's, in order
(`caller_data.stores`): a run cut short anywhere (a crash, a store that did not answer) is
finished by running it again, and a complete rerun changes nothing. A step that fails does
not stop the others — the report names it and the command exits non-zero.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from contextdb_livekit.stores.caller_data import CallerDataStore

log = logging.getLogger("contextdb_livekit.caller_data.erase")

# Called after each store's step with its name (tests inject a crash here).
StepHook = Callable[[str], Awaitable[None]]


@dataclass
class ErasureReport:
    customer_id: str
    changed: dict[str, int] = field(default_factory=dict)
    # Records a running call may still close (open decisions): erase again after the call.
    deferred: dict[str, int] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    elapsed_s: float = 0.0

    @property
    def complete(self) -> bool:
        return not self.failed and not any(self.deferred.values())

    def as_json(self) -> dict[str, object]:
        return {
            "customer_id": self.customer_id,
            "complete": self.complete,
            "changed": self.changed,
            "deferred": {k: v for k, v in self.deferred.items() if v},
            "failed": self.failed,
            "elapsed_s": round(self.elapsed_s, 3),
        }


async def erase_caller(
    stores: Sequence[CallerDataStore],
    customer_id: str,
    *,
    after_step: StepHook | None = None,
) -> ErasureReport:
    report = ErasureReport(customer_id)
    started = time.monotonic()
    for store in stores:
        try:
            erased = await store.erase(customer_id)
        except Exception as exc:  # every other store is still erased; rerun finishes this one
            report.failed[store.name] = f"{type(exc).__name__}: {exc}"[:300]
            log.warning("erase: %s failed: %s", store.name, report.failed[store.name])
        else:
            report.changed[store.name] = report.changed.get(store.name, 0) + erased.changed
            report.deferred[store.name] = report.deferred.get(store.name, 0) + erased.deferred
        if after_step is not None:
            await after_step(store.name)
    report.elapsed_s = time.monotonic() - started
    return report
