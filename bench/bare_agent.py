"""The baseline for `python -m bench.voice`: a bare LiveKit agent with the worker's plugins
(Silero VAD, VAD turn detection, the OpenAI STT/LLM/TTS plugins) and nothing else — no
memory, no tools, no host state. `python bench/bare_agent.py dev` with the worker's
LIVEKIT_*, OPENAI_BASE_URL and AGENT_NAME settings."""

import os

from livekit.agents import (
    Agent,
    AgentServer,
    AgentSession,
    JobContext,
    JobProcess,
    TurnHandlingOptions,
    cli,
)
from livekit.plugins import openai, silero

GREETING = "Greet the caller in one short sentence and ask how you can help."


def prewarm(proc: JobProcess) -> None:
    proc.userdata["vad"] = silero.VAD.load()


# Warm job processes as the worker is told (WORKER_NUM_IDLE_PROCESSES), so both wait alike.
idle = {"num_idle_processes": int(n)} if (n := os.environ.get("WORKER_NUM_IDLE_PROCESSES")) else {}
# Load counted in calls as the worker is told (WORKER_MAX_CALLS), so both are dispatched alike.
if m := os.environ.get("WORKER_MAX_CALLS"):
    max_calls = int(m)
    idle.update(
        load_fnc=lambda s: min(len(s.active_jobs) / max_calls, 1.0),  # type: ignore[dict-item]
        load_threshold=1.0,
    )
server = AgentServer(setup_fnc=prewarm, shutdown_process_timeout=10.0, **idle)


@server.rtc_session(agent_name=os.environ.get("AGENT_NAME", "bare-agent"))
async def entrypoint(ctx: JobContext) -> None:
    base = {"base_url": os.environ["OPENAI_BASE_URL"]} if os.environ.get("OPENAI_BASE_URL") else {}
    session = AgentSession(
        stt=openai.STT(model="gpt-4o-mini-transcribe", **base),
        llm=openai.LLM(model="gpt-4.1-mini", **base),
        tts=openai.TTS(model="gpt-4o-mini-tts", voice="ash", **base),
        vad=ctx.proc.userdata["vad"],
        turn_handling=TurnHandlingOptions(turn_detection="vad", interruption={"mode": "vad"}),
    )
    await ctx.connect()
    await session.start(Agent(instructions="You answer a service line."), room=ctx.room)
    session.generate_reply(instructions=GREETING)


if __name__ == "__main__":
    cli.run_app(server)
