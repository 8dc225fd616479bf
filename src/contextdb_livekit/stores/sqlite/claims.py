"""Used claim ids in a SQLite file on the host's disk (CLAIM_REGISTRY_PATH): single use
across the host's job processes. The contract is stores.claims."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime
from pathlib import Path

from contextdb_livekit.identity.models import IdentityStoreUnavailable
from contextdb_livekit.stores.claims import check_jti, forget_before
from contextdb_livekit.stores.sqlite.schema import LazyTables

_SCHEMA = """
CREATE TABLE IF NOT EXISTS used_claims (
    jti TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
"""


class SqliteClaimRegistry:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._tables = LazyTables(path, _SCHEMA)

    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        check_jti(jti)

        def record(conn: sqlite3.Connection) -> bool:
            # Ids of claims that can no longer verify need not be kept.
            conn.execute(
                "DELETE FROM used_claims WHERE expires_at < ?", (forget_before(time.time()),)
            )
            # One statement: the primary key decides which of two racing joins is first.
            inserted = conn.execute(
                "INSERT INTO used_claims (jti, expires_at) VALUES (?, ?)"
                " ON CONFLICT (jti) DO NOTHING",
                (jti, expires_at.timestamp()),
            ).rowcount
            return bool(inserted == 1)

        try:
            return await self._tables.run(record)
        except (sqlite3.Error, OSError) as exc:
            raise IdentityStoreUnavailable(
                detail=f"claim registry {self.path}: {type(exc).__name__}"
            ) from exc
