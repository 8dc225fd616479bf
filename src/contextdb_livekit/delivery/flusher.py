"""The outbox flusher: delivers due rows one at a time under a renewed lease.

One row's failure — any exception, including an intent resolver's — is settled on that row
(retry later, `needs_config`, `dead`) and the pass goes on. Every network call is bounded by
`call_timeout_s`, below the lease, so a send never outlives the lease it was sent under.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import OutboxUnavailable, classify_failure
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.outbox import IntentResolver, Outbox, OutboxItem
from contextdb_livekit.stores.outbox_policy import Backoff

log = logging.getLogger("contextdb_livekit.delivery.outbox")


async def deliver(backend: MemoryBackend, item: OutboxItem) -> None:
    """Send one row's call with its original idempotency key."""
    payload = item.payload
    if item.kind == "receipt":
        await backend.report_execution(
            item.user_id,
            payload["decision_id"],
            payload["action_name"],
            payload["status"],
            idempotency_key=item.idempotency_key,
            external_ref=payload.get("external_ref"),
            error_code=payload.get("error_code"),
        )
    elif item.kind == "remember_many":
        facts = [FactToRemember(**fact) for fact in payload["facts"]]
        await backend.remember_many(item.user_id, facts, idempotency_key=item.idempotency_key)
    else:
        raise ValueError(f"unknown outbox kind {item.kind!r}")


@dataclass
class OutboxFlusher:
    """Retries outbox rows with capped exponential backoff and jitter, one row at a time
    under a renewed lease; one row's failure never stops the others."""

    outbox: Outbox
    backend: MemoryBackend
    intent_resolvers: Mapping[str, IntentResolver]
    base_delay_s: float = 1.0
    max_delay_s: float = 300.0
    # A flusher that dies holding a lease blocks its rows for this long, no longer.
    lease_s: float = 30.0
    # Bounds each network call (delivery, intent resolution); must stay below lease_s so
    # a send never outlives the lease it was sent under. Default: min(10 s, lease_s / 2).
    call_timeout_s: float | None = None
    batch_size: int = 10
    _stop: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.call_timeout_s is None:
            self.call_timeout_s = min(10.0, self.lease_s / 2)
        if self.call_timeout_s >= self.lease_s:
            raise ValueError("call_timeout_s must be below lease_s")

    @property
    def _timeout_s(self) -> float:
        assert self.call_timeout_s is not None
        return self.call_timeout_s

    async def flush_once(self, stop: asyncio.Event | None = None) -> int:
        """Deliver what is due (one claim of up to `batch_size` rows); returns how many
        landed. Raises only `OutboxUnavailable` (the file itself is unusable)."""
        await self.outbox.redrive_config()
        landed = 0
        for item in await self.outbox.claim_due(limit=self.batch_size, lease_s=self.lease_s):
            if self._stop.is_set() or (stop is not None and stop.is_set()):
                break  # the lease expires by itself; the row goes out on the next run
            if not await self.outbox.renew(item, self.lease_s):
                continue
            landed += await self._process(item)
        return landed

    async def _process(self, item: OutboxItem) -> int:
        try:
            if item.state == "intent":
                resolved = await self._resolve_intent(item)
                if resolved is None:
                    return 0
                item = resolved
            async with asyncio.timeout(self._timeout_s):
                await deliver(self.backend, item)
        except Exception as exc:  # per-row isolation: anything goes back to this row only
            failure = classify_failure(exc)
            delay = self._backoff(item.attempts, failure.retry_after_s)
            state = await self.outbox.settle_claim(item, failure, delay_s=delay)
            log.warning("outbox row %s not delivered (%s): %s", item.idempotency_key, state,
                        failure.reason)  # fmt: skip
            return 0
        await self.outbox.finish_claim(item)
        return 1

    async def _resolve_intent(self, item: OutboxItem) -> OutboxItem | None:
        """The process died between recording an intent and knowing the outcome."""
        resolver = self.intent_resolvers.get(item.payload.get("action_name", ""))
        if resolver is None:
            outcome: dict[str, Any] = {
                "status": "failed",
                "error_code": "execution_outcome_unknown",
            }
        else:
            async with asyncio.timeout(self._timeout_s):
                outcome = await resolver({**item.payload, "idempotency_key": item.idempotency_key})
        payload = {**item.payload, **outcome}
        payload.pop("intent", None)
        return await self.outbox.resolve_intent(item, payload)

    def _backoff(self, attempts: int, retry_after_s: float | None = None) -> float:
        return Backoff(self.base_delay_s, self.max_delay_s).delay(attempts, retry_after_s)

    async def run(self, stop: asyncio.Event, *, interval_s: float = 2.0) -> None:
        """Background loop; never raises. Cancelling it is safe at any point: a row in
        flight keeps its lease until it expires and is then sent again with its key."""
        while not (stop.is_set() or self._stop.is_set()):
            try:
                await self.flush_once(stop)
            except OutboxUnavailable as exc:
                log.warning("outbox unavailable; will retry: %s", exc.reason)
            except Exception:
                log.exception("outbox flush failed; will retry")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval_s)

    def start(self, *, interval_s: float = 2.0) -> asyncio.Task[None]:
        """Run in the background until `stop`."""
        self._task = asyncio.create_task(self.run(self._stop, interval_s=interval_s))
        return self._task

    async def stop(self, timeout_s: float = 1.0) -> None:
        """Stop within `timeout_s`: let the row in flight finish if it can, else cancel."""
        self._stop.set()
        task, self._task = self._task, None
        if task is None:
            return
        done, _ = await asyncio.wait({task}, timeout=timeout_s)
        if not done:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
