"""The library's public API for hosting a line: what the LiveKit worker's entry (agent.py)
and the drain process call. The other public module is `api` (writing a line); everything
else in the package is private.
"""

from __future__ import annotations

from contextdb_livekit.caller_data.retention import RetentionSchedule
from contextdb_livekit.delivery.drain import main as run_drain
from contextdb_livekit.memory.secrets import install_log_redaction
from contextdb_livekit.worker.entry import run_call
from contextdb_livekit.worker.log_policy import install_caller_data_filter
from contextdb_livekit.worker.preload import openai_client, preload_modules, warm_process
from contextdb_livekit.worker.server import build_server
from contextdb_livekit.worker.server_options import server_options
from contextdb_livekit.worker.session import build_session, pipeline_plugins, prewarm
from contextdb_livekit.worker.settings import WorkerSettings
from contextdb_livekit.worker.startup import prepare_worker

__all__ = [
    "RetentionSchedule",
    "WorkerSettings",
    "build_server",
    "build_session",
    "install_caller_data_filter",
    "install_log_redaction",
    "openai_client",
    "pipeline_plugins",
    "preload_modules",
    "prepare_worker",
    "prewarm",
    "run_call",
    "run_drain",
    "server_options",
    "warm_process",
]
