"""Damaged, deleted, full and read-only files under the outbox and the decision ledger.

Full and read-only disks: a 1 MiB tmpfs mounted inside a private mount namespace
(`unshare -m`, root), filled or remounted read-only — nothing outside the namespace sees it.
Without mount namespaces (not root) the full-disk case still runs with RLIMIT_FSIZE and
the read-only case is skipped with that reason.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.memory.errors import MemoryUnavailable, OutboxUnavailable
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.support import day_slot

ROOT = Path(__file__).resolve().parents[2]
GARBAGE = bytes(range(256)) * 64


NO_MOUNTS = "mount namespaces need root (CI runs as root, where this never skips)"


def private_mounts() -> bool:
    """Root is enough: as root a missing or failing `unshare -m` fails the test, not skips."""
    return os.geteuid() == 0


def run_disk_worker(mode: str, directory: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "tests.memory.disk_fault_worker", mode, str(directory)]
    if mode != "fsize":
        command = ["unshare", "-m", "--propagation", "private", *command]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def overwrite_start(path: Path, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.write(data)


def receipt() -> dict[str, Any]:
    return {"decision_id": "d", "action_name": "book_visit", "status": "skipped"}


async def test_garbage_outbox_file_is_moved_aside_and_recreated(tmp_path: Path, caplog) -> None:
    path = tmp_path / "outbox.sqlite3"
    path.write_bytes(GARBAGE)
    outbox = SqliteOutbox(path)
    with caplog.at_level(logging.ERROR, logger="contextdb_livekit.stores.sqlite.connection"):
        await outbox.put("receipt:after", "receipt", "cust-1", receipt(), hold=False)
    [moved] = list(tmp_path.glob("outbox.sqlite3.corrupt-*"))
    assert moved.read_bytes() == GARBAGE  # kept for a human
    assert [i.idempotency_key for i in await outbox.items()] == ["receipt:after"]
    [line] = [r.getMessage() for r in caplog.records]
    assert str(path) in line and str(moved) in line


async def test_outbox_damaged_while_in_use_is_repaired_on_next_call(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    outbox = SqliteOutbox(path)
    await outbox.put("receipt:one", "receipt", "cust-1", receipt(), hold=False)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    overwrite_start(path, GARBAGE)  # garbage over the header and the first pages
    await outbox.put("receipt:two", "receipt", "cust-1", receipt(), hold=False)
    assert [i.idempotency_key for i in await outbox.items()] == ["receipt:two"]
    assert len(list(tmp_path.glob("outbox.sqlite3.corrupt-*"))) == 1


async def test_damage_only_quick_check_sees_is_caught_at_open(tmp_path: Path) -> None:
    """A garbage index page: plain reads still work, but the claim query would fail later."""
    path = tmp_path / "outbox.sqlite3"
    writer = SqliteOutbox(path)
    for n in range(300):
        await writer.put(f"receipt:{n:04d}", "receipt", "u", {"decision_id": "d" * 50}, hold=False)
    root = damage_index_page(path, "outbox_due")
    assert root > 1
    reopened = SqliteOutbox(path)  # a new job process opening the file
    assert await reopened.items() == []
    assert len(list(tmp_path.glob("outbox.sqlite3.corrupt-*"))) == 1


def damage_index_page(path: Path, index: str) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (index,))
        (page,) = root.fetchone()
    conn.close()
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * page_size)
        handle.write(b"\xff" * page_size)
    return page


async def test_deleted_outbox_file_is_recreated_without_restart(tmp_path: Path, caplog) -> None:
    path = tmp_path / "outbox.sqlite3"
    outbox = SqliteOutbox(path)
    await outbox.put("receipt:one", "receipt", "cust-1", receipt(), hold=False)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with caplog.at_level(logging.ERROR, logger="contextdb_livekit.delivery.outbox"):
        assert await outbox.put("receipt:two", "receipt", "cust-1", receipt()) is True
    assert [i.idempotency_key for i in await outbox.items()] == ["receipt:two"]
    assert any(str(path) in r.getMessage() for r in caplog.records)


async def test_outbox_in_an_unusable_place_raises_one_typed_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the directory should be")
    outbox = SqliteOutbox(blocker / "outbox.sqlite3")
    for call in (outbox.check(), outbox.items(), outbox.put("k-1", "receipt", "u", receipt())):
        with pytest.raises(OutboxUnavailable) as raised:
            await call
        assert str(blocker / "outbox.sqlite3") in str(raised.value)


async def test_garbage_ledger_is_moved_aside_and_the_engine_opens(tmp_path: Path, caplog) -> None:
    db_path = tmp_path / "memory.sqlite3"
    ledger_path = tmp_path / "memory.ledger.sqlite3"
    ledger_path.write_bytes(GARBAGE)
    with caplog.at_level(logging.ERROR, logger="contextdb_livekit.stores.sqlite.connection"):
        engine = await open_engine(db_path)
    try:
        decision = await engine.evaluate_action("cust-1", "book", slot=day_slot(date(2026, 12, 10)))
        assert decision.outcome == "abstain"
    finally:
        await engine.close()
    assert len(list(tmp_path.glob("memory.ledger.sqlite3.corrupt-*"))) == 1
    assert any(str(ledger_path) in r.getMessage() for r in caplog.records)


async def test_ledger_deleted_while_open_is_recreated(tmp_path: Path, caplog) -> None:
    path = tmp_path / "memory.ledger.sqlite3"
    ledger = SqliteDecisionLedger(path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with caplog.at_level(logging.ERROR, logger="contextdb_livekit.stores.sqlite.ledger"):
        await ledger.record_decision(
            user_id="u", query="q", outcome="abstain", memories=[], pending_ids=[]
        )
    assert path.exists()  # not the unlinked inode: the write is on disk
    assert any("was deleted" in r.getMessage() for r in caplog.records)
    ledger.close()


def test_full_disk_with_a_file_size_limit(tmp_path: Path) -> None:
    report = run_disk_worker("fsize", tmp_path / "fsize")
    assert_full_disk_report(report, tmp_path / "fsize")
    assert "File too large" in report["probe"]


@pytest.mark.skipif(not private_mounts(), reason=NO_MOUNTS)
def test_full_tmpfs(tmp_path: Path) -> None:
    report = run_disk_worker("full", tmp_path / "full")
    assert_full_disk_report(report, tmp_path / "full")
    assert report["fresh_outbox"]["raised"] == "OutboxUnavailable"
    assert "No space left on device" in report["probe"]
    assert report["after_freeing"] == {"raised": None, "landed": 1}


def assert_full_disk_report(report: dict[str, Any], directory: Path) -> None:
    put = report["outbox_put"]
    assert put["raised"] == "OutboxUnavailable"
    assert str(directory / "outbox.sqlite3") in put["message"]
    assert report["ledger_write"]["raised"] == MemoryUnavailable.__name__
    assert str(directory / "memory.ledger.sqlite3") in report["ledger_write"]["message"]
    assert report["rows_before_kept"] is True  # nothing queued before the fault is lost


@pytest.mark.skipif(not private_mounts(), reason=NO_MOUNTS)
def test_read_only_tmpfs(tmp_path: Path) -> None:
    directory = tmp_path / "ro"
    report = run_disk_worker("readonly", directory)
    assert report["outbox_put"]["raised"] == "OutboxUnavailable"
    assert str(directory / "outbox.sqlite3") in report["outbox_put"]["message"]
    assert report["fresh_outbox"]["raised"] == "OutboxUnavailable"
    assert report["ledger_open"]["raised"] == "MemoryUnavailable"
    assert str(directory / "memory.ledger.sqlite3") in report["ledger_open"]["message"]
    assert "Read-only file system" in report["probe"]
