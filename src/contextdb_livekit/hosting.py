"""The library's public API for hosting a line: what the LiveKit worker's entry (agent.py)
and the drain process call. The other public module is `api` (writing a line); everything
else in the package is private.
"""

from __future__ import annotations

from contextdb_livekit.caller_data.retention import RetentionSchedule
from contextdb_livekit.delivery.drain import main as run_drain
from contextdb_livekit.memory.secrets import install_log_redaction
from contextdb_livekit.worker.call import Call
from contextdb_livekit.worker.job import (
    authenticate_caller,
    close_host_services,
    identify_caller,
    open_host_services,
    wait_for_caller,
)
from contextdb_livekit.worker.log_policy import install_caller_data_filter
from contextdb_livekit.worker.metrics import attach_call_metrics
from contextdb_livekit.worker.preload import openai_client, preload_modules, warm_process
from contextdb_livekit.worker.ring import RingOutcome, is_ringing, wait_until_answered
from contextdb_livekit.worker.room_guard import CallerGuard
from contextdb_livekit.worker.room_surface import start_in_room
from contextdb_livekit.worker.settings import WorkerSettings
from contextdb_livekit.worker.startup import prepare_worker

__all__ = [
    "Call",
    "CallerGuard",
    "RetentionSchedule",
    "RingOutcome",
    "WorkerSettings",
    "attach_call_metrics",
    "authenticate_caller",
    "close_host_services",
    "identify_caller",
    "install_caller_data_filter",
    "install_log_redaction",
    "is_ringing",
    "open_host_services",
    "openai_client",
    "preload_modules",
    "prepare_worker",
    "run_drain",
    "start_in_room",
    "wait_for_caller",
    "wait_until_answered",
    "warm_process",
]
