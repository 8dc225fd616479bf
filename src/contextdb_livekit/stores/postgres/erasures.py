"""The erasure journal on the shared Postgres (`host_erasures`): every host's running calls
see an erasure made anywhere. The contract is stores.erasures."""

from __future__ import annotations

import time

from contextdb_livekit.stores.erasures import ErasuresUnavailable, subject
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable


class PgErasureJournal:
    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def note(self, customer_id: str) -> None:
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    "INSERT INTO host_erasures (subject, erased_at) VALUES ($1, $2)"
                    " ON CONFLICT (subject) DO UPDATE"
                    " SET erased_at = GREATEST(host_erasures.erased_at, excluded.erased_at)",
                    subject(customer_id),
                    time.time(),
                )
        except SharedStateUnavailable as exc:
            raise ErasuresUnavailable(str(exc)) from exc

    async def erased_since(self, customer_id: str, since: float) -> bool:
        try:
            async with self.database.connection() as conn:
                found = await conn.fetchval(
                    "SELECT 1 FROM host_erasures WHERE subject = $1 AND erased_at >= $2",
                    subject(customer_id),
                    since,
                )
        except SharedStateUnavailable as exc:
            raise ErasuresUnavailable(str(exc)) from exc
        return found is not None

    async def forget_before(self, cutoff: float) -> int:
        try:
            async with self.database.connection() as conn:
                status = await conn.execute(
                    "DELETE FROM host_erasures WHERE erased_at < $1", cutoff
                )
        except SharedStateUnavailable as exc:
            raise ErasuresUnavailable(str(exc)) from exc
        return int(status.split()[-1])
