"""Draining without calls: `run_drain_loop` and `python drain.py`
(issue 11 #3)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from billing_client import LocalBilling
from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine, socket_path_for
from contextdb_livekit.delivery.drain import run_drain_loop
from contextdb_livekit.memory.errors import MemoryAuthError
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox_policy import config_fingerprint
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.engine import stop_engine_if_running
from tests.memory.support import day_slot as visit_day_slot
from tests.memory.support import plain_fact as caller_said
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 12, 10)


def settings_in(tmp_path: Path, **extra: str) -> MemorySettings:
    return MemorySettings(
        CONTEXTDB_LOCAL_PATH=tmp_path / "memory.sqlite3",
        MEMORY_OUTBOX_PATH=tmp_path / "outbox.sqlite3",
        **extra,
    )


async def queue_work(settings: MemorySettings, user_id: str) -> str:
    """A receipt for a real decision, a fact write, and an intent left by a dead call."""
    client = await connect_local_engine(settings.local_path, idle_exit_s=60)
    try:
        skipped = await client.evaluate_action(user_id, "book", slot=visit_day_slot(DAY))
        orphan = await client.evaluate_action(user_id, "book", slot=visit_day_slot(DAY))
    finally:
        await client.close()
    outbox = SqliteOutbox(settings.outbox_path, intent_grace_s=0)
    await outbox.put(
        receipt_idempotency_key(skipped.decision_id),
        "receipt",
        user_id,
        {"decision_id": skipped.decision_id, "action_name": "book_visit", "status": "skipped"},
        hold=False,
    )
    facts = {"facts": [caller_said("My boiler is in the loft").as_item()]}
    await outbox.put(f"facts:{user_id}", "remember_many", user_id, facts, hold=False)
    await outbox.record_intent(
        receipt_idempotency_key(orphan.decision_id),
        "receipt",
        user_id,
        {"decision_id": orphan.decision_id, "action_name": "book_visit", "customer_id": user_id,
         "host_key": f"book_visit:{orphan.decision_id}", "intent": True},
    )  # fmt: skip
    return orphan.decision_id


async def test_drain_loop_delivers_everything_due_without_a_call(
    tmp_path: Path, user_id: str
) -> None:
    settings = settings_in(tmp_path)
    orphan = await queue_work(settings, user_id)
    calendar = LocalCalendar(tmp_path / "calendar.sqlite3", today=date(2026, 12, 7))
    try:
        report = await run_drain_loop(
            settings,
            asyncio.Event(),
            LINE_ACTIONS.resolvers(
                VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
            ),
            once=True,
        )
        assert (report.delivered, report.last_error) == (3, None)
        assert await SqliteOutbox(settings.outbox_path).items() == []
        client = await connect_local_engine(settings.local_path)
        try:
            trail = {d.decision_id: d for d in await client.decision_trail(user_id)}
            assert (trail[orphan].status, trail[orphan].error_code) == (
                "failed",
                "interrupted_before_booking",
            )
            recalled = await client.recall(user_id, "boiler loft")
            assert [m.content for m in recalled.memories].count("My boiler is in the loft") == 1
        finally:
            await client.close()
    finally:
        await stop_engine_if_running(settings.local_path)


async def test_an_idle_drain_never_starts_the_engine(tmp_path: Path) -> None:
    settings = settings_in(tmp_path)
    report = await run_drain_loop(settings, asyncio.Event(), {}, once=True)
    assert (report.delivered, report.passes, report.last_error) == (0, 1, None)
    assert not socket_path_for(settings.local_path.resolve()).exists()


async def test_rows_parked_for_configuration_are_redriven_under_a_new_key(
    tmp_path: Path, user_id: str
) -> None:
    old = settings_in(tmp_path, CONTEXTDB_API_KEY="cdb_old_key")
    outbox = SqliteOutbox.for_settings(old)
    facts = {"facts": [caller_said("I have two boilers").as_item()]}
    await outbox.put("facts:cfg", "remember_many", user_id, facts, hold=False)
    await outbox.settle("facts:cfg", MemoryAuthError("bad key", status=401))
    assert [i.state for i in await outbox.items()] == ["needs_config"]
    new = settings_in(tmp_path)  # the operator fixed the configuration (here: local engine)
    assert config_fingerprint(new) != config_fingerprint(old)
    try:
        report = await run_drain_loop(new, asyncio.Event(), {}, once=True)
        assert report.delivered == 1
        assert await outbox.items() == []
    finally:
        await stop_engine_if_running(new.local_path)


async def test_drain_loop_survives_an_unreachable_backend(tmp_path: Path, user_id: str) -> None:
    settings = settings_in(
        tmp_path, CONTEXTDB_API_KEY="cdb_k", CONTEXTDB_BASE_URL="http://127.0.0.1:9"
    )
    outbox = SqliteOutbox.for_settings(settings)
    await outbox.put("facts:x", "remember_many", user_id,
                     {"facts": [caller_said("x y z").as_item()]}, hold=False)  # fmt: skip
    report = await run_drain_loop(settings, asyncio.Event(), {}, once=True)
    assert report.delivered == 0
    [row] = await outbox.items()
    assert (row.state, row.attempts) == ("pending", 1)
    assert "unreachable" in (row.last_error or "")


def drain_env(tmp_path: Path) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "CONTEXTDB_LOCAL_PATH": str(tmp_path / "memory.sqlite3"),
        "MEMORY_OUTBOX_PATH": str(tmp_path / "outbox.sqlite3"),
        "CALENDAR_LOCAL_PATH": str(tmp_path / "calendar.sqlite3"),
    }


async def test_drain_process_once_and_long_running(tmp_path: Path, user_id: str) -> None:
    settings = settings_in(tmp_path)
    await queue_work(settings, user_id)
    try:
        once = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(ROOT / "drain.py"), "--once"],
            cwd=tmp_path, env=drain_env(tmp_path), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert once.returncode == 0, once.stderr
        assert "delivered 3 row(s)" in once.stdout
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "drain.py"),
             "--interval-s", "0.2", "--stop-budget-s", "2"],
            cwd=tmp_path, env=drain_env(tmp_path), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        outbox = SqliteOutbox(settings.outbox_path)
        await outbox.put("facts:later", "remember_many", user_id,
                         {"facts": [caller_said("The gate code is 4321").as_item()]},
                         hold=False)  # fmt: skip
        deadline = time.monotonic() + 60
        while await outbox.items() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert await outbox.items() == []  # delivered with no call running
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.to_thread(proc.communicate, timeout=30)
        assert proc.returncode == 0, err
        assert "delivered 1 row(s)" in out
    finally:
        await stop_engine_if_running(settings.local_path)
