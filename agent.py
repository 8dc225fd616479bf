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

from dotenv import load_dotenv
from livekit.agents import (
    AgentServer,
    AgentSession,
    JobContext,
    JobProcess,
    TurnHandlingOptions,
    cli,
    room_io,
)
from livekit.plugins import openai, silero

from calendar_client import CalendarSettings, build_calendar
from identity import IdentityError, SqliteCustomerDirectory, authenticate_room_participant
from memory.factory import open_memory_backend_or_unavailable
from memory.outbox import Outbox
from memory.settings import MemorySettings
from tools.attestations import AttestationStore
from tools.authorization import AssurancePolicy
from worker.call import CallServices, CallSession
from worker.metrics import attach_call_metrics
from worker.settings import WorkerSettings
from worker.startup import run_startup_check

# Environment variables win over both files; .env.local wins over .env.
load_dotenv(".env.local")
load_dotenv(".env")

log = logging.getLogger("agent")

# The supervisor kills a job process this long after shutdown starts; the end-of-call
# write budget (MEMORY_SHUTDOWN_WRITE_BUDGET_MS) stays well inside it.
SHUTDOWN_PROCESS_TIMEOUT_S = 10.0
GREETING = "Greet the caller in one short sentence and ask how you can help."


def prewarm(proc: JobProcess) -> None:
    proc.userdata["vad"] = silero.VAD.load()


def build_server(settings: WorkerSettings) -> AgentServer:
    tuning: dict[str, int] = {}
    if settings.num_idle_processes is not None:
        tuning["num_idle_processes"] = settings.num_idle_processes
    if settings.http_port is not None:
        tuning["port"] = settings.http_port
    return AgentServer(
        setup_fnc=prewarm, shutdown_process_timeout=SHUTDOWN_PROCESS_TIMEOUT_S, **tuning
    )


STARTUP_SETTINGS = WorkerSettings()
server = build_server(STARTUP_SETTINGS)


def build_session(settings: WorkerSettings, proc: JobProcess) -> AgentSession:
    openai_kwargs = {"base_url": settings.openai_base_url} if settings.openai_base_url else {}
    if settings.use_realtime_model:
        return AgentSession(
            llm=openai.realtime.RealtimeModel(model=settings.realtime_model, **openai_kwargs),
            vad=proc.userdata["vad"],
        )
    return AgentSession(
        stt=openai.STT(model=settings.stt_model, **openai_kwargs),
        llm=openai.LLM(model=settings.llm_model, **openai_kwargs),
        tts=openai.TTS(model=settings.tts_model, voice=settings.tts_voice, **openai_kwargs),
        vad=proc.userdata["vad"],
        **turn_handling(settings.turn_detection),
    )


def turn_handling(mode: str) -> dict[str, TurnHandlingOptions]:
    """Chosen explicitly: left to itself, livekit-agents 1.8 picks its LiveKit Cloud turn
    detector and adaptive interruption, which a self-hosted server turns off per call (with
    warnings). "vad" and "stt" also interrupt on the caller's voice (Silero VAD)."""
    if mode == "auto":
        return {}
    return {
        "turn_handling": TurnHandlingOptions(
            turn_detection="vad" if mode == "vad" else "stt", interruption={"mode": "vad"}
        )
    }


@server.rtc_session(agent_name=STARTUP_SETTINGS.agent_name)
async def entrypoint(ctx: JobContext) -> None:
    settings = WorkerSettings()
    memory_settings = MemorySettings()
    calendar_settings = CalendarSettings()
    # Opening the memory backend overlaps with joining the room.
    backend_task = asyncio.create_task(open_memory_backend_or_unavailable(memory_settings))
    await ctx.connect()
    participant = await asyncio.wait_for(
        ctx.wait_for_participant(), timeout=settings.participant_wait_s
    )
    identity, auth_error = None, None
    try:
        identity = await authenticate_room_participant(
            participant,
            room_name=ctx.room.name,
            identity_secret=settings.identity_signing_secret.get_secret_value()
            if settings.identity_signing_secret
            else "",
            directory=SqliteCustomerDirectory(settings.customer_directory_path),
        )
    except IdentityError as exc:
        auth_error = exc
        log.warning("caller not authenticated: %s", exc.reason)
    ctx.log_context_fields = {
        "room": ctx.room.name,
        "caller": identity.log_id if identity else "unverified",
    }

    calendar = build_calendar(calendar_settings)
    services = CallServices(
        backend=await backend_task,
        outbox=Outbox(memory_settings.outbox_path),
        calendar=calendar,
        attestations=AttestationStore(settings.attestation_path),
        policy=AssurancePolicy(caller_id_may_book=settings.sip_caller_id_may_book),
        memory_settings=memory_settings,
        timezone=calendar_settings.caller_timezone,
    )
    call = CallSession(services, identity=identity, auth_error=auth_error, call_id=ctx.job.id)
    call.start_prefetch()  # runs while the session and its plugins start up

    session = build_session(settings, ctx.proc)
    attach_call_metrics(session, log_fields=ctx.log_context_fields)
    agent = call.build_agent(None)
    stop_flusher = asyncio.Event()
    flusher_task = asyncio.create_task(call.flusher().run(stop_flusher))

    async def end_of_call() -> None:
        try:
            await call.finish(session.history)
        finally:
            stop_flusher.set()
            with contextlib.suppress(Exception):
                await flusher_task
            await calendar.aclose()
            await services.backend.close()

    ctx.add_shutdown_callback(end_of_call)
    # The caller hanging up ends the job now, not when the room empties: the end-of-call
    # write should not wait on the room's departure timeout.
    session.on("close", lambda _: ctx.shutdown(reason="session closed"))
    await session.start(
        agent,
        room=ctx.room,
        room_options=room_io.RoomOptions(participant_identity=participant.identity),
    )
    # Bounded by MEMORY_PREFETCH_BUDGET_MS: late memory never stalls the greeting.
    await call.apply_snapshot(agent)
    session.generate_reply(instructions=GREETING)


if __name__ == "__main__":
    run_startup_check(sys.argv)
    cli.run_app(server)
