"""Two worker hosts (separate processes, separate local directories) on one real Postgres.

Concurrent bursts on the same callers: nothing lost, one current value per slot, the audit
chain verifies, decisions == receipts. One host killed -9 mid-burst: its queued rows are
delivered by the other host's drain (issue 11).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg

from billing_client import LocalBilling
from calendar_client import LocalCalendar
from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.delivery.drain import run_drain_loop
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

ROOT = Path(__file__).resolve().parents[2]
CALLERS = ["cust-shared-a", "cust-shared-b", "cust-shared-c"]
CALLS = 6


def start_host(name: str, database_url: str, workdir: Path, *extra: str) -> subprocess.Popen:
    workdir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "src"))),
        # Nothing local should be needed with DATABASE_URL; point the local paths inside the
        # host's own directory so a stray write would show up there, not in the repo.
        "CONTEXTDB_LOCAL_PATH": str(workdir / "unused.sqlite3"),
        "MEMORY_OUTBOX_PATH": str(workdir / "unused-outbox.sqlite3"),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.multihost.host_worker", name, ",".join(CALLERS),
         str(CALLS), *extra],
        cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


async def wait_for_line(proc: subprocess.Popen, wanted: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = await asyncio.to_thread(proc.stdout.readline)
        if line.strip() == wanted:
            return
        if not line and proc.poll() is not None:
            raise AssertionError(f"host exited early: {proc.stderr.read()[-3000:]}")  # type: ignore[union-attr]
    raise AssertionError(f"host never printed {wanted!r}")


async def check_shared_state(database_url: str, *, expected_writes: int) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        outbox = await conn.fetch("SELECT idempotency_key, state, last_error FROM host_outbox")
        assert outbox == [], [dict(r) for r in outbox]
        states = await conn.fetch("SELECT state, count(*) FROM host_writes GROUP BY state")
        assert {r["state"]: r["count"] for r in states} == {"done": expected_writes}
        decisions = await conn.fetchval("SELECT count(*) FROM host_decisions")
        receipts = await conn.fetchval("SELECT count(*) FROM host_receipts")
        orphans = await conn.fetchval(
            "SELECT count(*) FROM host_decisions d LEFT JOIN host_receipts r"
            " USING (decision_id) WHERE r.decision_id IS NULL"
        )
        assert decisions == receipts == expected_writes and orphans == 0
        assert await conn.fetchval(
            "SELECT count(*) FROM host_receipts WHERE policy_alignment <> 'aligned'"
        ) == 0  # fmt: skip
    finally:
        await conn.close()
    database = SharedDatabase(database_url)
    engine = await connect_engine(database)
    try:
        for caller in CALLERS:
            db = await engine.client_for(caller)
            notes = [
                f
                for f in await db.factual.list_facts(limit=10_000, user_id=caller)
                if f.content.startswith("Call note ")
            ]
            # Every end-of-call write landed, once.
            assert len(notes) == len({f.content for f in notes}) == expected_writes // 3
            current = await db.slot_facts("equipment", "count_boiler", user_id=caller)
            assert len(current) == 1, [m.content for m in current]
        assert await engine.audit_chain_verifies(CALLERS[0])
    finally:
        await engine.close()
        await database.close()


async def test_two_hosts_burst_on_the_same_callers(database_url: str, tmp_path: Path) -> None:
    hosts = [start_host(name, database_url, tmp_path / name) for name in ("host-a", "host-b")]
    for host in hosts:
        _, err = await asyncio.to_thread(host.communicate, timeout=240)
        assert host.returncode == 0, err[-3000:]
    await check_shared_state(database_url, expected_writes=2 * CALLS * len(CALLERS))


async def test_a_killed_hosts_queued_rows_are_delivered_by_the_other(
    database_url: str, tmp_path: Path
) -> None:
    survivor = start_host("host-a", database_url, tmp_path / "host-a")
    doomed = start_host("host-b", database_url, tmp_path / "host-b", "--stall-after", "3")
    try:
        await wait_for_line(doomed, "stalled", timeout_s=240)
        conn = await asyncpg.connect(database_url)
        try:
            held = await conn.fetchval(
                "SELECT count(*) FROM host_outbox WHERE lease_owner LIKE 'owner:%'"
            )
        finally:
            await conn.close()
        # Its last three calls: a write and a receipt per caller, each held by the dead host.
        assert held >= 3 * len(CALLERS) * 2
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=10)
        _, err = await asyncio.to_thread(survivor.communicate, timeout=240)
        assert survivor.returncode == 0, err[-3000:]
    finally:
        for proc in (survivor, doomed):
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    # The surviving host's drain: the dead host's leases run out, then its rows go out.
    settings = MemorySettings(DATABASE_URL=database_url)
    stop = asyncio.Event()
    started = time.monotonic()

    async def until_empty() -> None:
        conn = await asyncpg.connect(database_url)
        try:
            while await conn.fetchval("SELECT count(*) FROM host_outbox"):
                await asyncio.sleep(0.2)
        finally:
            await conn.close()
        stop.set()

    await asyncio.wait_for(
        asyncio.gather(
            run_drain_loop(
                settings,
                stop,
                LINE_ACTIONS.resolvers(
                    VisitSystems(
                        LocalCalendar(tmp_path / "calendar.sqlite3"),
                        LocalBilling(tmp_path / "billing.sqlite3"),
                    )
                ),
                interval_s=0.2,
            ),
            until_empty(),
        ),
        timeout=60,
    )
    print(f"dead host's rows delivered {time.monotonic() - started:.1f} s after the kill")
    await check_shared_state(database_url, expected_writes=2 * CALLS * len(CALLERS))
