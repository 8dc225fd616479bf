"""The worker's `AgentServer` options from its settings: warm processes, ports, metrics and
how its load is counted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from livekit.agents import AgentServer

from contextdb_livekit.worker.settings import WorkerSettings


def load_in_calls(max_calls: int) -> Callable[[AgentServer], float]:
    """The worker's load as the share of its calls in use: 1.0 (full, and refused by the
    server) only at `max_calls`, whatever else the host is running."""

    def load(server: AgentServer) -> float:
        return min(len(server.active_jobs) / max_calls, 1.0)

    return load


def server_options(settings: WorkerSettings) -> dict[str, Any]:
    """Keyword arguments for `AgentServer`; what is unset keeps LiveKit's default."""
    options: dict[str, Any] = {}
    if settings.num_idle_processes is not None:
        options["num_idle_processes"] = settings.num_idle_processes
    if settings.http_port is not None:
        options["port"] = settings.http_port
    if settings.prometheus_port is not None:
        options["prometheus_port"] = settings.prometheus_port
        options["prometheus_multiproc_dir"] = str(settings.metrics_dir)
    if settings.max_calls is not None:
        options["load_fnc"] = load_in_calls(settings.max_calls)
        # Full means every call in use (the load above reaches 1.0 only there).
        options["load_threshold"] = 1.0
    return options
