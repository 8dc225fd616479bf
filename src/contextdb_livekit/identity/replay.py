"""One sign-in joins once: the ids of identity claims already used, until they expire.

A claim copied out of a caller's token (or a token re-used after the call) verifies — its
signature and room are right — so the worker also records each claim id on first use and
refuses a second join with it. A reconnecting client needs a fresh token from the host.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Protocol

from contextdb_livekit.identity.models import IdentityStoreUnavailable
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable
from contextdb_livekit.stores.private_files import private_dir
from contextdb_livekit.stores.sqlite.connection import shared_sqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS used_claims (
    jti TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
"""


class ClaimRegistry(Protocol):
    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        """True the first time `jti` is seen; False for a replay."""
        ...


class SqliteClaimRegistry:
    def __init__(self, path: Path) -> None:
        self.path = path
        private_dir(path.parent)
        with shared_sqlite(path) as conn:
            conn.executescript(_SCHEMA)

    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        def record() -> bool:
            with shared_sqlite(self.path) as conn:
                # Expired ids cannot verify any more, so they need not be kept.
                conn.execute("DELETE FROM used_claims WHERE expires_at < ?", (time.time(),))
                try:
                    conn.execute(
                        "INSERT INTO used_claims VALUES (?, ?)", (jti, expires_at.timestamp())
                    )
                except sqlite3.IntegrityError:
                    return False
            return True

        return await asyncio.to_thread(record)


class PgClaimRegistry:
    """Used claim ids on the shared Postgres: a claim joins once across every host."""

    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    "DELETE FROM host_used_claims WHERE expires_at < $1", time.time()
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
