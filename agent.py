"""LiveKit worker for the service-visit scheduling line, with ContextDB customer memory.

    python agent.py dev      # against a LiveKit server, reloads on change
    python agent.py start    # production (the container's command)

This file is wiring only; each concern lives in its own package (see README.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from dotenv import load_dotenv
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

from contextdb_livekit.api import CallContext
from contextdb_livekit.hosting import (
    WorkerSettings,
    install_caller_data_filter,
    install_log_redaction,
    openai_client,
    preload_modules,
    prepare_worker,
    run_call,
    server_options,
    warm_process,
)
from line import LINE

# The line's profile module: the forkserver imports it with the worker's own modules.
LINE_MODULE = "line"

# Environment variables win over both files; .env.local wins over .env.
load_dotenv(".env.local")
load_dotenv(".env")

# Every log record this process makes is redacted of secrets, at every level (memory.secrets).
install_log_redaction()

# The supervisor kills a job process this long after shutdown starts; the end-of-call
# write budget (MEMORY_SHUTDOWN_WRITE_BUDGET_MS) stays well inside it.
SHUTDOWN_PROCESS_TIMEOUT_S = 10.0
GREETING = "Greet the caller in one short sentence and ask how you can help."


def prewarm(proc: JobProcess) -> None:
    install_log_redaction()  # the job process's log forwarder is a root handler by now
    install_caller_data_filter()  # LiveKit's lk.pii fields, on that forwarder too
    proc.userdata["vad"] = silero.VAD.load()
    warm_process()  # per-process set-up that would otherwise run at call start
    proc.userdata["plugins"] = pipeline_plugins(WorkerSettings())


def build_server(settings: WorkerSettings) -> AgentServer:
    return AgentServer(
        setup_fnc=prewarm,
        shutdown_process_timeout=SHUTDOWN_PROCESS_TIMEOUT_S,
        # The project is imported once in the forkserver, not in every job process.
        preload_modules=preload_modules(LINE_MODULE),
        **server_options(settings),
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
    await run_call(
        ctx,
        LINE,
        settings,
        session_for=lambda userdata: build_session(settings, ctx.proc, userdata),
        greeting=GREETING,
    )


if __name__ == "__main__":
    cli.run_app(server)
