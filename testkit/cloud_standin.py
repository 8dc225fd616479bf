"""A stand-in for ContextDB Cloud on loopback, for tests of the Cloud client and adapter.

ContextDB Cloud's `recall_for_action` names no slot: the Cloud adapter
(`backends.cloud.CloudMemory`) applies the slot rule to Cloud's own decision. The engine
service always decides in a slot, so this stand-in serves the engine service's routes over an
in-process engine and answers a request without a slot the way Cloud does. It lives here, not
in the library: no host code ever asks for an unslotted decision.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from contextdb_livekit.backends.engine_service import Handler, build_app
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.memory.models import ActionDecision
from testkit.harness import free_port


async def cloud_decision(
    engine: LocalEngine, user_id: str, query: str, request_key: str | None
) -> ActionDecision:
    """Cloud's own decision for `query`, recorded in the engine's ledger like any other.

    Uses the engine's private steps on purpose: the unslotted decision is Cloud's behaviour,
    which the library must not offer to host code."""

    async def decide() -> tuple[str, list[Any], list[str]]:
        verifier = engine._verifier_for(user_id)
        decided = await engine._guard(verifier.decide(query, user_id=user_id))
        return decided.kind, decided.memories, decided.pending_confirmation

    return await engine._evaluate(user_id, query, request_key, decide)


@dataclass
class CloudStandIn:
    """The running stand-in: its base URL, its engine, and the outage switch."""

    url: str
    engine: LocalEngine
    # While true, receipts are refused with 503, as during a Cloud outage.
    fail_receipts: bool = False
    refused: int = 0


@contextlib.asynccontextmanager
async def cloud_standin(
    db_path: Path, *, fail_receipts: bool = False
) -> AsyncIterator[CloudStandIn]:
    """The stand-in on a loopback port over an engine on `db_path`, until the block ends."""
    engine = await open_engine(db_path)
    port = free_port()
    standin = CloudStandIn(f"http://127.0.0.1:{port}", engine, fail_receipts=fail_receipts)

    @web.middleware
    async def as_cloud(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/v1/receipts" and standin.fail_receipts:
            standin.refused += 1
            return web.json_response({"code": "unavailable", "message": "outage"}, status=503)
        if request.path == "/v1/recall_for_action":
            body = await request.json()
            if not body.get("slot"):
                decision = await cloud_decision(
                    engine, body["user_id"], body["query"], body.get("request_key")
                )
                return web.json_response(dataclasses.asdict(decision))
        return await handler(request)

    app = build_app(engine, [0.0])
    app.middlewares.append(as_cloud)  # inside the service's own error handling
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
        yield standin
    finally:
        await runner.cleanup()
        await engine.close()
