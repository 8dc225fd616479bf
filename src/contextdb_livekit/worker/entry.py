"""One call, from the job's start to its end: what agent.py's `@server.rtc_session` runs.

The entry (agent.py) keeps what a line chooses — its greeting and, if not the worker's, its
session — and hands them in; everything else a memory-aware call needs happens here, in this
order: open the host systems while joining the room, wait for and authenticate the caller (from
the room session only), open the call (the snapshot prefetch starts), start the session with every
room surface locked to the caller, hold a ringing phone line until it is answered, greet.
The end-of-call write, the outbox flusher and the host's systems are closed by the job's
shutdown callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from livekit import rtc
from livekit.agents import AgentSession, JobContext

from contextdb_livekit.identity import CallerIdentity, IdentityError
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.worker.call import Call
from contextdb_livekit.worker.job import (
    authenticate_caller,
    close_host_services,
    identify_caller,
    open_host_services,
    wait_for_caller,
)
from contextdb_livekit.worker.metrics import attach_call_metrics
from contextdb_livekit.worker.profile import LineProfile
from contextdb_livekit.worker.ring import RingOutcome, is_ringing, wait_until_answered
from contextdb_livekit.worker.room_guard import CallerGuard, server_connection
from contextdb_livekit.worker.room_surface import start_in_room
from contextdb_livekit.worker.session import build_session
from contextdb_livekit.worker.settings import WorkerSettings

log = logging.getLogger("agent")

# The outbox flusher's last pass may not hold the shutdown past this.
FLUSHER_STOP_S = 2.0

SessionFor = Callable[[CallContext[Any]], AgentSession[CallContext[Any]]]


class SetUpSteps:
    """How long each step of a call's set-up took, for one log line at the greeting: where
    a slow call start went, on the operator's own host."""

    def __init__(self) -> None:
        self._last = time.monotonic()
        self._spans: list[tuple[str, float]] = []

    def done(self, step: str) -> None:
        now = time.monotonic()
        self._spans.append((step, (now - self._last) * 1000))
        self._last = now

    def line(self) -> str:
        return ", ".join(f"{step} {ms:.0f} ms" for step, ms in self._spans)


async def run_call(
    ctx: JobContext,
    line: LineProfile[Any],
    settings: WorkerSettings,
    *,
    greeting: str,
    session_for: SessionFor | None = None,
) -> None:
    """The whole call. `greeting` is the instruction for the first reply; `session_for`
    builds the line's `AgentSession` around the call's context (its userdata), by default
    the worker's (`build_session`, on the plugins the job process's prewarm built)."""
    if session_for is None:
        session_for = partial(build_session, settings, ctx.proc)
    # Opening the memory backend and host systems overlaps with joining the room.
    steps = SetUpSteps()
    host_task = asyncio.create_task(open_host_services(settings, line))
    await ctx.connect()
    steps.done("connect")
    participant = await wait_for_caller(ctx, settings.participant_wait_s)
    steps.done("caller joined")
    if participant is None:
        await close_host_services(await host_task, line)
        ctx.shutdown(reason="caller never joined")
        return
    host = await host_task
    steps.done("host systems")

    async def authenticate(
        p: rtc.RemoteParticipant,
    ) -> tuple[CallerIdentity | None, IdentityError | None]:
        return await authenticate_caller(p, ctx.room.name, settings, host)

    participant, identity, auth_error = await identify_caller(ctx, participant, authenticate)
    steps.done("authenticated")
    ctx.log_context_fields = {
        "room": ctx.room.name,
        "caller": identity.log_id if identity else "unverified",
    }
    ringing = is_ringing(participant)
    call = Call.open(
        host,
        line,
        identity=identity,
        auth_error=auth_error,
        call_id=ctx.job.id,
        realtime=settings.use_realtime_model,
        transcript_wait_s=settings.realtime_transcript_wait_s,
        # A ringing line's snapshot budget runs from now and includes the ring.
        ring_timeout_s=settings.ring_timeout_s if ringing else None,
    )
    session = session_for(call.context)
    attach_call_metrics(session, log_fields=ctx.log_context_fields, memory=call.context.metrics)
    stop_flusher = asyncio.Event()
    flusher_task = asyncio.create_task(call.flusher().run(stop_flusher))

    async def end_of_call() -> None:
        try:
            await call.finish(session.history)
        finally:
            stop_flusher.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(flusher_task, timeout=FLUSHER_STOP_S)
            await close_host_services(host, line)

    ctx.add_shutdown_callback(end_of_call)
    # The caller hanging up ends the job now, not when the room empties: the end-of-call
    # write should not wait on the room's departure timeout.
    session.on("close", lambda _: ctx.shutdown(reason="session closed"))
    guard = CallerGuard(
        ctx,
        session,
        participant,
        authenticate,
        revoked_instructions=line.instructions(None, verified=False),
        server_connection=server_connection(ctx),
    )
    guard.attach()  # anyone but the caller, before or after this, ends the call with nothing
    if ringing:
        # A phone line that rings has nobody on it yet: nothing passes to or from the
        # participant until it is answered (worker.ring).
        guard.hold_until_answered()
    # Session RPC off, typed input and transcripts for the admitted caller only (room_surface).
    transcript = await start_in_room(call, session, ctx.room, guard)
    steps.done("session started")
    if transcript is not None:
        ctx.add_shutdown_callback(transcript.aclose)
    caller_now = ctx.room.remote_participants.get(participant.identity)
    if ringing and caller_now is not None:
        # Everything above (caller resolved, snapshot, session) ran in ring time; only the
        # greeting waits for the answer. A ring that ends any other way (hung up, left, not
        # answered within RING_TIMEOUT_S) ends the job with its memory revoked.
        outcome = await wait_until_answered(ctx.room, caller_now, timeout_s=settings.ring_timeout_s)
        if outcome is not RingOutcome.ANSWERED:
            log.info("caller's line not answered (%s); ending the call", outcome.value)
            await guard.end_unanswered(f"ring_{outcome.value}")
            return
        guard.line_answered()
        steps.done("ring")
        caller_now = ctx.room.remote_participants.get(participant.identity)
        log.info("caller's line answered")
        # The greeting waits for the snapshot at most the budget after the answer.
        await call.snapshot_for_greeting()
        caller_now = ctx.room.remote_participants.get(participant.identity)
    if ctx.room.isconnected() and guard.admits(caller_now) and guard.revoked_reason is None:
        log.info(
            "call set-up: %s (greeting waited %.0f ms for the snapshot)",
            steps.line(),
            call.greeting_waited_ms,
        )
        session.generate_reply(instructions=greeting)
    elif guard.revoked_reason is not None:
        log.info("no greeting: the call is ending (%s)", guard.revoked_reason)
    elif caller_now is None:
        log.info("caller left before the greeting")
    else:
        # Still in the room, but the room closed or their connection is being re-checked.
        log.info("no greeting: the caller's connection is not admitted")
