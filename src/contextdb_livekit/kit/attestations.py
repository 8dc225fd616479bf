"""Host-retained record of a caller's spoken yes, written before ContextDB is told.

ContextDB's `confirm` records that a memory was confirmed; the host keeps the evidence:
who said yes, to which memories, when, on which channel, and the question and answer turns
(text bounded and with secrets redacted: evidence, not a transcript store).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.secrets import redact_bounded
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable
from contextdb_livekit.stores.private_files import private_dir
from contextdb_livekit.stores.sqlite.connection import shared_sqlite

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
    question_turn_id TEXT NOT NULL DEFAULT '',
    question_text TEXT NOT NULL DEFAULT ''
);
"""
_ADDED_COLUMNS = ("question_turn_id", "question_text")
MAX_TURN_CHARS = 500


def _bounded(text: str) -> str:
    return redact_bounded(text, MAX_TURN_CHARS)


@dataclass(frozen=True)
class Attestation:
    attestation_id: str
    customer_id: str
    actor_id: str
    channel: str
    room_name: str
    memory_ids: tuple[str, ...]
    turn_id: str
    turn_text: str
    attested_at: str
    question_turn_id: str = ""
    question_text: str = ""


def new_attestation(
    *,
    customer_id: str,
    actor_id: str,
    channel: str,
    room_name: str,
    memory_ids: list[str],
    turn_id: str,
    turn_text: str,
    question_turn_id: str = "",
    question_text: str = "",
) -> Attestation:
    """The record to keep: ids as given, spoken text bounded and with secrets redacted."""
    return Attestation(
        attestation_id=f"att_{uuid.uuid4().hex}",
        customer_id=customer_id,
        actor_id=actor_id,
        channel=channel,
        room_name=room_name,
        memory_ids=tuple(memory_ids),
        turn_id=turn_id,
        turn_text=_bounded(turn_text),
        attested_at=datetime.now(UTC).isoformat(),
        question_turn_id=question_turn_id,
        question_text=_bounded(question_text),
    )


class AttestationStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        private_dir(path.parent)  # 0700 whatever the umask (contextdb_livekit.stores.private_files)
        with shared_sqlite(self.path) as conn:
            conn.executescript(_SCHEMA)
            present = {row[1] for row in conn.execute("PRAGMA table_info(attestations)")}
            for column in _ADDED_COLUMNS:  # files written before the question was kept
                if column not in present:
                    conn.execute(
                        f"ALTER TABLE attestations ADD COLUMN {column} TEXT NOT NULL DEFAULT ''"
                    )

    async def record(self, **fields: Any) -> Attestation:
        """Keep one attestation (`new_attestation`'s fields); returns it."""
        attestation = new_attestation(**fields)

        def store() -> None:
            row = asdict(attestation)
            row["memory_ids"] = json.dumps(list(attestation.memory_ids))
            with shared_sqlite(self.path) as conn:
                conn.execute(
                    "INSERT INTO attestations (attestation_id, customer_id, actor_id, channel,"
                    " room_name, memory_ids, turn_id, turn_text, attested_at, question_turn_id,"
                    " question_text) VALUES (:attestation_id, :customer_id, :actor_id,"
                    " :channel, :room_name, :memory_ids, :turn_id, :turn_text, :attested_at,"
                    " :question_turn_id, :question_text)",
                    row,
                )

        await asyncio.to_thread(store)
        return attestation

    async def for_customer(self, customer_id: str) -> list[Attestation]:
        def load() -> list[Attestation]:
            with shared_sqlite(self.path) as conn:
                rows = conn.execute(
                    "SELECT attestation_id, customer_id, actor_id, channel, room_name,"
                    " memory_ids, turn_id, turn_text, attested_at, question_turn_id,"
                    " question_text FROM attestations WHERE customer_id = ? ORDER BY attested_at",
                    (customer_id,),
                ).fetchall()
            return [
                Attestation(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])), *r[6:])
                for r in rows
            ]

        return await asyncio.to_thread(load)


class PgAttestationStore:
    """Attestations on the shared Postgres (`host_attestations`): the consent evidence
    outlives the container that heard the yes. A database that does not answer raises
    `MemoryUnavailable`, so the confirmation fails closed (nothing is confirmed)."""

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def record(self, **fields: Any) -> Attestation:
        attestation = new_attestation(**fields)
        row = asdict(attestation)
        row["memory_ids"] = json.dumps(list(attestation.memory_ids))
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    "INSERT INTO host_attestations (attestation_id, customer_id, actor_id,"
                    " channel, room_name, memory_ids, turn_id, turn_text, attested_at,"
                    " question_turn_id, question_text)"
                    " VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)",
                    *row.values(),
                )
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code="attestations_unavailable") from exc
        return attestation

    async def for_customer(self, customer_id: str) -> list[Attestation]:
        async with self.database.connection() as conn:
            rows = await conn.fetch(
                "SELECT attestation_id, customer_id, actor_id, channel, room_name,"
                " memory_ids::text, turn_id, turn_text, attested_at, question_turn_id,"
                " question_text FROM host_attestations WHERE customer_id = $1"
                " ORDER BY attested_at",
                customer_id,
            )
        return [
            Attestation(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])), *r[6:]) for r in rows
        ]
