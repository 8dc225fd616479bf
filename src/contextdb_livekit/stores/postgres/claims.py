"""Used claim ids on the shared Postgres (`host_used_claims`): a claim joins once across
every host. The contract is stores.claims."""

from __future__ import annotations

import time
from datetime import datetime

from contextdb_livekit.identity.models import IdentityStoreUnavailable
from contextdb_livekit.stores.claims import check_jti, forget_before
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable


class PgClaimRegistry:
    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        check_jti(jti)
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    "DELETE FROM host_used_claims WHERE expires_at < $1", forget_before(time.time())
                )
                inserted = await conn.fetchval(
                    "INSERT INTO host_used_claims (jti, expires_at) VALUES ($1, $2)"
                    " ON CONFLICT (jti) DO NOTHING RETURNING 1",
                    jti,
                    expires_at.timestamp(),
                )
        except SharedStateUnavailable as exc:
            raise IdentityStoreUnavailable(detail=str(exc)) from exc
        return inserted is not None
