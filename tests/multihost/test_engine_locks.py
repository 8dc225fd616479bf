"""pycontextdb's Postgres store, checked rather than trusted: its advisory locks keep one
current value per slot and an unforked audit chain when several processes write at once."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.stores.postgres.connection import SharedDatabase

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 4
PER_WORKER = 15


async def write_from_processes(database_url: str, user_id: str, *flags: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "src")))}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.multihost.slot_worker",
                database_url,
                user_id,
                str(w),
                str(PER_WORKER),
                *flags,
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    # The barrier: every worker is connected before any writes, so their writes overlap.
    for proc in procs:
        assert proc.stdout is not None and proc.stdin is not None
        line = await asyncio.to_thread(proc.stdout.readline)
        assert line.strip() == "ready", (line, proc.stderr.read() if proc.stderr else "")
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        _, err = await asyncio.to_thread(proc.communicate, timeout=180)
        assert proc.returncode == 0, err[-3000:]


async def slot_state(database_url: str, user_id: str) -> tuple[int, bool]:
    database = SharedDatabase(database_url)
    engine = await connect_engine(database)
    try:
        db = await engine.client_for(user_id)
        current = await db.slot_facts("equipment", "count_boiler", user_id=user_id)
        return len(current), await engine.audit_chain_verifies(user_id)
    finally:
        await engine.close()
        await database.close()


async def test_competing_slot_writes_from_four_processes(database_url: str, user_id: str) -> None:
    await write_from_processes(database_url, user_id)
    current, chain_ok = await slot_state(database_url, user_id)
    assert current == 1
    assert chain_ok


async def test_the_check_tells_a_missing_lock(database_url: str, user_id: str) -> None:
    """The same writes with the store's locks replaced by no-ops: the chain forks or the
    slot keeps two current values, so the test above would see a broken lock."""
    await write_from_processes(database_url, user_id, "--unlocked")
    current, chain_ok = await slot_state(database_url, user_id)
    assert current > 1 or not chain_ok
