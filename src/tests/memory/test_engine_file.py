"""A damaged engine file (issue 31): it used to cost every call the engine's 20 s start
timeout, and every engine process that failed to open it stayed alive (8 an hour later).
Now the call's memory fails at once with what to do, and no engine process is left."""

from __future__ import annotations

import asyncio
import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.engine_file import EXIT_FILE_UNUSABLE, note_path
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import FactToRemember
from testkit.engine import stop_engine_if_running

ROOT = Path(__file__).resolve().parents[3]
# Far above a failed start; a client that waits for its start timeout fails the test.
START_TIMEOUT_S = 120.0
NEVER_S = 60.0


def corrupt(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database\x00\xff" * 2000)
    return path


def owned_by_an_engine(db: Path) -> bool:
    """An engine process holds `<db>.engine.lock` for its lifetime (one engine per file)."""
    lock = db.with_name(db.name + ".engine.lock")
    if not lock.exists():
        return False
    with open(lock, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


async def connect(db: Path):  # type: ignore[no-untyped-def]
    return await asyncio.wait_for(
        connect_local_engine(db, start_timeout_s=START_TIMEOUT_S, idle_exit_s=60), NEVER_S
    )


def engine_log_mentions(db: Path, text: str) -> int:
    log = db.with_name(db.name + ".engine.log")
    return log.read_text(errors="replace").count(text) if log.exists() else 0


async def test_a_corrupt_engine_file_fails_memory_at_once_and_leaves_no_engine(
    tmp_path: Path,
) -> None:
    db = corrupt(tmp_path / "data" / "memory.sqlite3")
    try:
        with pytest.raises(MemoryUnavailable) as first:
            await connect(db)
        assert first.value.code == "engine_file_unusable"
        message = str(first.value)
        # What is wrong, and what to do, in the words a call's log and the startup show.
        assert str(db) in message and "not a database" in message
        assert "move" in message and "restore it from a backup" in message
        assert not owned_by_an_engine(db)  # the engine that failed exited
        # Every later call: the same answer, with no engine started to fail again.
        for _ in range(3):
            with pytest.raises(MemoryUnavailable) as again:
                await connect(db)
            assert again.value.code == "engine_file_unusable"
        assert engine_log_mentions(db, "cannot be opened") == 1
        # The file restored (here: moved aside, so memory starts empty): served again.
        db.rename(db.with_name("memory.sqlite3.bad"))
        memory = await connect(db)
        try:
            await memory.remember_many(
                "cust-restored",
                [FactToRemember("Caller's address: 1 Elm Road", "user_stated", 0.9)],
                idempotency_key="k-restored",
            )
        finally:
            await memory.close()
        assert not note_path(db).exists()
    finally:
        await stop_engine_if_running(db.resolve())


def test_an_engine_process_that_cannot_open_its_file_exits(tmp_path: Path) -> None:
    db = corrupt(tmp_path / "memory.sqlite3")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "contextdb_livekit.backends.engine_service", "--db", str(db),
         "--socket", str(tmp_path / "engine.sock"), "--idle-exit-s", "600"],
        env=env, capture_output=True, text=True, timeout=NEVER_S,
    )  # fmt: skip
    assert done.returncode == EXIT_FILE_UNUSABLE, done.stderr[-2000:]
    assert "cannot be opened" in done.stderr and "Traceback" not in done.stderr
    assert note_path(db).exists()


async def test_the_worker_startup_says_what_to_do_about_a_corrupt_engine_file(
    tmp_path: Path,
) -> None:
    """The worker's startup probe (`check_backend`, printed as a WARNING: calls then run
    without memory) names the file and the remedy instead of a start timeout."""
    from contextdb_livekit.backends.factory import check_backend
    from contextdb_livekit.memory.settings import MemorySettings

    db = corrupt(tmp_path / "data" / "memory.sqlite3")
    settings = MemorySettings(
        _env_file=None,  # type: ignore[call-arg]
        CONTEXTDB_LOCAL_PATH=db,
        MEMORY_OUTBOX_PATH=tmp_path / "data" / "outbox.sqlite3",
    )
    try:
        problem = await asyncio.wait_for(check_backend(settings), NEVER_S)
    finally:
        await stop_engine_if_running(db.resolve())
    assert problem is not None
    assert str(db) in problem and "cannot be opened" in problem and "restore" in problem
    assert not owned_by_an_engine(db)
