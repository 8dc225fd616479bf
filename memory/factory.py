"""Pick the backend from settings: ContextDB Cloud with an API key, else the local engine."""

from __future__ import annotations

import logging

from memory.backend import MemoryBackend
from memory.cloud import CloudMemory
from memory.engine_client import connect_local_engine
from memory.settings import MemorySettings

log = logging.getLogger("memory")


async def open_memory_backend(settings: MemorySettings) -> MemoryBackend:
    if settings.api_key is not None:
        log.info("memory backend: ContextDB Cloud at %s", settings.base_url)
        return CloudMemory.connect(
            settings.base_url,
            settings.api_key.get_secret_value(),
            timeout_s=settings.cloud_timeout_s,
        )
    log.info("memory backend: local engine on %s", settings.local_path)
    return await connect_local_engine(
        settings.local_path,
        idle_exit_s=settings.engine_idle_exit_s,
        embedding_model=settings.embedding_model,
    )


def describe_backend(settings: MemorySettings) -> str:
    if settings.api_key is not None:
        return f"ContextDB Cloud ({settings.base_url})"
    return f"local engine ({settings.local_path}, embedder {settings.embedding_model})"
