"""LiveKit worker for the service-visit scheduling line, with ContextDB customer memory.

    python agent.py dev      # against a LiveKit server, reloads on change
    python agent.py start    # production (the container's command)

This file is wiring only; each concern lives in its own package (see README.md). The server,
the job process's prewarm and the call's session (Silero VAD, the OpenAI plugins on one HTTP
client, turn handling) are the library's (`contextdb_livekit.worker.server`, `.session`).
"""

from __future__ import annotations

import sys

from dotenv import load_dotenv
from livekit.agents import JobContext, cli

from contextdb_livekit.hosting import (
    WorkerSettings,
    build_server,
    install_log_redaction,
    prepare_worker,
    run_call,
)
from line import LINE

# The line's profile module: the forkserver imports it with the worker's own modules.
LINE_MODULE = "line"

# Environment variables win over both files; .env.local wins over .env.
load_dotenv(".env.local")
load_dotenv(".env")

# Every log record this process makes is redacted of secrets, at every level (memory.secrets).
install_log_redaction()

GREETING = "Greet the caller in one short sentence and ask how you can help."


# Every entry point (agent.py dev|start|console, python -m livekit.agents start agent.py, the
# container) builds the settings here: file modes, log policy, then the startup check — bad
# settings get one line each, exit 2 — before any settings object is used (worker.startup).
STARTUP_SETTINGS = prepare_worker(sys.argv, LINE)
# The job process is prewarmed and the line imported once, in the forkserver (worker.server).
server = build_server(STARTUP_SETTINGS, LINE_MODULE)


@server.rtc_session(agent_name=STARTUP_SETTINGS.agent_name)
async def entrypoint(ctx: JobContext) -> None:
    # The call's session is the worker's (worker.session.build_session).
    await run_call(ctx, LINE, WorkerSettings(), greeting=GREETING)


if __name__ == "__main__":
    cli.run_app(server)
