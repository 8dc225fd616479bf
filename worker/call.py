"""One call, from the authenticated participant to the end-of-call write.

agent.py, the tests and the playground all set calls up through `CallSession`, so the
path the tests exercise is the path production runs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import date

from livekit.agents import llm

from calendar_client import CalendarClient
from identity import CallerIdentity, IdentityError
from memory.backend import MemoryBackend
from memory.distill import Turn, distill_call_facts
from memory.models import MemorySnapshot
from memory.outbox import Outbox, OutboxFlusher
from memory.service import CallerMemory, WriteOutcome, call_write_key
from memory.settings import MemorySettings
from tools import ToolDeps, build_call_tools
from tools.attestations import AttestationStore
from tools.authorization import AssurancePolicy
from worker.scheduling_agent import SchedulingAgent, build_instructions

log = logging.getLogger("worker.call")


@dataclass
class CallServices:
    """Host systems a call uses; built once per job process."""

    backend: MemoryBackend
    outbox: Outbox
    calendar: CalendarClient
    attestations: AttestationStore
    policy: AssurancePolicy
    memory_settings: MemorySettings
    timezone: str = "UTC"


def booking_intent_resolver(calendar: CalendarClient):  # type: ignore[no-untyped-def]
    """After a crash between booking and receipt: ask the calendar what happened."""

    async def resolve(payload: dict) -> dict:  # type: ignore[type-arg]
        day = date.fromisoformat(payload["day"])
        for booking in await calendar.bookings_for(payload["customer_id"]):
            if booking.day == day:
                return {"status": "succeeded", "external_ref": booking.booking_id}
        return {"status": "failed", "error_code": "interrupted_before_booking"}

    return resolve


class CallSession:
    def __init__(
        self,
        services: CallServices,
        *,
        identity: CallerIdentity | None,
        auth_error: IdentityError | None,
        call_id: str,
    ) -> None:
        self.services = services
        self.identity = identity
        self.auth_error = auth_error
        self.call_id = call_id
        settings = services.memory_settings
        self.memory = (
            CallerMemory(
                services.backend,
                services.outbox,
                identity.customer_id,
                turn_recall_budget_ms=settings.turn_recall_budget_ms,
                gate_timeout_s=settings.gate_budget_ms / 1000,
            )
            if identity is not None
            else None
        )
        self.deps = ToolDeps(
            memory=self.memory,
            calendar=services.calendar,
            attestations=services.attestations,
            policy=services.policy,
            timezone=services.timezone,
        )
        self._snapshot_task: asyncio.Task[MemorySnapshot] | None = None
        self._started = time.perf_counter()

    def start_prefetch(self) -> None:
        """Begin recalling the caller's snapshot; nothing is recalled for an unverified caller."""
        if self.memory is not None and self._snapshot_task is None:
            self._snapshot_task = self.memory.prefetch_snapshot(
                self.services.memory_settings.prefetch_budget_ms
            )

    async def snapshot(self) -> MemorySnapshot | None:
        if self._snapshot_task is None:
            return None
        snapshot = await self._snapshot_task
        log.info(
            "snapshot for caller %s: %d memories in %.1f ms%s",
            self.identity.log_id if self.identity else "-",
            len(snapshot.memories),
            snapshot.elapsed_ms,
            "" if snapshot.available else f" (unavailable: {snapshot.reason})",
        )
        return snapshot

    def build_agent(
        self, snapshot: MemorySnapshot | None, **agent_kwargs: object
    ) -> SchedulingAgent:
        agent = SchedulingAgent(
            instructions=build_instructions(snapshot, verified=self.identity is not None),
            tools=build_call_tools(self.identity, self.deps),
            memory=self.memory,
            **agent_kwargs,
        )
        if snapshot is not None:
            agent.note_snapshot(snapshot)
        return agent

    async def apply_snapshot(self, agent: SchedulingAgent) -> MemorySnapshot | None:
        """Put the prefetched snapshot into the running agent's instructions."""
        snapshot = await self.snapshot()
        if snapshot is not None:
            agent.note_snapshot(snapshot)
            await agent.update_instructions(build_instructions(snapshot, verified=True))
        return snapshot

    def flusher(self) -> OutboxFlusher:
        return OutboxFlusher(
            self.services.outbox,
            self.services.backend,
            {"book_visit": booking_intent_resolver(self.services.calendar)},
        )

    async def finish(self, history: llm.ChatContext) -> WriteOutcome:
        """End-of-call write, bounded in time; whatever does not land now stays in the outbox."""
        if self.memory is None:
            return WriteOutcome(0, 0)
        turns = [
            Turn(item.role, item.text_content or "")
            for item in history.items
            if item.type == "message" and item.role in ("user", "assistant")
        ]
        facts = distill_call_facts(turns, self.deps.state.notes, self.deps.state.bookings)
        budget_s = self.services.memory_settings.shutdown_write_budget_ms / 1000
        outcome = await self.memory.remember(
            facts,
            idempotency_key=call_write_key(self.memory.user_id, self.call_id),
            timeout_s=budget_s,
        )
        log.info(
            "end-of-call write for caller %s: %d written, %d queued",
            self.identity.log_id if self.identity else "-",
            outcome.written,
            outcome.queued,
        )
        return outcome
