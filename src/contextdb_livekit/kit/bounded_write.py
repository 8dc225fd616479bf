"""A fact write that keeps one time budget as a whole: outbox row, direct send and settle.

The end-of-call write runs in LiveKit's shutdown, which kills the job at 10 s; its budget
(`MEMORY_SHUTDOWN_WRITE_BUDGET_MS`) used to bound only the send, while the outbox write
before it and the settle after it could each take seconds more (4.1–8.2 s measured against
3 s). Here every step runs against one deadline:

1. The outbox row first (durable before the network call), for up to half the budget. An
   outbox slower than that is not waited for: its commit goes on in the background (a
   SQLite write in a thread is never cancelled half-way) and the send starts anyway.
2. The direct send, within what is left; cancelled at the deadline.
3. If the send did not land, the facts are reported `queued` only when the row's commit is
   known to have landed, before the report (waited for within what is left): a write reported
   queued is durably queued. Otherwise the write is `unconfirmed` (the commit was still
   running; if it lands, the row is delivered later) or `lost` (the outbox refused it).
4. The row is settled (delivered, released to the flusher, parked) within what is left;
   past the deadline the settle goes on in the background. Not settled at all (the process
   gone), the row's owner lease runs out and a flusher sends it again under its key, which
   the backend deduplicates.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from contextdb_livekit.kit.gate import within
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import MemoryLayerError, MemoryUnavailable, OutboxUnavailable
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.outbox import Outbox

log = logging.getLogger("contextdb_livekit.kit.bounded_write")

# The part of the budget the outbox row may take before the send starts without it.
OUTBOX_SHARE = 0.5


@dataclass(frozen=True)
class WriteOutcome:
    written: int
    queued: int
    # Neither delivered nor queued (backend and outbox down at once); logged as an error.
    lost: int = 0
    # Not delivered, and the outbox row's commit had not landed by the deadline: never
    # reported as queued. The commit goes on; if it lands, the row is delivered later.
    unconfirmed: int = 0


# Tasks left running past a deadline (an outbox commit, a settle): kept so they are not
# garbage-collected mid-way.
_background: set[asyncio.Future[Any]] = set()


def _keep(task: asyncio.Future[Any]) -> None:
    _background.add(task)
    task.add_done_callback(_background.discard)


async def write_within(
    backend: MemoryBackend,
    outbox: Outbox,
    user_id: str,
    facts: list[FactToRemember],
    *,
    idempotency_key: str,
    budget_s: float,
) -> WriteOutcome:
    """Write `facts` (already redacted) within `budget_s` in all; see the module docstring."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget_s

    def left() -> float:
        return max(0.0, deadline - loop.time())

    payload = {"facts": [fact.as_item() for fact in facts]}
    # held: this write owns the row's lease while it sends directly (else a flusher does).
    row: asyncio.Future[bool] = asyncio.ensure_future(
        outbox.put(idempotency_key, "remember_many", user_id, payload)
    )
    _keep(row)  # never cancelled: a commit under way is let finish
    try:
        await within(row, budget_s * OUTBOX_SHARE, cancel=False)
    except TimeoutError:
        log.warning("outbox slow for %s; sending without waiting for it", idempotency_key)
    except OutboxUnavailable as exc:
        # The outbox is a fallback, not a gate: the facts still go out directly.
        log.error("outbox unavailable, writing facts directly: %s", exc)

    def settle_row(error: BaseException | None) -> Awaitable[None]:
        return _settle_when_committed(outbox, row, idempotency_key, error)

    try:
        await within(backend.remember_many(user_id, facts, idempotency_key=idempotency_key), left())
    except (MemoryUnavailable, TimeoutError) as exc:
        reason = str(exc) or "no answer within the budget"
        committed = await _committed_by(row, left)
        await _bounded(settle_row(exc), left())  # release the row to the flusher
        if committed is True:
            log.warning("fact write %s queued in the outbox: %s", idempotency_key, reason)
            return WriteOutcome(0, len(facts))
        if committed is None:
            log.error(
                "fact write %s not delivered (%s) and its outbox row not yet committed "
                "within the budget; delivered later only if that commit lands",
                idempotency_key, reason,
            )  # fmt: skip
            return WriteOutcome(0, 0, unconfirmed=len(facts))
        log.error("fact write %s failed and could not be queued: %s", idempotency_key, reason)
        return WriteOutcome(0, 0, lost=len(facts))
    except MemoryLayerError as exc:
        await _bounded(settle_row(exc), left())  # parked with its reason
        raise
    await _bounded(settle_row(None), left())
    return WriteOutcome(len(facts), 0)


async def _committed_by(row: asyncio.Future[bool], left: Callable[[], float]) -> bool | None:
    """True: the row's commit landed; False: the outbox refused it; None: still running."""
    try:
        await within(row, left(), cancel=False)
    except TimeoutError:
        return None
    except OutboxUnavailable:
        return False
    return True


async def _settle_when_committed(
    outbox: Outbox, row: asyncio.Future[bool], key: str, error: BaseException | None
) -> None:
    """Delivered (error None) or failed: record it on the row once its write is known."""
    try:
        held = await row
    except OutboxUnavailable:
        return  # no row: nothing to settle
    if not held:
        return  # another sender holds it, or it is parked: theirs to settle
    try:
        if error is None:
            await outbox.mark_done(key)
        else:
            await outbox.settle(key, error)
    except OutboxUnavailable as failure:
        # Delivered (or failed) already; a later replay is deduplicated by its key.
        log.error("outbox could not record the outcome of %s: %s", key, failure)


async def _bounded(step: Awaitable[None], timeout_s: float) -> None:
    """Run `step` within `timeout_s`; past it, it goes on in the background."""
    task = asyncio.ensure_future(step)
    _keep(task)
    try:
        await within(task, timeout_s, cancel=False)
    except TimeoutError:
        log.warning("outbox settle left to finish in the background (write budget spent)")
