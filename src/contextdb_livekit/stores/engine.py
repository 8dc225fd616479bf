"""The engine's storage contract: where the in-process engine (`backends.local_engine.LocalEngine`)
gets the pycontextdb client that serves a caller.

The engine's rules (the slot rule, write-ahead fact writes, receipts) are the same on every
store; what differs is only this part and the decision ledger (`stores.ledger`), each with a
SQLite and a Postgres sibling, composed into one `LocalEngine`:

- `backends.sqlite_engine.SqliteEngineClients`: one client for one SQLite file, owned by the
  engine process (`backends.engine_service`).
- `backends.postgres_engine.PostgresEngineClients`: one scoped client per caller on the shared
  Postgres, in each job process.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import contextdb

from contextdb_livekit.memory import embedders


@runtime_checkable
class EngineClients(Protocol):
    # Errors of this store that mean "unavailable for now" (the engine raises
    # `MemoryUnavailable` for them), beyond pycontextdb's own.
    unavailable_errors: tuple[type[BaseException], ...]

    async def client_for(self, user_id: str) -> contextdb.ContextDB:
        """The client serving this caller, opened on first use."""
        ...

    def opened(self, user_id: str) -> contextdb.ContextDB:
        """The client `client_for` opened for this caller (the engine opens it first)."""
        ...

    async def close(self) -> None: ...


def engine_options(embedding_model: str) -> dict[str, Any]:
    """Engine options for a project-provided embedder (memory.embedders); none for the rest."""
    provider = embedders.provider_for(embedding_model)
    if provider is None:
        return {}
    return {"embedding_provider": provider, "embedding_dim": provider.dimension()}
