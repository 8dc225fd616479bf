"""One call, from the authenticated participant to the end-of-call write.

`Call` is the only way a call is set up — by agent.py, the tests and the playground — so the
tests run the production order: the agent starts without memory, the prefetched snapshot
lands in its instructions within its budget, the greeting follows.

    call = Call.open(host, identity=identity, auth_error=None, call_id=job_id)
    session = AgentSession[CallContext](userdata=call.context, llm=..., ...)
    await call.start(session, room=..., room_options=...)
    ...
    await call.finish(session.history)          # from the job's shutdown callback
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from livekit.agents import AgentSession, llm

from identity import CallerIdentity, IdentityError
from memory.extract import CallOutcome, Turn
from memory.models import MemorySnapshot
from memory.outbox import OutboxFlusher
from memory.service import CallerMemory, WriteOutcome, call_write_key
from tools import GATED_ACTIONS, CallContext, HostServices, build_call_tools
from tools.actions import intent_resolvers
from worker.scheduling_agent import SchedulingAgent, build_instructions

log = logging.getLogger("worker.call")


class Call:
    def __init__(
        self,
        context: CallContext,
        agent: SchedulingAgent,
        auth_error: IdentityError | None,
    ) -> None:
        self.context = context
        self.agent = agent
        self.auth_error = auth_error
        self._snapshot_task: asyncio.Task[MemorySnapshot] | None = None

    @classmethod
    def open(
        cls,
        host: HostServices,
        *,
        identity: CallerIdentity | None,
        auth_error: IdentityError | None,
        call_id: str,
        realtime: bool = False,
        **agent_kwargs: Any,
    ) -> Call:
        """Build the call's context and agent, and start recalling the snapshot at once
        (it runs while the session and its plugins start)."""
        settings = host.memory_settings
        memory = (
            CallerMemory(
                host.backend,  # type: ignore[arg-type]
                host.outbox,
                identity.customer_id,
                turn_recall_budget_ms=settings.turn_recall_budget_ms,
                gate_timeout_s=settings.gate_budget_ms / 1000,
            )
            if identity is not None
            else None
        )
        context = CallContext(call_id=call_id, host=host, identity=identity, memory=memory)
        agent = SchedulingAgent(
            call=context,
            instructions=build_instructions(None, verified=identity is not None),
            tools=build_call_tools(identity, realtime=realtime),
            **agent_kwargs,
        )
        call = cls(context, agent, auth_error)
        if memory is not None:
            call._snapshot_task = memory.prefetch_snapshot(settings.prefetch_budget_ms)
        return call

    async def start(self, session: AgentSession[CallContext], **start_kwargs: Any) -> None:
        """Start the session with the agent, then put the snapshot into its instructions."""
        await session.start(self.agent, **start_kwargs)
        await self.apply_snapshot()

    async def apply_snapshot(self) -> MemorySnapshot | None:
        """Bounded by MEMORY_PREFETCH_BUDGET_MS (the prefetch never raises): late memory
        never stalls the greeting; an unverified caller gets nothing recalled."""
        if self._snapshot_task is None:
            return None
        snapshot = await self._snapshot_task
        self.context.snapshot = snapshot
        identity = self.context.identity
        log.info(
            "snapshot for caller %s: %d memories in %.1f ms%s",
            identity.log_id if identity else "-",
            len(snapshot.memories),
            snapshot.elapsed_ms,
            "" if snapshot.available else f" (unavailable: {snapshot.reason})",
        )
        await self.agent.update_instructions(build_instructions(snapshot, verified=True))
        return snapshot

    def flusher(self) -> OutboxFlusher:
        host = self.context.host
        return OutboxFlusher(
            host.outbox,
            host.backend,  # type: ignore[arg-type]
            intent_resolvers(GATED_ACTIONS, host.calendar),
        )

    async def finish(self, history: llm.ChatContext) -> WriteOutcome:
        """End-of-call write, bounded in time; whatever does not land now stays in the outbox."""
        call = self.context
        if call.memory is None:
            return WriteOutcome(0, 0)
        turns = [
            Turn(item.role, item.text_content or "")
            for item in history.items
            if item.type == "message" and item.role in ("user", "assistant")
        ]
        facts = await call.host.extract(
            turns,
            list(call.notes),
            CallOutcome(
                booked=tuple((e.day, e.reference) for e in call.booked),
                cancelled=tuple((e.day, e.reference) for e in call.cancelled),
            ),
            today=call.today(),
            call_id=call.call_id,
        )
        budget_s = call.host.memory_settings.shutdown_write_budget_ms / 1000
        outcome = await call.memory.remember(
            [fact.to_write() for fact in facts],
            idempotency_key=call_write_key(call.memory.user_id, call.call_id),
            timeout_s=budget_s,
        )
        log.info(
            "end-of-call write for caller %s: %d written, %d queued",
            call.identity.log_id if call.identity else "-",
            outcome.written,
            outcome.queued,
        )
        return outcome
