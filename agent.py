"""LiveKit worker for the service-visit scheduling line, with ContextDB customer memory.

    python agent.py dev      # against a LiveKit server, reloads on change
    python agent.py start    # production (the container's command)

This file is wiring only; each concern lives in its own package (see README.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from dataclasses import dataclass
from typing import Any

from dotenv import load_dotenv
from livekit import rtc
from livekit.agents import (
    NOT_GIVEN,
    AgentServer,
    AgentSession,
    JobContext,
    JobProcess,
    NotGivenOr,
    TurnHandlingOptions,
    cli,
)
from livekit.plugins import openai, silero

from contextdb_livekit.api import CallContext, CallerIdentity, IdentityError
from contextdb_livekit.hosting import (
    Call,
    CallerGuard,
    RingOutcome,
    WorkerSettings,
    attach_call_metrics,
    authenticate_caller,
    close_host_services,
    identify_caller,
    install_caller_data_filter,
    install_log_redaction,
    is_ringing,
    open_host_services,
    openai_client,
    preload_modules,
    prepare_worker,
    start_in_room,
    wait_for_caller,
    wait_until_answered,
    warm_process,
)
from line import LINE

# The line's profile module: the forkserver imports it with the worker's own modules.
LINE_MODULE = "line"

# Environment variables win over both files; .env.local wins over .env.
load_dotenv(".env.local")
load_dotenv(".env")

log = logging.getLogger("agent")
# Every log record this process makes is redacted of secrets, at every level (memory.secrets).
install_log_redaction()

# The supervisor kills a job process this long after shutdown starts; the end-of-call
# write budget (MEMORY_SHUTDOWN_WRITE_BUDGET_MS) stays well inside it.
SHUTDOWN_PROCESS_TIMEOUT_S = 10.0
GREETING = "Greet the caller in one short sentence and ask how you can help."
# The outbox flusher's last pass may not hold the shutdown past this.
FLUSHER_STOP_S = 2.0


def prewarm(proc: JobProcess) -> None:
    install_log_redaction()  # the job process's log forwarder is a root handler by now
    install_caller_data_filter()  # LiveKit's lk.pii fields, on that forwarder too
    proc.userdata["vad"] = silero.VAD.load()
    warm_process()  # per-process set-up that would otherwise run at call start
    proc.userdata["plugins"] = pipeline_plugins(WorkerSettings())


def build_server(settings: WorkerSettings) -> AgentServer:
    tuning: dict[str, Any] = {}
    if settings.num_idle_processes is not None:
        tuning["num_idle_processes"] = settings.num_idle_processes
    if settings.http_port is not None:
        tuning["port"] = settings.http_port
    if settings.prometheus_port is not None:
        tuning["prometheus_port"] = settings.prometheus_port
        tuning["prometheus_multiproc_dir"] = str(settings.metrics_dir)
    return AgentServer(
        setup_fnc=prewarm,
        shutdown_process_timeout=SHUTDOWN_PROCESS_TIMEOUT_S,
        # The project is imported once in the forkserver, not in every job process.
        preload_modules=preload_modules(LINE_MODULE),
        **tuning,
    )


# Every entry point (agent.py dev|start|console, python -m livekit.agents start agent.py, the
# container) builds the settings here: file modes, log policy, then the startup check — bad
# settings get one line each, exit 2 — before any settings object is used (worker.startup).
STARTUP_SETTINGS = prepare_worker(sys.argv, LINE)
server = build_server(STARTUP_SETTINGS)


@dataclass(frozen=True)
class Plugins:
    """The call's OpenAI plugins; a realtime model hears the caller itself (no STT)."""

    llm: openai.LLM | openai.realtime.RealtimeModel
    tts: openai.TTS
    stt: openai.STT | None = None


def pipeline_plugins(settings: WorkerSettings) -> Plugins:
    """The call's OpenAI plugins. Built in prewarm (a job process serves one call), on one
    HTTP client whose TLS context the forkserver built (worker.preload): left to themselves
    they open a client and load the CA bundle each, 0.1-0.3 s of a busy host's CPU."""
    base_url: NotGivenOr[str] = settings.openai_base_url or NOT_GIVEN
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    client = openai_client(key, settings.openai_base_url)
    tts = openai.TTS(
        model=settings.tts_model, voice=settings.tts_voice, base_url=base_url, client=client
    )
    if settings.use_realtime_model:
        # The host's read-back is spoken with session.say, never generated: the realtime
        # API has no say(), so host speech goes through the TTS.
        model = openai.realtime.RealtimeModel(model=settings.realtime_model, base_url=base_url)
        return Plugins(llm=model, tts=tts)
    return Plugins(
        stt=openai.STT(model=settings.stt_model, base_url=base_url, client=client),
        llm=openai.LLM(model=settings.llm_model, base_url=base_url, client=client),
        tts=tts,
    )


def build_session(
    settings: WorkerSettings, proc: JobProcess, userdata: CallContext
) -> AgentSession[CallContext]:
    plugins: Plugins = proc.userdata.pop("plugins", None) or pipeline_plugins(settings)
    return AgentSession[CallContext](
        userdata=userdata,
        vad=proc.userdata["vad"],
        stt=plugins.stt or NOT_GIVEN,
        llm=plugins.llm,
        tts=plugins.tts,
        turn_handling=NOT_GIVEN
        if settings.use_realtime_model
        else turn_handling(settings.turn_detection),
    )


def turn_handling(mode: str) -> NotGivenOr[TurnHandlingOptions]:
    """Chosen explicitly: left to itself, livekit-agents 1.8 picks its LiveKit Cloud turn
    detector and adaptive interruption, which a self-hosted server turns off per call (with
    warnings). "vad" and "stt" also interrupt on the caller's voice (Silero VAD)."""
    if mode == "auto":
        return NOT_GIVEN
    return TurnHandlingOptions(
        turn_detection="vad" if mode == "vad" else "stt", interruption={"mode": "vad"}
    )


@server.rtc_session(agent_name=STARTUP_SETTINGS.agent_name)
async def entrypoint(ctx: JobContext) -> None:
    settings = WorkerSettings()
    # Opening the memory backend and host systems overlaps with joining the room.
    host_task = asyncio.create_task(open_host_services(settings, LINE))
    await ctx.connect()
    participant = await wait_for_caller(ctx, settings.participant_wait_s)
    if participant is None:
        await close_host_services(await host_task, LINE)
        ctx.shutdown(reason="caller never joined")
        return
    host = await host_task

    async def authenticate(
        p: rtc.RemoteParticipant,
    ) -> tuple[CallerIdentity | None, IdentityError | None]:
        return await authenticate_caller(p, ctx.room.name, settings, host)

    participant, identity, auth_error = await identify_caller(ctx, participant, authenticate)
    ctx.log_context_fields = {
        "room": ctx.room.name,
        "caller": identity.log_id if identity else "unverified",
    }
    call = Call.open(
        host,
        LINE,
        identity=identity,
        auth_error=auth_error,
        call_id=ctx.job.id,
        realtime=settings.use_realtime_model,
        transcript_wait_s=settings.realtime_transcript_wait_s,
    )
    session = build_session(settings, ctx.proc, call.context)
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
            await close_host_services(host, LINE)

    ctx.add_shutdown_callback(end_of_call)
    # The caller hanging up ends the job now, not when the room empties: the end-of-call
    # write should not wait on the room's departure timeout.
    session.on("close", lambda _: ctx.shutdown(reason="session closed"))
    guard = CallerGuard(
        ctx,
        session,
        participant,
        authenticate,
        revoked_instructions=LINE.instructions(None, verified=False),
    )
    guard.attach()  # anyone but the caller, before or after this, ends the call with nothing
    ringing = is_ringing(participant)
    if ringing:
        # A phone line that rings has nobody on it yet: nothing passes to or from the
        # participant until it is answered (worker.ring).
        guard.hold_until_answered()
    # Session RPC off, typed input and transcripts for the admitted caller only (room_surface).
    transcript = await start_in_room(call, session, ctx.room, guard)
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
        caller_now = ctx.room.remote_participants.get(participant.identity)
        log.info("caller's line answered")
    if ctx.room.isconnected() and guard.admits(caller_now) and guard.revoked_reason is None:
        session.generate_reply(instructions=GREETING)
    elif guard.revoked_reason is not None:
        log.info("no greeting: the call is ending (%s)", guard.revoked_reason)
    elif caller_now is None:
        log.info("caller left before the greeting")
    else:
        # Still in the room, but the room closed or their connection is being re-checked.
        log.info("no greeting: the caller's connection is not admitted")


if __name__ == "__main__":
    cli.run_app(server)
