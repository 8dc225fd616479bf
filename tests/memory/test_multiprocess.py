"""Several job processes share one local memory file (issue: multi-process SQLite hazards)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
from pathlib import Path

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.memory.models import FactToRemember
from testkit.engine import stop_engine

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 3
PER_WORKER = 25


async def test_bursts_from_several_processes_lose_nothing(tmp_path: Path) -> None:
    db_path = tmp_path / "shared.sqlite3"
    user = "cust-burst"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.memory.burst_worker",
                str(db_path),
                user,
                str(w),
                str(PER_WORKER),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    results = [await asyncio.to_thread(p.communicate, timeout=120) for p in procs]
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
        assert "database is locked" not in err

    await stop_engine(db_path)
    engine = await open_engine(db_path)
    try:
        facts = await engine.clients.db.factual.list_facts(limit=10_000, user_id=user)
        notes = [f for f in facts if f.content.startswith("Worker ")]
        assert len({f.content for f in notes}) == WORKERS * PER_WORKER
        current = await engine.clients.db.slot_facts("equipment", "count_boiler", user_id=user)
        assert len(current) == 1, [m.content for m in current]
        assert await engine.clients.db.audit.verify_chain() is True
    finally:
        await engine.close()

    ledger = sqlite3.connect(db_path.with_name("shared.ledger.sqlite3"))
    decisions = ledger.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
    receipts = ledger.execute("SELECT COUNT(*) FROM receipts").fetchone()[0]
    ledger.close()
    assert decisions == receipts == WORKERS * PER_WORKER


async def test_only_one_engine_can_own_a_file(tmp_path: Path) -> None:
    db_path = tmp_path / "owned.sqlite3"
    client = await connect_local_engine(db_path)
    try:
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "contextdb_livekit.backends.engine_service",
                "--db",
                str(db_path),
                "--socket",
                str(tmp_path / "second.sock"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode != 0
        assert "already owns" in second.stderr
        assert await client.healthy()
    finally:
        await client.close()
        await stop_engine(db_path)


async def test_idle_engine_exits_and_is_restarted_on_next_call(tmp_path: Path) -> None:
    db_path = tmp_path / "idle.sqlite3"
    client = await connect_local_engine(db_path, idle_exit_s=0.5)
    try:
        first_pid = await client.engine_pid()
        for _ in range(100):
            if not await client.healthy():
                break
            await asyncio.sleep(0.1)
        assert not await client.healthy()
        recalled = await client.recall("cust-idle", "anything")
        assert recalled.memories == []
        second_pid = await client.engine_pid()
        assert second_pid != first_pid
    finally:
        await client.close()
        await stop_engine(db_path)


async def test_an_engine_of_another_version_is_replaced_not_reused(tmp_path: Path, monkeypatch):
    """`agent.py dev` reloads leave the engine running; new code or config must not reuse it."""
    import contextdb_livekit.backends.engine_client as engine_client

    db_path = tmp_path / "versioned.sqlite3"
    old = await connect_local_engine(db_path)
    try:
        old_pid = await old.engine_pid()
        await old.remember_many(
            "cust-v", [FactToRemember("kept across versions", "user_stated", 0.9)],
            idempotency_key="k-version-1",
        )  # fmt: skip
    finally:
        await old.close()
    monkeypatch.setattr(engine_client, "engine_version", lambda model: "a-newer-version")
    new = await connect_local_engine(db_path)
    try:
        assert await new.engine_pid() != old_pid
        assert not _alive(old_pid)
        recalled = await new.recall("cust-v", "kept", top_k=5)
        assert any("kept across versions" in m.content for m in recalled.memories)
    finally:
        await new.close()
        await stop_engine(db_path)


def _alive(pid: int) -> bool:
    import os

    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_the_engine_socket_is_owner_only(tmp_path: Path) -> None:
    db_path = tmp_path / "perm.sqlite3"
    client = await connect_local_engine(db_path)
    try:
        mode = client.socket_path.stat().st_mode & 0o777
        assert mode == 0o600, oct(mode)
    finally:
        await client.close()
        await stop_engine(db_path)
