"""Attestations on the shared Postgres (`host_attestations`, DATABASE_URL): the consent
evidence outlives the container that heard the yes. The contract is stores.attestations."""

from __future__ import annotations

import json
from typing import Unpack

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.attestations import (
    UNAVAILABLE_CODE,
    Attestation,
    AttestationFields,
    new_attestation,
)
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable

_COLUMNS = (
    "attestation_id, customer_id, actor_id, channel, room_name, memory_ids, turn_id,"
    " turn_text, attested_at, question_turn_id, question_text"
)


class PgAttestationStore:
    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def record(self, **fields: Unpack[AttestationFields]) -> Attestation:
        attestation = new_attestation(**fields)
        a = attestation
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    f"INSERT INTO host_attestations ({_COLUMNS})"
                    " VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)",
                    a.attestation_id, a.customer_id, a.actor_id, a.channel, a.room_name,
                    json.dumps(list(a.memory_ids)), a.turn_id, a.turn_text, a.attested_at,
                    a.question_turn_id, a.question_text,
                )  # fmt: skip
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code=UNAVAILABLE_CODE) from exc
        return attestation

    async def for_customer(self, customer_id: str) -> list[Attestation]:
        try:
            async with self.database.connection() as conn:
                rows = await conn.fetch(
                    "SELECT attestation_id, customer_id, actor_id, channel, room_name,"
                    " memory_ids::text, turn_id, turn_text, attested_at, question_turn_id,"
                    " question_text FROM host_attestations WHERE customer_id = $1"
                    " ORDER BY attested_at",
                    customer_id,
                )
        except SharedStateUnavailable as exc:
            raise MemoryUnavailable(str(exc), code=UNAVAILABLE_CODE) from exc
        return [
            Attestation(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])), *r[6:]) for r in rows
        ]
