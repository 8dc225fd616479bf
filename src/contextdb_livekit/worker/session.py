"""A call's LiveKit session: the job process's prewarm, and the OpenAI plugins and turn
options it starts with (what the composition root, agent.py, hands LiveKit).

The plugins are imported where they are built, not at import: the drain imports `hosting`
and needs no model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from livekit.agents import NOT_GIVEN, AgentSession, JobProcess, NotGivenOr, TurnHandlingOptions

from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.secrets import install_log_redaction
from contextdb_livekit.worker.log_policy import install_caller_data_filter
from contextdb_livekit.worker.preload import openai_client, warm_process
from contextdb_livekit.worker.settings import WorkerSettings

if TYPE_CHECKING:
    from livekit.plugins import openai


def prewarm(proc: JobProcess) -> None:
    """`AgentServer(setup_fnc=...)`: what a job process sets up before its call."""
    install_log_redaction()  # the job process's log forwarder is a root handler by now
    install_caller_data_filter()  # LiveKit's lk.pii fields, on that forwarder too
    from livekit.plugins import silero

    proc.userdata["vad"] = silero.VAD.load()
    warm_process()  # per-process set-up that would otherwise run at call start
    proc.userdata["plugins"] = pipeline_plugins(WorkerSettings())


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
    from livekit.plugins import openai

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
    """The call's session, on the plugins its process's prewarm built (or built now)."""
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
