"""One call, from the authenticated participant to the end-of-call write.

`Call` is the only way a call is set up — by agent.py, the tests and the playground — so the
tests run the production order: the agent starts without memory, the prefetched snapshot
lands in its instructions within its budget, the greeting follows.

    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=job_id)
    session = AgentSession[CallContext](userdata=call.context, llm=..., ...)
    await call.start(session, room=...)  # in a room: worker.room_surface.start_in_room
    ...
    await call.finish(session.history)          # from the job's shutdown callback
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from livekit.agents import AgentSession, ConversationItemAddedEvent, llm

from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.identity import CallerIdentity, IdentityError
from contextdb_livekit.kit.caller_memory import CallerMemory, WriteOutcome, call_write_key, redacted
from contextdb_livekit.kit.caller_turns import DEFAULT_TRANSCRIPT_WAIT_S, CallerTurns
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.kit.gate import within
from contextdb_livekit.kit.keep_nothing import KeepNothing, drop_call_rows, keep_nothing
from contextdb_livekit.kit.review import settle_review
from contextdb_livekit.memory.caller_text import history_turns
from contextdb_livekit.memory.errors import OutboxUnavailable
from contextdb_livekit.memory.models import FactToRemember, MemorySnapshot
from contextdb_livekit.memory.snapshot import disclosed_to_unverified
from contextdb_livekit.stores.erasures import ErasuresUnavailable
from contextdb_livekit.stores.outbox import PARKED_STATES
from contextdb_livekit.worker.agent import MemoryAgent
from contextdb_livekit.worker.profile import LineProfile

log = logging.getLogger("contextdb_livekit.worker.call")
# The part of the end-of-call write budget spent waiting for the last checkpoint's row.
CHECKPOINT_SHARE = 0.25
# How long the call-start recall may run while the job connects and starts its session. The
# greeting's wait is bounded apart (`snapshot_for_greeting`); this only ends a recall nobody
# can use any more.
SESSION_START_ALLOWANCE_MS = 10_000


class Call:
    def __init__(
        self,
        context: CallContext,
        profile: LineProfile,
        agent: MemoryAgent,
        auth_error: IdentityError | None,
    ) -> None:
        self.context = context
        self.profile = profile
        self.agent = agent
        self.auth_error = auth_error
        self._snapshot_task: asyncio.Task[MemorySnapshot] | None = None
        # A ringing phone line: the snapshot is applied whenever it lands in ring time, and
        # the greeting waits for it until the answer plus the budget (`snapshot_for_greeting`).
        self._ringing = False
        self._apply_task: asyncio.Task[MemorySnapshot | None] | None = None
        # How long the greeting waited for the snapshot (the call set-up log line).
        self.greeting_waited_ms = 0.0
        # Facts so far, kept in the outbox while the call runs (see `checkpoint`).
        self._checkpoints = 0
        self._checkpoint_key: str | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._checkpoint_pending = False
        self._forget_task: asyncio.Task[None] | None = None
        # When the call began: an erasure of its caller after this means keep nothing more.
        self._started_at = time.time()

    @classmethod
    def open(
        cls,
        host: HostServices,
        profile: LineProfile,
        *,
        identity: CallerIdentity | None,
        auth_error: IdentityError | None,
        call_id: str,
        realtime: bool = False,
        transcript_wait_s: float = DEFAULT_TRANSCRIPT_WAIT_S,
        ring_timeout_s: float | None = None,
    ) -> Call:
        """Build the call's context and agent, and start recalling the snapshot at once
        (it runs while the session and its plugins start). `realtime`: the session's model
        is a realtime model, whose caller transcripts may arrive after it calls a tool; the
        confirmation waits up to `transcript_wait_s` for them. `ring_timeout_s`: the caller's
        phone line is ringing and rings at most this long: the greeting waits for the
        snapshot until the answer plus MEMORY_PREFETCH_BUDGET_MS (`snapshot_for_greeting`)."""
        settings = host.memory_settings
        memory = (
            CallerMemory(
                host.backend,
                host.outbox,
                identity.customer_id,
                # What the model is given from memory follows the caller's assurance.
                facts=profile.facts
                if host.policy.may_hear_sensitive(identity)
                else disclosed_to_unverified(profile.facts),
                snapshot_query=profile.snapshot_query,
                turn_recall_budget_ms=settings.turn_recall_budget_ms,
                gate_timeout_s=settings.gate_budget_ms / 1000,
            )
            if identity is not None
            else None
        )
        context = CallContext(
            call_id=call_id,
            host=host,
            identity=identity,
            memory=memory,
            confirm_tool=profile.confirm_tool,
            caller_turns=CallerTurns(transcript_wait_s) if realtime else None,
        )
        agent = MemoryAgent(
            call=context,
            instructions=profile.instructions(None, verified=identity is not None),
            tools=profile.tools(identity, host, realtime=realtime),
        )
        call = cls(context, profile, agent, auth_error)
        call._ringing = ring_timeout_s is not None
        if memory is not None:
            # The recall runs while the job connects, starts its session and (a phone line)
            # rings; the greeting's own wait for it is the budget after that.
            budget_ms = settings.prefetch_budget_ms + SESSION_START_ALLOWANCE_MS
            if ring_timeout_s is not None:
                budget_ms += int(ring_timeout_s * 1000)
            call._snapshot_task = memory.prefetch_snapshot(budget_ms)
        return call

    async def start(self, session: AgentSession[CallContext], **start_kwargs: Any) -> None:
        """Start the session with the agent, then put the snapshot into its instructions.
        Every caller turn from then on is checkpointed to the outbox."""

        def on_item(event: ConversationItemAddedEvent) -> None:
            item = event.item
            if item.type == "message" and item.role == "user":
                self.checkpoint_soon(session.history)

        session.on("conversation_item_added", on_item)
        session.on("function_tools_executed", lambda _: self._after_tools())
        await session.start(self.agent, **start_kwargs)
        turns = self.context.caller_turns
        if turns is not None and not turns.attach(session):
            # Opened for a realtime model but the session has none: there is nothing to wait
            # for, and the confirmation reads the history as on a pipeline.
            self.context.caller_turns = None
        # The snapshot goes in whenever it lands. A web caller's greeting waits for it at
        # most the budget from now, so a busy host's slow session start is recall time too;
        # a ringing phone line's waits from the answer (`snapshot_for_greeting`).
        self._apply_task = asyncio.create_task(self.apply_snapshot())
        if not self._ringing:
            await self.snapshot_for_greeting()

    async def snapshot_for_greeting(self) -> MemorySnapshot | None:
        """Once the caller can be greeted (a web caller's session started, a phone line
        answered): wait for the snapshot at most MEMORY_PREFETCH_BUDGET_MS more. The recall
        began when the job learned of the caller, so connecting, starting the session and any
        ring were recall time; a snapshot still not in by then is dropped and the greeting
        goes without it."""
        task = self._apply_task
        if task is None:
            return self.context.snapshot
        budget_s = self.context.host.memory_settings.prefetch_budget_ms / 1000
        started = time.monotonic()
        done, _ = await asyncio.wait({task}, timeout=budget_s)
        self.greeting_waited_ms = (time.monotonic() - started) * 1000
        if done:
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self.context.metrics.record_snapshot(hit=False, latency_ms=budget_s * 1000)
        log.info(
            "snapshot for caller %s: late (unavailable: not in %d ms after the caller "
            "could be greeted)",
            self.context.identity.log_id if self.context.identity else "-",
            self.context.host.memory_settings.prefetch_budget_ms,
        )
        return None

    async def apply_snapshot(self) -> MemorySnapshot | None:
        """The prefetched snapshot into the instructions, whenever it lands (the prefetch
        never raises; the greeting's wait for it is `snapshot_for_greeting`'s); an unverified
        caller gets nothing recalled."""
        if self._snapshot_task is None:
            return None
        snapshot = await self._snapshot_task
        if self.context.identity is None:
            return None  # revoked while recalling (room_guard): nothing recalled is shown
        self.context.snapshot = snapshot
        self.context.metrics.record_snapshot(hit=snapshot.available, latency_ms=snapshot.elapsed_ms)
        identity = self.context.identity
        log.info(
            "snapshot for caller %s: %d memories in %.1f ms%s",
            identity.log_id if identity else "-",
            len(snapshot.memories),
            snapshot.elapsed_ms,
            "" if snapshot.available else f" (unavailable: {snapshot.reason})",
        )
        await self.agent.update_instructions(self.profile.instructions(snapshot, verified=True))
        return snapshot

    def flusher(self) -> OutboxFlusher:
        host = self.context.host
        return OutboxFlusher(
            host.outbox,
            host.backend,
            self.profile.intent_resolvers(host),
        )

    def checkpoint_soon(self, history: llm.ChatContext) -> None:
        """After each caller turn: checkpoint without holding up the conversation. A turn
        that arrives while one is being written is picked up right after it."""
        self._checkpoint_pending = True
        if self._checkpoint_task is None or self._checkpoint_task.done():
            self._checkpoint_task = asyncio.create_task(self._checkpoint_while_pending(history))

    def _background_writes(self) -> list[asyncio.Task[None]]:
        """What writes to the outbox beside the conversation: the checkpoint and a
        keep-nothing drop, if either was started."""
        return [t for t in (self._checkpoint_task, self._forget_task) if t is not None]

    async def writes_settled(self) -> None:
        """Until the background writes have landed."""
        for task in self._background_writes():
            await asyncio.shield(task)

    async def _checkpoint_while_pending(self, history: llm.ChatContext) -> None:
        while self._checkpoint_pending:
            self._checkpoint_pending = False
            await self.checkpoint(history)

    async def checkpoint(self, history: llm.ChatContext) -> None:
        """Keep the facts said so far in the outbox, leased to this call.

        A process killed mid-call (an orchestrator's SIGKILL after its grace period) loses
        at most the last turn: the lease runs out and the drain delivers the checkpoint.
        Each checkpoint has its own key and replaces the previous row; the end-of-call write
        supersedes them all. Facts repeated across checkpoints land once (same slot, same
        value). Rule-based extraction only: cheap enough for every turn.
        """
        call = self.context
        if call.memory is None or keep_nothing(call) is not None:
            return  # the caller asked to be forgotten: nothing more is kept (kit.keep_nothing)
        if await self._erased_meanwhile():
            return
        facts = self._with_records(self.profile.facts_so_far(call, history_turns(history)))
        if not facts:
            return
        self._checkpoints += 1
        base = call_write_key(call.memory.user_id, call.call_id)
        key = f"{base}:checkpoint:{self._checkpoints}"
        payload = {"facts": [f.as_item() for f in redacted(facts)]}
        try:
            await call.host.outbox.put(key, "remember_many", call.memory.user_id, payload)
            if self._checkpoint_key is not None:
                await call.host.outbox.mark_done(self._checkpoint_key)
        except OutboxUnavailable as exc:
            log.warning("checkpoint not kept: %s", exc)
            return
        if keep_nothing(call) is not None:
            # The caller asked to keep nothing while this checkpoint was being written.
            with contextlib.suppress(OutboxUnavailable):
                await call.host.outbox.mark_done(key)
            return
        self._checkpoint_key = key

    def _with_records(self, facts: list[FactToRemember]) -> list[FactToRemember]:
        """The call's facts and what its gated actions did (`GatedAction.remember`): the
        host's records come last, and the later record in one slot wins (done, then undone
        in the same call)."""
        by_slot: dict[object, FactToRemember] = {}
        written = (record.to_write() for record in self.context.records)
        for position, fact in enumerate([*facts, *(f for f in written if f is not None)]):
            slot = (fact.entity, fact.attribute) if fact.entity else position
            by_slot.pop(slot, None)
            by_slot[slot] = fact
        return list(by_slot.values())

    async def finish(self, history: llm.ChatContext) -> WriteOutcome:
        """End-of-call write; whatever does not land now stays in the outbox.

        MEMORY_SHUTDOWN_WRITE_BUDGET_MS bounds the write as a whole, not only its send:
        waiting for the last checkpoint (at most a quarter of it), the write itself (outbox
        row, send, settle: `kit.bounded_write`) and the bookkeeping after. A step still
        running at the bound goes on in the background, never waited for: LiveKit kills the
        job 10 s into its shutdown. (The review's answer and the extraction before it have
        their own bounds.)
        """
        call = self.context
        if call.memory is None:
            return WriteOutcome(0, 0)
        if (forget := keep_nothing(call)) is not None:
            return await self._keep_nothing(forget)
        if await self._erased_meanwhile():
            # Erased while this call ran (caller_data erase): nothing the call said is kept.
            return await self._keep_nothing(KeepNothing("this_call"))
        # The caller's answer to the host's review read-back settles what changes (kit.review).
        await settle_review(call, history)
        facts = await self.profile.facts_at_end(call, history_turns(history))
        budget_s = call.host.memory_settings.shutdown_write_budget_ms / 1000
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget_s

        def left() -> float:
            return max(0.0, deadline - loop.time())

        if self._checkpoint_task is not None:
            # The end-of-call write supersedes it; a checkpoint still writing lands later
            # and is delivered under its own key (its facts land once).
            with contextlib.suppress(Exception):
                await within(self._checkpoint_task, budget_s * CHECKPOINT_SHARE, cancel=False)
        outcome = await call.memory.remember(
            self._with_records(facts),
            idempotency_key=call_write_key(call.memory.user_id, call.call_id),
            timeout_s=left(),
        )
        with contextlib.suppress(OutboxUnavailable, TimeoutError):
            rows = await within(call.host.outbox.items(), left(), cancel=False)
            parked = sum(1 for row in rows if row.state in PARKED_STATES)
            call.metrics.record_outbox(depth=len(rows), parked=parked)
        if self._checkpoint_key is not None and (outcome.written or outcome.queued):
            # The end-of-call write is delivered or durable: the checkpoint is superseded.
            with contextlib.suppress(OutboxUnavailable, TimeoutError):
                await within(call.host.outbox.mark_done(self._checkpoint_key), left(), cancel=False)
        log.info(
            "end-of-call write for caller %s: %d written, %d queued%s",
            call.identity.log_id if call.identity else "-",
            outcome.written,
            outcome.queued,
            f", {outcome.unconfirmed} not yet durable" if outcome.unconfirmed else "",
        )
        return outcome

    async def _keep_nothing(self, forget: KeepNothing) -> WriteOutcome:
        """The caller asked to be forgotten: no end-of-call write, this call's queued rows
        dropped, then the request's own follow-up (an erasure run again), all within the
        end-of-call write budget."""
        call = self.context
        assert call.memory is not None
        for task in self._background_writes():
            with contextlib.suppress(Exception):
                await task
        budget_s = call.host.memory_settings.shutdown_write_budget_ms / 1000
        try:
            await asyncio.wait_for(self._forget_now(forget, call.memory.user_id), budget_s)
        except Exception as exc:  # the erasure is resumable: the operator's rerun finishes it
            log.error("keep-nothing after the call did not finish: %s", type(exc).__name__)
        return WriteOutcome(0, 0)

    async def _forget_now(self, forget: KeepNothing, user_id: str) -> None:
        with contextlib.suppress(OutboxUnavailable):
            await drop_call_rows(self.context.host.outbox, user_id, self.context.call_id)
        await forget.after_call()

    def _after_tools(self) -> None:
        """Once the caller asked to keep nothing (kit.keep_nothing): a checkpoint that raced
        the request is dropped, and after "everything" the rest of the call no longer shows
        the model what was recalled at its start."""
        forget = keep_nothing(self.context)
        if forget is None or self.context.memory is None:
            return
        self._forget_task = asyncio.create_task(self._drop_after_tools(forget))

    async def _drop_after_tools(self, forget: KeepNothing) -> None:
        call = self.context
        assert call.memory is not None
        # The instructions first: on a pipeline this finishes before the model's next reply.
        if forget.scope == "everything" and call.snapshot is not None:
            call.snapshot = None
            instructions = self.profile.instructions(None, verified=call.identity is not None)
            await self.agent.update_instructions(instructions)
        with contextlib.suppress(OutboxUnavailable):
            await drop_call_rows(call.host.outbox, call.memory.user_id, call.call_id)

    async def _erased_meanwhile(self) -> bool:
        """Whether this call's caller was erased after the call began (stores.erasures)."""
        journal, memory = self.context.host.erasures, self.context.memory
        if journal is None or memory is None:
            return False
        try:
            return await journal.erased_since(memory.user_id, self._started_at)
        except ErasuresUnavailable as exc:
            log.warning("erasure journal unreadable; writing as usual: %s", exc)
            return False
