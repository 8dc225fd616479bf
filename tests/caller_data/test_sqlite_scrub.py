"""SQLite keeps deleted text where a plain DELETE leaves it: free space in pages, free pages,
and the WAL while another connection holds the file. An erasure leaves it nowhere, including
text deleted earlier by somebody else (a delivered outbox row) on a SQLite built without
secure delete, and while job processes hold the files open."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.caller_data import SqliteAttestationData, SqliteOutboxData
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from testkit.secret_scan import find_planted
from tests.caller_data.conftest import A_PLANTED, Line, plant

WORDS = "the quokkaline shed behind the garage"


@contextlib.contextmanager
def held_open(paths: list[Path]) -> Iterator[None]:
    """Connections like a job process's: open on each file, idle, for the duration."""
    connections = []
    for path in paths:
        conn = sqlite3.connect(path)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        connections.append(conn)
    try:
        yield
    finally:
        for conn in connections:
            conn.close()


def delete_without_secure_delete(path: Path, sql: str, *params: object) -> None:
    """A delete as a SQLite built without SQLITE_SECURE_DELETE makes it (the default on
    many platforms): the row's bytes stay in the page."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA secure_delete=OFF")
        conn.execute(sql, params)
    finally:
        conn.close()


@pytest.mark.parametrize("line", ["sqlite"], indirect=True)
async def test_erase_scrubs_every_file_while_calls_hold_them_open(line: Line) -> None:
    planted = await plant(line)
    files = [
        p
        for p in line.workdir.glob("*.sqlite3")
        if p.name not in ("memory.sqlite3", "calendar.sqlite3")
    ]
    assert len(files) >= 5  # outbox, spill, attestations, customers, ledger, claims
    with held_open(files):
        report = await erase_caller(line.stores(), planted.a.customer_id)
        assert report.complete, report.as_json()
        # Scanned while the files are still open: the WAL has not been folded in on close.
        assert {n: find_planted(n, [line.workdir]) for n in A_PLANTED} == {n: [] for n in A_PLANTED}


async def test_text_deleted_earlier_without_secure_delete_is_scrubbed(tmp_path: Path) -> None:
    path = tmp_path / "attestations.sqlite3"
    store = SqliteAttestationStore(path)
    fields = {
        "customer_id": "cust-q", "actor_id": "web", "channel": "web", "room_name": "r",
        "memory_ids": [], "turn_id": "t1", "turn_text": f"yes, {WORDS}",
    }  # fmt: skip
    first = await store.record(**fields)  # type: ignore[arg-type]  # the TypedDict's keys
    await store.record(**{**fields, "turn_id": "t2", "turn_text": "yes"})  # type: ignore[arg-type]  # as above
    delete_without_secure_delete(
        path, "DELETE FROM attestations WHERE attestation_id = ?", first.attestation_id
    )
    assert find_planted("quokkaline", [tmp_path])  # still in the file's free space
    await erase_caller([SqliteAttestationData(path)], "cust-q")
    assert find_planted("quokkaline", [tmp_path]) == []


async def test_an_erasure_scrubs_a_file_even_when_nothing_of_the_caller_is_left(
    tmp_path: Path,
) -> None:
    # A write delivered long ago: the flusher deleted its row, its text stayed behind.
    path = tmp_path / "outbox.sqlite3"
    outbox = SqliteOutbox(path)
    payload = {"facts": [{"content": WORDS, "source": "user_stated", "confidence": 0.9}]}
    await outbox.put("facts:old", "remember_many", "cust-q", payload, hold=False)
    delete_without_secure_delete(path, "DELETE FROM outbox WHERE idempotency_key = 'facts:old'")
    assert find_planted("quokkaline", [tmp_path])
    report = await erase_caller([SqliteOutboxData(path)], "cust-q")
    assert report.changed == {"outbox": 0}
    assert find_planted("quokkaline", [tmp_path]) == []
