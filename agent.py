"""LiveKit worker for the service-visit scheduling line, with ContextDB customer memory.

    python agent.py dev      # against a LiveKit server, reloads on change
    python agent.py start    # production (the container's command)

This file is wiring only; each concern lives in its own package (see README.md). The job
process's prewarm and the call's session (Silero VAD, the OpenAI plugins on one HTTP client,
turn handling) are the library's (`contextdb_livekit.worker.session`).
"""

from __future__ import annotations

import sys

from dotenv import load_dotenv
from livekit.agents import AgentServer, JobContext, cli

from contextdb_livekit.hosting import (
    WorkerSettings,
    build_session,
    install_log_redaction,
    preload_modules,
    prepare_worker,
    prewarm,
    run_call,
    server_options,
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
