"""Everything a job process runs, imported once in LiveKit's forkserver.

LiveKit forks each job process from its forkserver, which imports only the plugins unless
told more (`AgentServer(preload_modules=...)`). A job process then imports agent.py again,
and with it the whole project: 0.4-0.7 s of CPU per process at start-up (bare LiveKit:
0.05 s), paid while the previous call's replacement is warming, and on a busy host enough to
miss LiveKit's 10 s `initialize_timeout`. Imported here, once, the modules are shared with
every job process (copy-on-write) and agent.py's imports in the job are dictionary look-ups.

The libraries the call path would otherwise import on first use are here too (httpx's
connection pool and its anyio backend, pulled in by the first request to the engine).

    AgentServer(preload_modules=PRELOAD_MODULES, ...)          # agent.py
"""

from __future__ import annotations

# Imported in this order by the forkserver (a module it cannot import is skipped there).
PRELOAD_MODULES = [
    # httpx's first request to the engine imports its connection pool and anyio backend.
    "httpx",
    "httpcore",
    "h11",
    "anyio._backends._asyncio",
    # The OpenAI client loads its resources on first use (the LLM plugin's warm-up request).
    "openai.resources.models",
    "openai.resources.chat",
    "openai.resources.audio",
    "memory.secrets",
    "memory.engine_client",
    "memory.factory",
    "memory.llm_extract",
    "tools",
    "worker.log_policy",
    "worker.startup",
    "worker.metrics",
    "worker.job",
    "worker.call",
    "worker.room_guard",
    "worker.room_surface",
    "worker.ring",
    "worker.preload",
]


def warm_process() -> None:
    """Per-process work done in prewarm rather than at call start: the engine's version
    fingerprint (reads and hashes its sources, looks up the installed package version)."""
    from memory.engine_client import engine_version
    from memory.settings import MemorySettings

    settings = MemorySettings()
    if settings.enabled and settings.backend_name == "local":
        engine_version(settings.embedding_model)
