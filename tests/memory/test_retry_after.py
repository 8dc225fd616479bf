"""Retry-After from ContextDB Cloud (issue 21.5): the official client exposes no headers, so
the adapter reads them on the client's httpx transport. Against a real HTTP server on
loopback answering 429/503, the hint reaches the error and the outbox waits that long."""

from __future__ import annotations

import email.utils
import time
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from contextdb_livekit.backends.cloud import CloudMemory, parse_retry_after
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.support import plain_fact


@pytest.fixture
async def cloud_answering() -> AsyncIterator[tuple[str, list]]:
    """A Cloud stand-in whose answers the test queues: (status, headers) per request."""
    answers: list[tuple[int, dict[str, str]]] = []

    async def anything(request: web.Request) -> web.Response:
        status, headers = answers.pop(0) if answers else (200, {})
        body = {"code": "rate_limited" if status == 429 else "unavailable", "message": "later"}
        return web.json_response(body, status=status, headers=headers)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", anything)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield f"http://127.0.0.1:{port}", answers
    await runner.cleanup()


@pytest.mark.parametrize(
    ("status", "header", "expected"),
    [
        (429, "7", 7.0),
        (503, "http-date+30", 30.0),
        (429, None, None),
        (503, "soon", None),
    ],
    ids=["429-seconds", "503-date", "429-none", "503-garbage"],
)
async def test_retry_after_reaches_the_error(cloud_answering, status, header, expected) -> None:
    base_url, answers = cloud_answering
    if header == "http-date+30":
        header = email.utils.formatdate(time.time() + 30, usegmt=True)
    answers.append((status, {"Retry-After": header} if header else {}))
    memory = CloudMemory.connect(base_url, "cdb_test_key", timeout_s=5)
    try:
        with pytest.raises(MemoryUnavailable) as caught:
            await memory.remember_many("cust-1", [plain_fact("x")], idempotency_key="k-ra-1")
    finally:
        await memory.close()
    if expected is None:
        assert caught.value.retry_after_s is None
    else:
        assert caught.value.retry_after_s == pytest.approx(expected, abs=1.5)


async def test_a_hint_from_an_earlier_answer_does_not_leak_into_the_next(cloud_answering) -> None:
    base_url, answers = cloud_answering
    answers += [(429, {"Retry-After": "9"}), (503, {})]
    memory = CloudMemory.connect(base_url, "cdb_test_key", timeout_s=5)
    try:
        for _ in range(2):
            with pytest.raises(MemoryUnavailable) as caught:
                await memory.recall("cust-1", "boiler")
        assert caught.value.retry_after_s is None
    finally:
        await memory.close()


async def test_the_outbox_waits_what_cloud_asked(cloud_answering, tmp_path) -> None:
    base_url, answers = cloud_answering
    answers.append((429, {"Retry-After": "42"}))
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    await outbox.put(
        "k-ra-row", "remember_many", "cust-1", {"facts": [plain_fact("x").as_item()]}, hold=False
    )
    memory = CloudMemory.connect(base_url, "cdb_test_key", timeout_s=5)
    try:
        assert await OutboxFlusher(outbox, memory, {}).flush_once() == 0
    finally:
        await memory.close()
    [row] = await outbox.items()
    assert row.next_attempt_at - time.time() == pytest.approx(42, abs=2)
    assert parse_retry_after("120") == 120.0
