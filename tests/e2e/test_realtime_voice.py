"""A realtime model end to end: the real worker with USE_REALTIME_MODEL=true, livekit-server,
spoken caller audio, and the loopback Realtime API delivering the caller's transcript only
after its response (the order in which the confirmation tool starts before the words)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from calendar_client import LocalCalendar
from testkit.engine import stop_engine_if_running
from testkit.harness import start_scripted_openai, start_worker, stop
from testkit.voice import join_as_voice_caller
from tests.e2e.test_voice import (
    BOOK,
    VOICE_WORKER,
    YES,
    decision_trail,
    message_where,
    seed_history,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def late_transcript_openai(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url, proc = start_scripted_openai(
        tmp_path_factory.mktemp("openai-realtime") / "server.log",
        "--realtime-order",
        "after_response_done",
        "--transcript-delay-ms",
        "500",
    )
    try:
        yield url
    finally:
        stop(proc)


async def test_returning_caller_books_by_voice_with_one_yes_when_the_words_come_late(
    livekit_server, late_transcript_openai, tmp_path: Path
):
    worker = start_worker(
        livekit_server,
        late_transcript_openai,
        tmp_path / "worker",
        USE_REALTIME_MODEL="true",
        **VOICE_WORKER,
    )
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    try:
        await seed_history(worker, customer)
        caller = await join_as_voice_caller(livekit_server, worker, customer)
        try:
            greeting = await caller.text.next_message(timeout_s=30)
            assert "Vaillant" in greeting  # the snapshot reached the realtime model
            await caller.agent_quiet()

            seen = len(caller.text.agent_messages)
            await caller.say(BOOK)
            asked = await message_where(caller, seen, lambda m: m.startswith("Just to confirm"))
            await caller.agent_quiet()

            seen = len(caller.text.agent_messages)
            await caller.say(YES)  # once
            booked = await message_where(caller, seen, lambda m: m.startswith("Booked"))
            await caller.agent_quiet()
        finally:
            await caller.hang_up()
        assert "book a service visit on Thursday" in asked
        assert "Thursday" in booked

        [booking] = await LocalCalendar(worker.calendar_path).bookings_for(customer)
        trail = await decision_trail(worker, customer)
        assert [(d.outcome, d.status) for d in trail] == [
            ("abstain", "skipped"),
            ("ask", "skipped"),
            ("act", "succeeded"),
        ]
        assert trail[-1].external_ref == booking.booking_id
        # The race ran: the model's confirmation call and its response.done went out before
        # the caller's words did.
        base = late_transcript_openai.removesuffix("/v1")
        async with httpx.AsyncClient() as client:
            wire = (await client.get(f"{base}/debug/realtime")).json()["wire"]
        turn = wire[wire.index(f"caller:{YES}") :]
        assert turn.index("call:confirm_read_back") < turn.index("response.done")
        assert turn.index("response.done") < turn.index(f"transcript:{YES}")
    finally:
        stop(worker.proc, timeout_s=30)
        with contextlib.suppress(Exception):
            await stop_engine_if_running(worker.memory_path)
