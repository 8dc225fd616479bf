"""Start/stop helpers for the local engine service in tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

from contextdb_livekit.backends.engine_client import (
    connect_local_engine,
    probe_engine,
    socket_path_for,
)


def _gone(pid: int) -> bool:
    # The engine may be our own child (a zombie until reaped) or someone else's.
    with contextlib.suppress(ChildProcessError):
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def engine_pid(db_path: Path) -> int:
    client = await connect_local_engine(db_path)
    try:
        return await client.engine_pid()
    finally:
        await client.close()


async def stop_engine(db_path: Path) -> None:
    pid = await engine_pid(db_path)
    os.kill(pid, signal.SIGTERM)
    for _ in range(200):
        if _gone(pid):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"engine {pid} did not stop")


async def stop_engine_if_running(db_path: Path) -> None:
    info = await probe_engine(socket_path_for(db_path.resolve()))
    if info is None:
        return
    os.kill(int(info["pid"]), signal.SIGTERM)
