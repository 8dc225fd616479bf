"""Call start keeps the job's event loop free: host state opens in a thread."""

from __future__ import annotations

import asyncio
import threading

import contextdb_livekit.worker.job as job
from contextdb_livekit.worker.settings import WorkerSettings
from line import LINE


def local_host(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every host store on a local file of this test's, memory off."""
    for name, file in {
        "MEMORY_OUTBOX_PATH": "outbox.sqlite3",
        "ATTESTATION_PATH": "attestations.sqlite3",
        "CUSTOMER_DIRECTORY_PATH": "customers.sqlite3",
        "CLAIM_REGISTRY_PATH": "claims.sqlite3",
        "CALENDAR_LOCAL_PATH": "calendar.sqlite3",
    }.items():
        monkeypatch.setenv(name, str(tmp_path / file))
    monkeypatch.setenv("MEMORY_ENABLED", "false")
    monkeypatch.delenv("DATABASE_URL", raising=False)


async def test_host_state_opens_off_the_event_loop(monkeypatch, tmp_path):
    local_host(monkeypatch, tmp_path)
    real = job.open_host_state
    opening = threading.Event()
    loop_ran = threading.Event()
    held: list[bool] = []

    def slow_disk(*args, **kwargs):  # type: ignore[no-untyped-def]
        # SQLite opening on a busy host's disk: it finishes only once the event loop has run
        # something meanwhile. Opened on the loop itself, it waits in vain.
        opening.set()
        held.append(not loop_ran.wait(timeout=10))
        return real(*args, **kwargs)

    monkeypatch.setattr(job, "open_host_state", slow_disk)

    async def heartbeat() -> None:
        while not opening.is_set():
            await asyncio.sleep(0.01)
        loop_ran.set()

    beat = asyncio.create_task(heartbeat())
    host = await job.open_host_services(WorkerSettings(OPENAI_API_KEY=None), LINE)
    loop_ran.set()
    await beat
    await job.close_host_services(host, LINE)
    assert host.directory is not None
    assert held == [False], "the event loop was held while host state opened"


async def test_the_lines_host_takes_the_workers_policy_and_the_callers_zone(monkeypatch, tmp_path):
    local_host(monkeypatch, tmp_path)
    monkeypatch.setenv("CALLER_TIMEZONE", "Europe/London")
    for may_book in (False, True):
        settings = WorkerSettings(OPENAI_API_KEY=None, SIP_CALLER_ID_MAY_BOOK=may_book)
        host = await job.open_host_services(settings, LINE)
        await job.close_host_services(host, LINE)
        assert host.policy.caller_id_may_book is may_book
        assert host.timezone == "Europe/London"
