"""Leases that survive clock jumps (issue 21.3), with real processes under `faketime`.

- The shared Postgres outbox keeps every time on the database's clock: a drain whose clock
  is 300 s behind delivers every due row, and a host that died holding leases while its
  clock ran 330 s ahead strands its rows for the lease only, not for lease + 330 s.
- The local SQLite outbox (one host, and the spill) re-bases rows stamped in its future: a
  drain 300 s behind delivers rows that were due, and rows still backing off wait for what
  was left of their backoff, not for the jump.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.engine import stop_engine_if_running
from tests.memory.support import plain_fact

ROOT = Path(__file__).resolve().parents[2]
ROWS = 20
OWNER_LEASE_S = 3.0


def faketime(offset: str) -> list[str]:
    """The argv prefix that runs a command with its clock shifted by `offset` ("-300s")."""
    binary = shutil.which("faketime")
    if binary is None:
        raise RuntimeError("faketime not found: install the Debian package `faketime`")
    _clear_stale_faketime_state()
    return [binary, "-f", offset]


def _clear_stale_faketime_state() -> None:
    """libfaketime names its semaphore and shared memory after the process id and removes them
    when the process exits; a process killed under it (these tests kill hosts) leaves them
    behind, and a later process given the same id fails with "sem_open: File exists". Those of
    processes that no longer run are removed before another process starts under it."""
    for entry in Path("/dev/shm").glob("*faketime_s[eh]m_*"):
        pid = entry.name.rsplit("_", 1)[-1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            entry.unlink(missing_ok=True)


def test_state_left_by_a_killed_process_is_cleared_before_the_next_starts() -> None:
    # A process id that no longer runs (the kernel's pid_max is far below it): what libfaketime
    # left under it must not stop the next process given that id.
    stale = [Path("/dev/shm/faketime_shm_4999999"), Path("/dev/shm/sem.faketime_sem_4999999")]
    for entry in stale:
        entry.write_bytes(b"")
    mine = Path(f"/dev/shm/faketime_shm_{os.getpid()}")
    mine.write_bytes(b"")  # a live process's state stays
    try:
        faketime("-1s")
        assert not any(entry.exists() for entry in stale)
        assert mine.exists()
    finally:
        for entry in [*stale, mine]:
            entry.unlink(missing_ok=True)


def clock_env(**extra: str) -> dict[str, str]:
    # Monotonic time stays real: asyncio's timers keep working under the shifted clock.
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    return {**os.environ, "PYTHONPATH": path, "FAKETIME_DONT_FAKE_MONOTONIC": "1", **extra}


def facts_payload(i: int) -> dict:
    return {"facts": [plain_fact(f"Clock note {i}").as_item()]}


def drain_once(env: dict[str, str], cwd: Path, offset: str | None) -> str:
    argv = [sys.executable, str(ROOT / "drain.py"), "--once"]
    done = subprocess.run(
        (faketime(offset) if offset else []) + argv,
        cwd=cwd, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    return done.stdout


async def test_a_drain_300_s_behind_delivers_the_shared_outboxs_due_rows(
    database_url: str, tmp_path: Path, user_id: str
) -> None:
    database = SharedDatabase(database_url)
    try:
        outbox = PostgresOutbox(database)
        for i in range(ROWS):
            await outbox.put(f"clock:{i}", "remember_many", user_id, facts_payload(i), hold=False)
    finally:
        await database.close()
    env = clock_env(DATABASE_URL=database_url, MEMORY_SPILL_PATH=str(tmp_path / "spill.sqlite3"))
    out = await asyncio.to_thread(drain_once, env, tmp_path, "-300s")
    print(out.strip())
    assert f"delivered {ROWS} row(s)" in out
    conn = await asyncpg.connect(database_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM host_outbox") == 0
    finally:
        await conn.close()


_HOLDER = """
import asyncio, sys
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from tests.multihost.test_clock import facts_payload

async def main(url, user, rows, lease):
    outbox = PostgresOutbox(SharedDatabase(url), owner_lease_s=lease)
    for i in range(rows):
        # Held: this host is about to send it itself, then dies.
        assert await outbox.put(f"held:{i}", "remember_many", user, facts_payload(i))
    print("held", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
"""


async def test_a_host_330_s_ahead_that_dies_holding_leases_strands_nothing(
    database_url: str, tmp_path: Path, user_id: str
) -> None:
    holder = subprocess.Popen(
        [*faketime("+330s"), sys.executable, "-c", _HOLDER, database_url, user_id, str(ROWS),
         str(OWNER_LEASE_S)],
        cwd=ROOT, env=clock_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(holder.stdout.readline), 60)
        assert line.strip() == "held", holder.stderr.read() if holder.stderr else ""
        os.kill(holder.pid, signal.SIGKILL)
        killed = time.monotonic()
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait()
    env = clock_env(DATABASE_URL=database_url, MEMORY_SPILL_PATH=str(tmp_path / "spill.sqlite3"))
    conn = await asyncpg.connect(database_url)
    try:
        while await conn.fetchval("SELECT count(*) FROM host_outbox"):
            assert time.monotonic() - killed < OWNER_LEASE_S + 60, "rows stranded past the lease"
            await asyncio.to_thread(drain_once, env, tmp_path, None)
        stranded_s = time.monotonic() - killed
    finally:
        await conn.close()
    print(f"rows held by a host 330 s ahead delivered {stranded_s:.1f} s after its death"
          f" (lease {OWNER_LEASE_S} s)")  # fmt: skip
    # On the host's own clock they would have waited 330 s + the lease.
    assert stranded_s < OWNER_LEASE_S + 30


@pytest.mark.parametrize("offset", ["-300s", "+300s"])
async def test_the_local_outbox_survives_a_jump_of_minutes(
    tmp_path: Path, user_id: str, offset: str
) -> None:
    """One host: rows written on the real clock; `drain --once` with the clock
    shifted. Due rows go out at once; a row backing off 2 s is not held back by the jump."""
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    for i in range(ROWS):
        await outbox.put(f"due:{i}", "remember_many", user_id, facts_payload(i), hold=False)
    await outbox.put("backing-off", "remember_many", user_id, facts_payload(99), hold=False)
    await outbox.settle("backing-off", MemoryUnavailable("down"), delay_s=2.0)
    env = clock_env(
        MEMORY_OUTBOX_PATH=str(outbox.path),
        CONTEXTDB_LOCAL_PATH=str(tmp_path / "memory.sqlite3"),
    )
    started = time.monotonic()
    first = await asyncio.to_thread(drain_once, env, tmp_path, offset)
    print(offset, first.strip())
    # Every due row in the first pass (and the backing-off one too if its 2 s ran out then).
    assert int(first.split()[1]) >= ROWS, first
    while [item.idempotency_key for item in await outbox.items()] == ["backing-off"]:
        assert time.monotonic() - started < 30, "the backing-off row was stranded by the jump"
        await asyncio.sleep(0.5)
        await asyncio.to_thread(drain_once, env, tmp_path, offset)
    assert await outbox.items() == []
    await stop_engine_if_running((tmp_path / "memory.sqlite3").resolve())
