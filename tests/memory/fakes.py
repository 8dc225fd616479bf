"""Backends that fail on purpose, wrapped around a real one."""

from __future__ import annotations

import asyncio
from typing import Any

from contextdb_livekit.memory.errors import MemoryUnavailable


class FlakyBackend:
    """Delegates to a real backend; named methods fail (or stall) while `down` is set."""

    def __init__(self, inner: Any, *, failing: set[str], stall_s: float | None = None) -> None:
        self._inner = inner
        self.failing = failing
        self.stall_s = stall_s
        self.down = True
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            if self.down and name in self.failing:
                if self.stall_s is not None:
                    await asyncio.sleep(self.stall_s)
                raise MemoryUnavailable(f"{name} is down", code="network")
            return await target(*args, **kwargs)

        return call
