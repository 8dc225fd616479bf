"""`build_server`: the worker's `AgentServer` for a line — every job process prewarmed, the
line's modules preloaded in the forkserver, a shutdown the end-of-call write fits in, and the
settings' options."""

from __future__ import annotations

from typing import Any

import pytest

from contextdb_livekit.hosting import WorkerSettings, build_server, prewarm
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker import server
from contextdb_livekit.worker.preload import PRELOAD_MODULES


def test_the_server_prewarms_preloads_the_line_and_takes_the_settings_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(server, "AgentServer", lambda **options: made.append(options))
    build_server(WorkerSettings.model_validate({"WORKER_MAX_CALLS": "3"}), "line")
    [options] = made
    assert options["setup_fnc"] is prewarm
    assert options["preload_modules"] == [*PRELOAD_MODULES, "line"]
    assert options["shutdown_process_timeout"] == server.SHUTDOWN_PROCESS_TIMEOUT_S
    assert options["load_threshold"] == 1.0  # server_options: load counted in calls


def test_the_longest_end_of_call_write_fits_well_inside_the_shutdown() -> None:
    longest_write_s = MemorySettings.model_fields["shutdown_write_budget_ms"].metadata
    [limit] = [m.le for m in longest_write_s if hasattr(m, "le")]
    assert limit / 1000 < server.SHUTDOWN_PROCESS_TIMEOUT_S
