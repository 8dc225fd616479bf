"""End to end (issue 21.4): real livekit-server, `python agent.py dev`, a caller over lk.chat.
The caller confirms a booking and, while its result is being said (a speech that may not be
interrupted), types "we have three boilers". The turn is answered after the result, and the
unit count is in the caller's memory after the call."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from testkit.harness import join_as_caller

pytestmark = pytest.mark.e2e

LINE = "we have three boilers"


async def test_a_line_typed_while_the_booking_result_plays_is_kept(livekit_server, worker_factory):
    worker = worker_factory()
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(livekit_server, worker, customer)
    try:
        await caller.next_message(timeout_s=30)
        [asked] = await caller.say("I'd like to book a visit on thursday")
        assert asked.startswith("Just to confirm")
        seen = len(caller.agent_messages)
        await caller.room.local_participant.send_text("Yes please", topic="lk.chat")
        # The booking's receipt is written before its result is said: from then on the
        # result's speech may not be interrupted, and the caller types.
        await worker.wait_for_log("succeeded aligned", timeout_s=30)
        await caller.room.local_participant.send_text(LINE, topic="lk.chat")
        deadline = time.monotonic() + 40
        while len(caller.agent_messages) < seen + 2:
            assert time.monotonic() < deadline, caller.agent_messages[seen:]
            await asyncio.sleep(0.1)
        assert caller.agent_messages[seen].startswith("Booked a service visit")
    finally:
        await caller.hang_up()
    assert "does not allow interruptions" not in worker.log()
    assert "caller turn kept while a side effect speaks" in worker.log()
    assert len(await LocalCalendar(worker.calendar_path).bookings_for(customer)) == 1
    engine = await connect_local_engine(worker.memory_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            recalled = await engine.recall(customer, "we have three boilers", top_k=20)
            contents = [m.content for m in recalled.memories]
            if any(kept(c) for c in contents) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
    finally:
        await engine.close()
    # The call ended without the host's review read-back: the typed line is kept as the
    # caller's own words, unconfirmed (tools.review).
    assert any(kept(c) for c in contents), contents


def kept(content: str) -> bool:
    return f'"{LINE}"' in content and "not confirmed" in content
