"""Attestations keep the question and the answer as evidence, never a secret said in them:
both texts are redacted before either store (SQLite file, shared Postgres) writes the row."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from contextdb_livekit.kit.attestations import AttestationStore, PgAttestationStore

QUESTION = (
    "Shall I book Thursday 10 December? I have your IBAN as GB33 BUKB 2020 1555 5555 55, "
    "sort code 20-00-00 and the padlock on the side gate is four four one seven hash"
)
ANSWER = (
    "yes, and my account number is three one nine two six eight one nine, "
    "date of birth 14/03/1962, alarm is 1 9 8 4 then hash"
)
SECRETS = [
    "BUKB",
    "1555",
    "20-00-00",
    "four four one seven",
    "three one nine two",
    "14/03/1962",
    "1 9 8 4",
]
FIELDS: dict[str, Any] = {
    "customer_id": "cust-1",
    "actor_id": "web-cust-1",
    "channel": "web",
    "room_name": "call-1",
    "memory_ids": ["mem-1"],
    "turn_id": "t-2",
    "turn_text": ANSWER,
    "question_turn_id": "t-1",
    "question_text": QUESTION,
}


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret.lower() not in text.lower(), (secret, text)


async def test_the_sqlite_store_redacts_question_and_answer(tmp_path: Path) -> None:
    store = AttestationStore(tmp_path / "attestations.sqlite3")
    kept = await store.record(**FIELDS)
    assert "Thursday 10 December" in kept.question_text  # the evidence stays readable
    conn = sqlite3.connect(tmp_path / "attestations.sqlite3")
    try:
        rows = conn.execute("SELECT question_text, turn_text FROM attestations").fetchall()
    finally:
        conn.close()
    assert len(rows) == 1
    for text in rows[0]:
        assert_clean(text)
    assert re.search(r"withheld|on file", rows[0][0]) and re.search(r"withheld|on file", rows[0][1])


class _RecordingConnection:
    def __init__(self) -> None:
        self.executed: list[tuple[str, tuple[Any, ...]]] = []

    async def execute(self, sql: str, *args: Any) -> str:
        self.executed.append((sql, args))
        return "INSERT 0 1"


class _RecordingDatabase:
    def __init__(self) -> None:
        self.conn = _RecordingConnection()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[_RecordingConnection]:
        yield self.conn


async def test_the_postgres_store_redacts_question_and_answer() -> None:
    database = _RecordingDatabase()
    await PgAttestationStore(database).record(**FIELDS)  # type: ignore[arg-type]
    [(sql, args)] = database.conn.executed
    assert "INSERT INTO host_attestations" in sql
    for value in args:
        assert_clean(str(value))
    assert "Thursday 10 December" in " ".join(str(v) for v in args)


@pytest.mark.parametrize("field", ["turn_text", "question_text"])
async def test_each_text_is_redacted_on_its_own(tmp_path: Path, field: str) -> None:
    store = AttestationStore(tmp_path / "a.sqlite3")
    kept = await store.record(
        **{**FIELDS, "turn_text": "yes", "question_text": "ok?", field: ANSWER}
    )
    assert_clean(getattr(kept, field))
    [read] = await store.for_customer("cust-1")
    assert_clean(getattr(read, field))
