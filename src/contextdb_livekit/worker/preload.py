"""Everything a job process runs, imported once in LiveKit's forkserver.

LiveKit forks each job process from its forkserver, which imports only the plugins unless
told more (`AgentServer(preload_modules=...)`). A job process then imports agent.py again,
and with it the whole project: 0.4-0.7 s of CPU per process at start-up (bare LiveKit:
0.05 s), paid while the previous call's replacement is warming, and on a busy host enough to
miss LiveKit's 10 s `initialize_timeout`. Imported here, once, the modules are shared with
every job process (copy-on-write) and agent.py's imports in the job are dictionary look-ups.

The libraries the call path would otherwise import on first use are here too (httpx's
connection pool and its anyio backend, pulled in by the first request to the engine).

    build_server(settings, LINE_MODULE)  # agent.py: AgentServer(preload_modules=...)
"""

from __future__ import annotations

import importlib

import httpx2
import openai

from contextdb_livekit.tls import TLS_CONTEXT

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
    "contextdb_livekit.tls",
    "contextdb_livekit.memory.secrets",
    "contextdb_livekit.backends.engine_client",
    "contextdb_livekit.backends.factory",
    "contextdb_livekit.worker.log_policy",
    "contextdb_livekit.worker.startup",
    "contextdb_livekit.worker.metrics",
    "contextdb_livekit.worker.job",
    "contextdb_livekit.worker.call",
    "contextdb_livekit.worker.room_guard",
    "contextdb_livekit.worker.room_surface",
    "contextdb_livekit.worker.ring",
    "contextdb_livekit.worker.preload",
    # The public face agent.py imports (it also names the drain's pieces).
    "contextdb_livekit.hosting",
    # Last: computes in the forkserver what every job would (see its docstring).
    "contextdb_livekit.worker.fork_warm",
]


def preload_modules(*line_modules: str) -> list[str]:
    """What the forkserver imports: the worker's modules and the line's own (its profile
    module, which imports its tools, extraction and business systems)."""
    return [*PRELOAD_MODULES, *line_modules]


def openai_client(api_key: str | None, base_url: str | None) -> openai.AsyncClient:
    """One client for the call's STT, LLM and TTS, with the settings each plugin would give
    its own (no retries, 15 s connect, 5 s read/write/pool, 50 pooled connections)."""
    return openai.AsyncClient(
        max_retries=0,
        api_key=api_key,
        base_url=base_url,
        http_client=httpx2.AsyncClient(
            verify=TLS_CONTEXT,
            timeout=httpx2.Timeout(connect=15.0, read=5.0, write=5.0, pool=5.0),
            follow_redirects=True,
            limits=httpx2.Limits(
                max_connections=50, max_keepalive_connections=50, keepalive_expiry=120
            ),
        ),
    )


def warm_process() -> None:
    """Per-process work done in prewarm rather than at call start: the engine's version
    fingerprint (reads and hashes its sources, looks up the installed package version)."""
    from contextdb_livekit.backends.engine_client import engine_version
    from contextdb_livekit.memory.settings import MemorySettings

    settings = MemorySettings()
    if settings.enabled and settings.backend_name == "local":
        engine_version(settings.embedding_model)


def warm_libraries() -> None:
    """First-use costs of the call path's libraries, paid once in the forkserver (`fork_warm`)
    instead of on every job process's event loop at call start, where each blocked the loop
    for 0.1-0.3 s on a busy host (LiveKit's "event loop blocked" warnings):

    - LiveKit's hyphenator, built on the first word the transcript synchronizer times
      (~0.7 s of CPU);
    - phonenumbers' metadata, loaded a region at a time by the first log record with a
      number in it (the log redaction reads every record: `memory.secrets.phone_spans`);
    - the OpenAI client's page type for the LLM plugin's warm-up request, and its streaming
      module, both built on first use;
    - the OpenAI plugins' first construction (~30 ms of CPU; prewarm builds the call's own).
    """
    import phonenumbers
    from livekit.agents.tokenize import basic
    from livekit.plugins import openai as openai_plugins
    from openai.pagination import AsyncPage
    from openai.types import Model

    from contextdb_livekit.memory.secrets import phone_spans

    basic.hyphenate_word("scheduling")
    for region in phonenumbers.SUPPORTED_REGIONS:
        phonenumbers.PhoneMetadata.metadata_for_region(region)
    phone_spans("+44 20 7946 0018, 020 7946 0018, (415) 555-0132")
    # The generic page's schema is built on its first subscription.
    AsyncPage[Model]
    importlib.import_module("openai.lib.streaming.chat")
    client = openai_client("warm-up", None)  # never sends: nothing is asked of it
    for plugin in (openai_plugins.STT, openai_plugins.LLM, openai_plugins.TTS):
        plugin(client=client)
