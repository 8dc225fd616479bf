"""The engine's storage part on one SQLite file (`stores.engine.EngineClients`).

pycontextdb keeps its slot locks, vector index and audit-chain head in process memory, so
only one process may write a file: the worker reaches this engine through
`backends.engine_service` (one process per file) rather than opening the file in every job.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import contextdb

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.stores.engine import engine_options
from contextdb_livekit.stores.private_files import private_file
from contextdb_livekit.stores.sqlite import stats as sqlite_stats
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger


async def open_client(path: Path, *, embedding_model: str = "mock") -> contextdb.ContextDB:
    """pycontextdb's own open of the file (0600, initialised), no planner statistics."""
    private_file(path)  # 0600 in a 0700 directory, whatever the umask
    db = contextdb.init(
        storage_url=f"sqlite:///{path}",
        embedding_model=embedding_model,
        llm_model="mock",
        # The engine itself keeps the audit chain; per-read audit doubles recall cost.
        enable_read_audit=False,
        **engine_options(embedding_model),
    )
    # Initialise once before any concurrent use: concurrent first calls each initialise.
    try:
        await db.stats()
    except BaseException:
        # A file that cannot be opened (damaged) must not leave its connection thread behind.
        with contextlib.suppress(Exception):
            await db.close()
        raise
    return db


class SqliteEngineClients:
    """One pycontextdb client for the whole file, serving every caller."""

    # pycontextdb's own errors (an unreadable file among them) are all the engine sees here.
    unavailable_errors: tuple[type[BaseException], ...] = ()

    def __init__(self, db: contextdb.ContextDB) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: Path, *, embedding_model: str = "mock") -> SqliteEngineClients:
        """Open (or create) the engine file, with planner statistics kept
        (`stores.sqlite.stats`): without them SQLite scans every caller's rows per recall."""
        db = await open_client(path, embedding_model=embedding_model)
        await sqlite_stats.refresh_if_stale(db)
        return cls(db)

    async def client_for(self, user_id: str) -> contextdb.ContextDB:
        return self.db

    def opened(self, user_id: str) -> contextdb.ContextDB:
        return self.db

    async def close(self) -> None:
        await self.db.close()


def ledger_path(path: Path) -> Path:
    """The decision ledger's file beside the engine file (`stores.sqlite.ledger`)."""
    return path.with_name(path.stem + ".ledger.sqlite3")


async def open_engine(
    path: Path, *, embedding_model: str = "mock", outbox_path: Path | None = None
) -> LocalEngine[SqliteEngineClients]:
    """The engine on one SQLite file, its decision ledger in a file beside it (whose sweeper
    leaves decisions with a receipt queued in `outbox_path`)."""
    clients = await SqliteEngineClients.open(path, embedding_model=embedding_model)
    return LocalEngine(clients, SqliteDecisionLedger(ledger_path(path), outbox_path=outbox_path))
