"""The worker's `AgentServer`, as a line's entry (agent.py) starts it."""

from __future__ import annotations

from livekit.agents import AgentServer

from contextdb_livekit.worker.preload import preload_modules
from contextdb_livekit.worker.server_options import server_options
from contextdb_livekit.worker.session import prewarm
from contextdb_livekit.worker.settings import WorkerSettings

# LiveKit kills a job process this long after its shutdown starts; the end-of-call write
# (MEMORY_SHUTDOWN_WRITE_BUDGET_MS, and the extraction bounded by it) stays well inside it.
SHUTDOWN_PROCESS_TIMEOUT_S = 10.0


def build_server(settings: WorkerSettings, *line_modules: str) -> AgentServer:
    """The worker's server: every job process prewarmed (`prewarm`), the worker's and the
    line's modules (its profile module) imported once in the forkserver, not in every job
    process, and the settings' options (`server_options`)."""
    return AgentServer(
        setup_fnc=prewarm,
        shutdown_process_timeout=SHUTDOWN_PROCESS_TIMEOUT_S,
        preload_modules=preload_modules(*line_modules),
        **server_options(settings),
    )
