"""End to end: a phone caller is resolved and recalled while the line rings (worker.ring),
and the worker's Prometheus endpoint serves memory's series from the job processes.

The SIP caller is a participant of kind SIP with `sip.phoneNumber` and `sip.callStatus`
attributes, as LiveKit's SIP service mints it; the answer is the server-side attribute
update the SIP service makes (ringing → active)."""

from __future__ import annotations

import asyncio
import re
import time
import uuid

import httpx
import pytest
from livekit import rtc

from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from testkit.harness import free_port, join_as_caller
from testkit.history import seed_history
from testkit.sip import answer, sip_token
from testkit.voice import join_as_voice_caller

pytestmark = pytest.mark.e2e


def metric(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = rf"^{re.escape(name)}(?:\{{{re.escape(wanted)}\}})? ([0-9.e+-]+)$"
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def test_a_ringing_phone_caller_is_greeted_with_history_fetched_before_the_answer(
    livekit_server, worker_factory, tmp_path
):
    prometheus_port = free_port()
    worker = worker_factory(
        # The production budget: the ring extends it (Call.open), so even a cold engine's
        # slow first recall on a busy host lands before the answer.
        MEMORY_PREFETCH_BUDGET_MS="300",
        WORKER_PROMETHEUS_PORT=str(prometheus_port),
        WORKER_PROMETHEUS_DIR=str(tmp_path / "prometheus"),
    )
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    phone = f"+44207{uuid.uuid4().int % 10**7:07d}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC in the loft")
    await SqliteCustomerDirectory(worker.env["CUSTOMER_DIRECTORY_PATH"]).add(phone, customer)
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    identity = f"sip_{phone}"

    caller = await join_as_voice_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=sip_token(room_name, identity, phone, worker.agent_name, "ringing"),
    )
    try:
        # While it rings the worker resolves the number and recalls, and says nothing.
        await worker.wait_for_log("snapshot for caller", timeout_s=60)
        await caller.wait_agent_track()
        await asyncio.sleep(1.0)
        assert caller.text.agent_messages == [] and caller.agent_voiced_at == []
        assert "caller's line answered" not in worker.log()

        answered_at = time.monotonic()
        await answer(livekit_server.http_url, room_name, identity)
        first_voice = await caller.agent_voice_after(answered_at, timeout_s=30)
        greeting = await caller.text.next_message(timeout_s=30)
        print(f"answer -> first agent audio {(first_voice - answered_at) * 1000:.0f} ms")
        assert "Vaillant" in greeting  # the history fetched at ring time is in the greeting
    finally:
        await caller.hang_up()

    log = worker.log()
    [snapshot] = [line for line in log.splitlines() if "snapshot for caller" in line]
    assert "1 memories" in snapshot and "unavailable" not in snapshot
    # Fetched before the answer: the greeting waited for the caller, not for memory.
    assert log.index("snapshot for caller") < log.index("caller's line answered")

    await worker.wait_for_log("end-of-call write", timeout_s=60)
    async with httpx.AsyncClient(timeout=10) as http:
        scraped = (await http.get(f"http://127.0.0.1:{prometheus_port}/metrics")).text
    assert metric(scraped, "contextdb_snapshots_total", result="hit") == 1.0
    assert metric(scraped, "contextdb_snapshot_seconds_count") == 1.0
    assert re.search(r"^contextdb_outbox_depth", scraped, re.MULTILINE)
    assert re.search(r"^contextdb_outbox_parked", scraped, re.MULTILINE)


async def test_a_phone_caller_who_hangs_up_while_ringing_gets_no_greeting(
    livekit_server, worker_factory
):
    worker = worker_factory()
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    phone = f"+44207{uuid.uuid4().int % 10**7:07d}"
    await SqliteCustomerDirectory(worker.env["CUSTOMER_DIRECTORY_PATH"]).add(phone, customer)
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=sip_token(room_name, f"sip_{phone}", phone, worker.agent_name, "ringing"),
    )
    await worker.wait_for_log("snapshot for caller", timeout_s=60)
    await caller.hang_up()
    await worker.wait_for_log("caller's line not answered", timeout_s=30)
    assert caller.agent_messages == []


async def agent_left(caller_room, timeout_s: float = 30) -> None:  # type: ignore[no-untyped-def]
    """Until no agent participant is in the caller's room (the job ended)."""
    deadline = time.monotonic() + timeout_s
    while any(
        p.kind == rtc.ParticipantKind.PARTICIPANT_KIND_AGENT
        for p in caller_room.remote_participants.values()
    ):
        if time.monotonic() > deadline:
            raise TimeoutError("the agent is still in the room")
        await asyncio.sleep(0.1)


async def test_a_ring_nobody_answers_ends_the_call_and_revokes_memory(
    livekit_server, worker_factory
):
    worker = worker_factory(RING_TIMEOUT_S="3", MEMORY_PREFETCH_BUDGET_MS="5000")
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    phone = f"+44207{uuid.uuid4().int % 10**7:07d}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC in the loft")
    await SqliteCustomerDirectory(worker.env["CUSTOMER_DIRECTORY_PATH"]).add(phone, customer)
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=sip_token(room_name, f"sip_{phone}", phone, worker.agent_name, "ringing"),
    )
    try:
        await worker.wait_for_log("snapshot for caller", timeout_s=60)
        # Whoever holds the ringing participant is nobody yet: a typed question is dropped.
        await caller.room.local_participant.send_text("what boiler do I have?", topic="lk.chat")
        await worker.wait_for_log("not the admitted caller dropped", timeout_s=30)
        # Nobody answers: the ring ends, memory is revoked, the job leaves the room.
        await worker.wait_for_log("caller's line not answered (not_answered)", timeout_s=30)
        await worker.wait_for_log("call memory revoked: ring_not_answered", timeout_s=10)
        await agent_left(caller.room)
        assert caller.agent_messages == []
        log = worker.log()
        assert "caller left before the greeting" not in log
        assert "caller's line answered" not in log
    finally:
        await caller.hang_up()


async def test_an_outbound_call_that_is_dialing_is_not_answered(livekit_server, worker_factory):
    worker = worker_factory(MEMORY_PREFETCH_BUDGET_MS="5000")
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    phone = f"+44207{uuid.uuid4().int % 10**7:07d}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC in the loft")
    await SqliteCustomerDirectory(worker.env["CUSTOMER_DIRECTORY_PATH"]).add(phone, customer)
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    identity = f"sip_{phone}"
    caller = await join_as_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=sip_token(room_name, identity, phone, worker.agent_name, "dialing"),
    )
    try:
        await worker.wait_for_log("snapshot for caller", timeout_s=60)
        await caller.room.local_participant.send_text("what boiler do I have?", topic="lk.chat")
        await worker.wait_for_log("not the admitted caller dropped", timeout_s=30)
        assert caller.agent_messages == []  # no greeting to a line still dialing
        await answer(livekit_server.http_url, room_name, identity)
        greeting = await caller.next_message(timeout_s=30)
        assert "Vaillant" in greeting
    finally:
        await caller.hang_up()


async def test_a_formatted_caller_number_finds_the_caller(livekit_server, worker_factory):
    """The SIP service may send the number with spaces; the directory holds E.164."""
    worker = worker_factory(MEMORY_PREFETCH_BUDGET_MS="5000")
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    digits = f"{uuid.uuid4().int % 10**7:07d}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC in the loft")
    await SqliteCustomerDirectory(worker.env["CUSTOMER_DIRECTORY_PATH"]).add(
        f"+44207{digits}", customer
    )
    formatted = f"+44 20 7{digits[:3]} {digits[3:]}"
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=sip_token(room_name, "sip_caller", formatted, worker.agent_name, "active"),
    )
    try:
        greeting = await caller.next_message(timeout_s=60)
        assert "Vaillant" in greeting  # found by number: the caller's history is recalled
        assert "caller not authenticated" not in worker.log()
    finally:
        await caller.hang_up()
