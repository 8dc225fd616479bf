"""Retention: every store's `expire` at one moment, and the drain's schedule for it.

The clock is injected (`clock`), so tests move time instead of waiting; the drain uses the
wall clock. A store that fails is reported and tried again at the next pass; the others
still expire what is due.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from contextdb_livekit.caller_data.stores import CallerDataStores, open_caller_data
from contextdb_livekit.facts.retention import FactRetentionSettings
from contextdb_livekit.stores.caller_data import CallerDataStore, RetentionPolicy

log = logging.getLogger("contextdb_livekit.caller_data.retention")

Clock = Callable[[], datetime]
# A line's retention settings (`FactRetentionSettings` and its categories).
S = TypeVar("S", bound=FactRetentionSettings)


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class RetentionRun:
    at: datetime
    expired: dict[str, int] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)


async def apply_retention(
    stores: Sequence[CallerDataStore], policy: RetentionPolicy, now: datetime
) -> RetentionRun:
    run = RetentionRun(now)
    for store in stores:
        try:
            count = await store.expire(policy, now)
        except Exception as exc:  # the other stores still expire what is due
            run.failed[store.name] = f"{type(exc).__name__}: {exc}"[:300]
            log.warning("retention: %s failed: %s", store.name, run.failed[store.name])
        else:
            run.expired[store.name] = run.expired.get(store.name, 0) + count
    return run


class RetentionSchedule:
    """Called on every drain pass; applies the policy once per `interval` (the first call
    runs at once). The stores are opened for the run and closed after, so an idle drain
    holds nothing open between runs."""

    def __init__(
        self,
        open_stores: Callable[[], Awaitable[CallerDataStores]],
        policy: RetentionPolicy,
        interval: timedelta,
        *,
        clock: Clock = utc_now,
    ) -> None:
        self.open_stores = open_stores
        self.policy = policy
        self.interval = interval
        self.clock = clock
        self.last: RetentionRun | None = None

    @classmethod
    def from_settings(
        cls, policy_of: Callable[[S], RetentionPolicy], settings: Callable[[], S]
    ) -> RetentionSchedule:
        """A line's retention as the drain applies it: the configured caller-data stores, the
        line's policy of its settings, every RETENTION_INTERVAL_S. The settings are read here,
        so settings that do not validate stop the drain before its first pass."""
        read = settings()
        interval = timedelta(seconds=read.interval_s)
        return cls(open_caller_data, policy_of(read), interval)

    async def __call__(self) -> RetentionRun | None:
        now = self.clock()
        if self.last is not None and now - self.last.at < self.interval:
            return None
        opened = await self.open_stores()
        try:
            run = await apply_retention(opened.stores, self.policy, now)
        finally:
            await opened.close()
        # A failed store is retried at the next pass, not an interval later.
        if not run.failed:
            self.last = run
        expired = sum(run.expired.values())
        if expired:
            log.info("retention: %d item(s) expired or stripped: %s", expired, run.expired)
        return run
