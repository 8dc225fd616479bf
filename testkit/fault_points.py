"""Fault injection from outside the production classes: wrappers around a store that run a
test's hook at named steps, so a test can kill or fail the engine or the flusher exactly
there. Nothing here is imported by the package.

The engine's steps (`with_faults(engine, hook)`, or `FaultyLedger` alone):
a decision's "decision:decided" (decided, not recorded) and "decision:recorded" (recorded,
not answered); a receipt's "receipt:reported" (stored, not answered); a fact write's "begun"
(its record is `in_progress`), "fact:<i>" (fact i stored) and "recorded" (record `done`).

The flusher's steps (`FaultyOutbox(outbox, hook)`), each with the row: "claimed" (claimed,
about to renew), "renewed", "resolved" (an intent resolved), "delivered" (sent, not yet
marked done) and "settled" (a failure settled on the row).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import contextdb

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.stores.engine import EngineClients
from contextdb_livekit.stores.ledger import DecisionLedger, ReceiptRequest, WriteRecord
from contextdb_livekit.stores.outbox import Outbox, OutboxItem, OutboxState

StepHook = Callable[[str], Awaitable[None]]
RowHook = Callable[[str, OutboxItem], Awaitable[None]]


class _Delegate:
    """Everything not overridden goes to the wrapped object."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class FaultyLedger(_Delegate):
    def __init__(self, inner: DecisionLedger, hook: StepHook) -> None:
        super().__init__(inner)
        self._hook = hook

    async def record_decision(self, **kwargs: Any) -> Any:
        await self._hook("decision:decided")
        decision = await self._inner.record_decision(**kwargs)
        await self._hook("decision:recorded")
        return decision

    async def report(self, request: ReceiptRequest) -> Any:
        response = await self._inner.report(request)
        await self._hook("receipt:reported")
        return response

    async def begin_write(
        self, idempotency_key: str, payload_hash: str, user_id: str
    ) -> WriteRecord:
        record: WriteRecord = await self._inner.begin_write(idempotency_key, payload_hash, user_id)
        if record.state != "done":
            await self._hook("begun")
        return record

    async def complete_write(self, idempotency_key: str, ids: list[str]) -> None:
        await self._inner.complete_write(idempotency_key, ids)
        await self._hook("recorded")

    def write_guard(self, idempotency_key: str) -> contextlib.AbstractAsyncContextManager[None]:
        return self._inner.write_guard(idempotency_key)  # type: ignore[no-any-return]

    def close(self) -> None:
        self._inner.close()


class _FaultyFactual(_Delegate):
    def __init__(self, inner: Any, hook: StepHook) -> None:
        super().__init__(inner)
        self._hook = hook

    async def add(self, *args: Any, **kwargs: Any) -> Any:
        item = await self._inner.add(*args, **kwargs)
        await self._hook(f"fact:{kwargs['metadata']['fact_index']}")
        return item


class _FaultyClient(_Delegate):
    def __init__(self, inner: contextdb.ContextDB, hook: StepHook) -> None:
        super().__init__(inner)
        self.factual = _FaultyFactual(inner.factual, hook)


class FaultyClients(_Delegate):
    def __init__(self, inner: EngineClients, hook: StepHook) -> None:
        super().__init__(inner)
        self._hook = hook

    async def client_for(self, user_id: str) -> Any:
        return _FaultyClient(await self._inner.client_for(user_id), self._hook)

    def opened(self, user_id: str) -> Any:
        return _FaultyClient(self._inner.opened(user_id), self._hook)


def with_faults(engine: LocalEngine[Any], hook: StepHook) -> LocalEngine[Any]:
    """The same engine (same clients, same ledger), with `hook` run at its steps. Close the
    engine it wraps, not this one."""
    return LocalEngine(FaultyClients(engine.clients, hook), FaultyLedger(engine.ledger, hook))  # type: ignore[arg-type]


class FaultyOutbox(_Delegate):
    """An outbox whose flusher-side steps run `hook(step, row)` (see the module docstring)."""

    def __init__(self, inner: Outbox, hook: RowHook) -> None:
        super().__init__(inner)
        self._hook = hook

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        await self._hook("claimed", item)
        renewed: bool = await self._inner.renew(item, lease_s)
        if renewed:
            await self._hook("renewed", item)
        return renewed

    async def resolve_intent(self, item: OutboxItem, payload: dict[str, Any]) -> Any:
        resolved = await self._inner.resolve_intent(item, payload)
        if resolved is not None:
            await self._hook("resolved", resolved)
        return resolved

    async def finish_claim(self, item: OutboxItem) -> None:
        await self._hook("delivered", item)
        await self._inner.finish_claim(item)

    async def settle_claim(
        self, item: OutboxItem, failure: Any, **kwargs: Any
    ) -> OutboxState | None:
        state: OutboxState | None = await self._inner.settle_claim(item, failure, **kwargs)
        await self._hook("settled", item)
        return state
