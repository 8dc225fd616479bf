"""Typed input is bounded while it is read — a real livekit-server and `agent.py dev`.

LiveKit's RoomIO reads a whole lk.chat stream before any callback sees it; a stream that
never closes was held whole (120 MB sent, the job grew by 125 MB, the next question waited
75 s). The worker reads it itself with a byte bound (worker.typed_input)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from testkit.harness import join_as_caller
from testkit.history import seed_history

pytestmark = pytest.mark.e2e
WORKER = {"MEMORY_PREFETCH_BUDGET_MS": "5000"}


async def test_a_typed_stream_that_never_closes_is_cut_and_the_next_question_answered(
    livekit_server, worker_factory
):
    worker = worker_factory(**WORKER)
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC 825")
    caller = await join_as_caller(livekit_server, worker, customer)
    try:
        assert "Vaillant" in await caller.next_message(timeout_s=30)
        seen = len(caller.agent_messages)
        writer = await caller.room.local_participant.stream_text(topic="lk.chat")
        chunk = "which days are open " * 500  # 10 KB
        for _ in range(100):  # 1 MB, and the stream is never closed
            await writer.write(chunk)
        # What was kept (up to the bound) is a turn of its own: it is answered while the
        # sender is still holding the stream open. Read whole, it would never be answered.
        deadline = asyncio.get_running_loop().time() + 30
        while len(caller.agent_messages) <= seen:
            assert asyncio.get_running_loop().time() < deadline, "the cut message got no answer"
            await asyncio.sleep(0.05)
        await worker.wait_for_log("the rest is not read", timeout_s=10)
        [answer] = await caller.say("Which days are available?", timeout_s=30)
        assert "open" in answer.lower() or "day" in answer.lower(), answer
    finally:
        await caller.hang_up()
    await worker.wait_for_log("end-of-call write", timeout_s=60)
    assert worker.tracebacks() == []
