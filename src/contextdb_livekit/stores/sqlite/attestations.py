"""Attestations in a SQLite file on the host's disk (ATTESTATION_PATH): the one-host store.

The contract is stores.attestations. The file is owner-only (stores.private_files) and
shared by the host's job processes through WAL (stores.sqlite.connection).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, Unpack

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.attestations import (
    UNAVAILABLE_CODE,
    Attestation,
    AttestationFields,
    new_attestation,
)
from contextdb_livekit.stores.sqlite.schema import LazyTables

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS attestations (
    attestation_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    room_name TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    turn_text TEXT NOT NULL,
    attested_at TEXT NOT NULL,
    question_turn_id TEXT NOT NULL,
    question_text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS attestations_customer ON attestations (customer_id, attested_at);
"""
_COLUMNS = (
    "attestation_id, customer_id, actor_id, channel, room_name, memory_ids, turn_id,"
    " turn_text, attested_at, question_turn_id, question_text"
)


class SqliteAttestationStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._tables = LazyTables(self.path, _SCHEMA)

    async def record(self, **fields: Unpack[AttestationFields]) -> Attestation:
        attestation = new_attestation(**fields)
        a = attestation
        row = (
            a.attestation_id, a.customer_id, a.actor_id, a.channel, a.room_name,
            json.dumps(list(a.memory_ids)), a.turn_id, a.turn_text, a.attested_at,
            a.question_turn_id, a.question_text,
        )  # fmt: skip

        def store(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO attestations ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )

        await self._run(store)
        return attestation

    async def for_customer(self, customer_id: str) -> list[Attestation]:
        def load(conn: sqlite3.Connection) -> list[Attestation]:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM attestations WHERE customer_id = ?"
                " ORDER BY attested_at, rowid",
                (customer_id,),
            ).fetchall()
            return [
                Attestation(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])), *r[6:])
                for r in rows
            ]

        return await self._run(load)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await self._tables.run(work)
        except (sqlite3.Error, OSError) as exc:
            raise MemoryUnavailable(
                f"attestations file {self.path}: {type(exc).__name__}: {exc}"[:300],
                code=UNAVAILABLE_CODE,
            ) from exc
