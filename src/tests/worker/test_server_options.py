"""The worker's AgentServer options: capacity counted in calls when WORKER_MAX_CALLS is set,
so a host busy with other work is not refused calls (LiveKit's default load is host CPU)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from livekit.agents import AgentServer

from contextdb_livekit.hosting import WorkerSettings, server_options
from contextdb_livekit.worker.server_options import load_in_calls


def settings(**env: str) -> WorkerSettings:
    return WorkerSettings.model_validate(env)


def server_with_jobs(n: int) -> Any:
    return SimpleNamespace(active_jobs=[object()] * n)


def test_load_is_the_share_of_calls_in_use_and_full_only_at_the_maximum() -> None:
    load = load_in_calls(4)
    assert [load(server_with_jobs(n)) for n in range(6)] == [0.0, 0.25, 0.5, 0.75, 1.0, 1.0]


def test_max_calls_replaces_the_host_cpu_load_and_its_threshold() -> None:
    options = server_options(settings(WORKER_MAX_CALLS="2"))
    assert options["load_threshold"] == 1.0
    assert options["load_fnc"](server_with_jobs(1)) == 0.5
    server = AgentServer(**options)
    # What LiveKit's worker reports to the server as its load is this function's value.
    assert server.load_fnc is options["load_fnc"]


def test_unset_keeps_livekit_defaults() -> None:
    options = server_options(settings())
    assert "load_fnc" not in options and "load_threshold" not in options
    assert "num_idle_processes" not in options and "port" not in options


@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_maximum_below_one_call_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="WORKER_MAX_CALLS"):
        settings(WORKER_MAX_CALLS=value)
