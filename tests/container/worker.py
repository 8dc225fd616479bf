"""The worker inside the image: `python agent.py start` against loopback servers, and its state.

Only connection settings go in the environment; where state lives comes from the image's own
ENV (so the test checks the Dockerfile's choice, not one it makes up).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import psutil

from contextdb_livekit.backends.engine_client import attach_to_engine
from testkit.harness import (
    LiveKit,
    Worker,
    worker_env,
)
from tests.container.buildah import Container, CpuCgroup, stop_gracefully

WORKER_COMMAND = ("python", "agent.py", "start")
RUNTIME_UID = 10001


def start_worker_in(
    container: Container,
    livekit: LiveKit,
    openai_url: str,
    log_path: Path,
    http_port: int,
    cpu: CpuCgroup | None,
) -> Worker:
    env = {**worker_env(livekit, openai_url, name_tag="ctr-"), "WORKER_HTTP_PORT": str(http_port)}
    runner = container.start(WORKER_COMMAND, env, log_path, cpu)
    worker = Worker(env, log_path.parent, log_path, runner)
    deadline = time.monotonic() + 90
    while "registered worker" not in worker.log():
        if runner.poll() is not None or time.monotonic() > deadline:
            stop_gracefully(runner, WORKER_COMMAND, timeout_s=30)
            raise RuntimeError("containerised worker did not register:\n" + worker.log()[-4000:])
        time.sleep(0.2)
    return worker


# LiveKit's status-change log lines, and how often it sends a status update.
FULL, AVAILABLE = "at full capacity", "below capacity"
STATUS_INTERVAL_S = 2.5


def reports_full(worker: Worker) -> bool:
    log = worker.log()
    return log.rfind(FULL) > log.rfind(AVAILABLE)


async def wait_until_available(worker: Worker, timeout_s: float = 120) -> None:
    """Return once the worker has reported itself available for two status updates (5 s).

    In production mode LiveKit marks a worker full while its CPU load (a 2.5 s average) is at
    or above 0.7, and a caller who joins then is not dispatched. With `CpuCgroup` that load is
    the container's own (its start-up can still cross it); without one, the whole machine's.
    """
    deadline = time.monotonic() + timeout_s
    available_since = time.monotonic()
    while time.monotonic() - available_since < 2 * STATUS_INTERVAL_S:
        if time.monotonic() > deadline:
            raise TimeoutError(f"worker never reported itself available:\n{worker.log()[-2000:]}")
        if reports_full(worker):
            available_since = time.monotonic()
        await asyncio.sleep(0.25)


def stop_worker(worker: Worker) -> int:
    return stop_gracefully(worker.proc, WORKER_COMMAND, timeout_s=60)


def engine_socket(volume: Path) -> Path:
    """The local engine's socket as the host sees it through the bind mount."""
    return volume / "contextdb" / "memory.sqlite3.sock"


async def stop_engine_in(volume: Path) -> None:
    """End the worker's local engine (it outlives the worker by design, idling out later)."""
    client = attach_to_engine(engine_socket(volume))
    try:
        if not await client.healthy():
            return
        pid = await client.engine_pid()  # chroot isolation: the host's own process table
    finally:
        await client.close()
    os.kill(pid, signal.SIGTERM)
    for _ in range(200):
        if not _alive(pid):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"engine {pid} in the container did not stop")


def _alive(pid: int) -> bool:
    # Its parent (the worker) is gone, so a stopped engine may linger as a zombie until init
    # reaps it: that counts as stopped.
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def foreign_owned(volume: Path) -> list[str]:
    """Entries in the volume not owned by the runtime user (uid and gid)."""
    return [
        f"{path.relative_to(volume)} {path.lstat().st_uid}:{path.lstat().st_gid}"
        for path in sorted(volume.rglob("*"))
        if (path.lstat().st_uid, path.lstat().st_gid) != (RUNTIME_UID, RUNTIME_UID)
    ]
