"""Pick the backend from settings: ContextDB Cloud with an API key, else the local engine."""

from __future__ import annotations

import logging

import httpx
from contextdb_cloud_client import ApiError, CloudClient

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import MemoryLayerError, MemoryUnavailable
from contextdb_livekit.memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    FactToRemember,
    Memory,
    RecallResult,
    ReceiptStatus,
)
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.postgres.connection import SharedDatabase

log = logging.getLogger("memory")


async def open_memory_backend(
    settings: MemorySettings, database: SharedDatabase | None = None
) -> MemoryBackend:
    """Cloud with a key; else pycontextdb on the shared Postgres with DATABASE_URL (on
    `database`, the host's pool, when given); else the local engine process."""
    if settings.api_key is not None:
        log.info("memory backend: ContextDB Cloud at %s", settings.base_url)
        return CloudMemory.connect(
            settings.base_url,
            settings.api_key.get_secret_value(),
            timeout_s=settings.cloud_timeout_s,
        )
    if settings.database_dsn is not None:
        log.info("memory backend: pycontextdb on the shared Postgres")
        return await connect_engine(
            database or SharedDatabase(settings.database_dsn),
            embedding_model=settings.embedding_model,
        )
    log.info("memory backend: local engine on %s", settings.local_path)
    return await connect_local_engine(
        settings.local_path,
        idle_exit_s=settings.engine_idle_exit_s,
        embedding_model=settings.embedding_model,
        outbox_path=settings.outbox_path,
    )


class UnavailableBackend:
    """Stands in when the backend cannot even be opened: every call fails closed, the call
    itself goes on without memory, and writes land in the outbox. A `MemoryBackend` (the
    type checker holds it to the protocol: a method added there must be added here)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def _unavailable(self) -> MemoryUnavailable:
        return MemoryUnavailable(self.reason, code="backend_unavailable")

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult:
        raise self._unavailable()

    async def evaluate_action(
        self,
        user_id: str,
        query: str,
        *,
        slot: ActionSlot | None = None,
        top_k: int = 5,
        request_key: str | None = None,
    ) -> ActionDecision:
        raise self._unavailable()

    async def report_execution(
        self,
        user_id: str,
        decision_id: str,
        action_name: str,
        status: ReceiptStatus,
        *,
        idempotency_key: str,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> ExecutionReceiptResponse:
        raise self._unavailable()

    async def pending_confirmations(self, user_id: str) -> list[Memory]:
        raise self._unavailable()

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory:
        raise self._unavailable()

    async def forget(self, user_id: str, memory_id: str) -> int:
        raise self._unavailable()

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]:
        raise self._unavailable()

    async def close(self) -> None:
        return None


async def open_memory_backend_or_unavailable(
    settings: MemorySettings, database: SharedDatabase | None = None
) -> MemoryBackend:
    if not settings.enabled:
        return UnavailableBackend("memory is disabled (MEMORY_ENABLED=false)")
    try:
        return await open_memory_backend(settings, database)
    except MemoryLayerError as exc:
        log.error("memory backend unavailable, continuing without memory: %s", exc)
        return UnavailableBackend(str(exc))


async def check_backend(settings: MemorySettings, *, timeout_s: float = 3.0) -> str | None:
    """A startup probe: None when the backend answers, else a message a person can act on."""
    if not settings.enabled:
        return None
    try:
        if settings.api_key is not None:
            async with CloudClient(
                settings.base_url, settings.api_key.get_secret_value(), timeout=timeout_s
            ) as client:
                await client.health()
            return None
        database = SharedDatabase(settings.database_dsn) if settings.database_dsn else None
        try:
            backend = await open_memory_backend(settings, database)
            await backend.close()
        finally:
            if database is not None:
                await database.close()
        return None
    except ApiError as exc:
        return f"ContextDB Cloud at {settings.base_url} refused the health check: {exc}"
    except httpx.HTTPError as exc:
        return f"ContextDB Cloud at {settings.base_url} is unreachable ({type(exc).__name__})"
    except MemoryLayerError as exc:
        if settings.backend_name == "postgres":
            return f"the shared Postgres (DATABASE_URL) did not answer: {exc}"
        return f"local memory engine could not start: {exc}"


def describe_backend(settings: MemorySettings) -> str:
    if not settings.enabled:
        return "disabled"
    if settings.api_key is not None:
        return f"ContextDB Cloud ({settings.base_url})"
    if settings.backend_name == "postgres":
        return f"pycontextdb on the shared Postgres (embedder {settings.embedding_model})"
    return f"local engine ({settings.local_path}, embedder {settings.embedding_model})"
