"""What one call needs from memory, bound to one authenticated caller.

`CallerMemory` is created per job after authentication; every method is scoped to that
caller's partition, so nothing the model says can point it at someone else's memory.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass

from memory.backend import MemoryBackend
from memory.errors import MemoryLayerError, MemoryUnavailable
from memory.gate import ActionGate
from memory.models import FactToRemember, Memory, MemorySnapshot
from memory.outbox import Outbox

log = logging.getLogger("memory.service")

SNAPSHOT_QUERY = "caller profile, preferences, equipment, past visits and open requests"


class ConfirmationRefused(Exception):
    """The memory id was not offered for confirmation to this caller in this call."""


async def recall_within(
    backend: MemoryBackend, user_id: str, query: str, *, budget_ms: int, top_k: int = 8
) -> MemorySnapshot:
    """Recall under a time budget. Never raises: a miss is an empty snapshot with a reason."""
    started = time.perf_counter()
    try:
        result = await asyncio.wait_for(
            backend.recall(user_id, query, top_k=top_k), timeout=budget_ms / 1000
        )
    except TimeoutError:
        return MemorySnapshot.unavailable(f"timed out after {budget_ms} ms", _ms(started))
    except MemoryLayerError as exc:
        return MemorySnapshot.unavailable(f"{exc.code}: {exc}", _ms(started))
    except Exception as exc:  # a snapshot is optional; the call must go on
        log.exception("recall failed")
        return MemorySnapshot.unavailable(f"unexpected error: {type(exc).__name__}", _ms(started))
    return MemorySnapshot(
        context=result.context, memories=list(result.memories), elapsed_ms=_ms(started)
    )


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


@dataclass(frozen=True)
class WriteOutcome:
    written: int
    queued: int


class CallerMemory:
    def __init__(
        self,
        backend: MemoryBackend,
        outbox: Outbox,
        user_id: str,
        *,
        turn_recall_budget_ms: int = 120,
        gate_timeout_s: float = 1.5,
    ) -> None:
        self.backend = backend
        self.outbox = outbox
        self.user_id = user_id
        self.gate = ActionGate(
            backend, outbox, evaluate_timeout_s=gate_timeout_s, report_timeout_s=gate_timeout_s
        )
        self._turn_recall_budget_ms = turn_recall_budget_ms
        # Memory ids the most recent `ask` offered this caller; nothing else is confirmable.
        self._offered_for_confirmation: frozenset[str] = frozenset()

    def prefetch_snapshot(self, budget_ms: int) -> asyncio.Task[MemorySnapshot]:
        """Start the call-start recall now; await the task later. It never raises."""
        return asyncio.create_task(
            recall_within(self.backend, self.user_id, SNAPSHOT_QUERY, budget_ms=budget_ms),
            name="memory-snapshot-prefetch",
        )

    async def recall_for_turn(self, query: str) -> MemorySnapshot:
        return await recall_within(
            self.backend, self.user_id, query, budget_ms=self._turn_recall_budget_ms, top_k=5
        )

    def offer_for_confirmation(self, memory_ids: list[str]) -> None:
        """Called with the pending ids of the last `ask`; replaces any earlier offer."""
        self._offered_for_confirmation = frozenset(memory_ids)

    @property
    def offered_for_confirmation(self) -> frozenset[str]:
        return self._offered_for_confirmation

    async def confirm(self, memory_id: str, *, attestation_id: str) -> Memory:
        if memory_id not in self._offered_for_confirmation:
            raise ConfirmationRefused(memory_id)
        memory = await self.backend.confirm(
            self.user_id, memory_id, idempotency_key=f"confirm:{attestation_id}"
        )
        self._offered_for_confirmation = self._offered_for_confirmation - {memory_id}
        return memory

    async def remember(
        self, facts: list[FactToRemember], *, idempotency_key: str, timeout_s: float
    ) -> WriteOutcome:
        """Write now if the backend answers in time; otherwise keep the facts in the outbox."""
        if not facts:
            return WriteOutcome(0, 0)
        payload = {"facts": [fact.as_item() for fact in facts]}
        # Durable first: a process killed mid-write still has the facts on disk.
        await self.outbox.put(idempotency_key, "remember_many", self.user_id, payload)
        try:
            await asyncio.wait_for(
                self.backend.remember_many(self.user_id, facts, idempotency_key=idempotency_key),
                timeout=timeout_s,
            )
        except (MemoryUnavailable, TimeoutError) as exc:
            log.warning("fact write queued in outbox: %s", exc or "timeout")
            await self.outbox.settle(idempotency_key, exc)  # release the row to the flusher
            return WriteOutcome(0, len(facts))
        except MemoryLayerError as exc:
            await self.outbox.mark_dead(idempotency_key, f"{exc.code}: {exc}")
            raise
        await self.outbox.mark_done(idempotency_key)
        return WriteOutcome(len(facts), 0)


def call_write_key(user_id: str, call_id: str) -> str:
    """One stable key per call's shutdown write, so a retried write is never stored twice."""
    digest = hashlib.sha256(f"{user_id}|{call_id}".encode()).hexdigest()[:40]
    return f"facts:{digest}"
