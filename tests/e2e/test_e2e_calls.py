"""End to end: real livekit-server, `python agent.py dev`, a caller over lk.chat."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.identity.host_tokens import mint_participant_token
from testkit.cloud_standin import cloud_standin
from testkit.harness import API_KEY, API_SECRET, join_as_caller
from testkit.history import seed_history as seed

pytestmark = pytest.mark.e2e


async def seed_history(worker, customer_id: str) -> None:  # type: ignore[no-untyped-def]
    await seed(worker.memory_path, customer_id, "My boiler is a Vaillant ecoTEC in the loft")


async def test_returning_caller_books_through_ask_confirm_act(livekit_server, worker_factory):
    worker = worker_factory()
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    await seed_history(worker, customer)

    caller = await join_as_caller(livekit_server, worker, customer)
    try:
        greeting = await caller.next_message(timeout_s=30)
        assert "Vaillant" in greeting  # the snapshot reached the first message

        [asked] = await caller.say("I'd like to book a visit on thursday")
        assert asked.startswith("Just to confirm: shall I book a service visit on")
        [confirmed] = await caller.say("Yes please")
        assert confirmed.startswith("Booked a service visit on")
    finally:
        await caller.hang_up()

    [booking] = await LocalCalendar(worker.calendar_path).bookings_for(customer)
    engine = await connect_local_engine(worker.memory_path)
    try:
        trail = await engine.decision_trail(customer)
    finally:
        await engine.close()
    assert [(d.outcome, d.status, d.policy_alignment) for d in trail] == [
        ("abstain", "skipped", "aligned"),
        ("ask", "skipped", "aligned"),
        ("act", "succeeded", "aligned"),
    ]
    assert trail[-1].external_ref == booking.booking_id


async def test_tampered_claim_gets_no_memory_and_no_booking(livekit_server, worker_factory):
    worker = worker_factory()
    victim = f"cust-{uuid.uuid4().hex[:8]}"
    await seed_history(worker, victim)
    room_name = f"call-{uuid.uuid4().hex[:8]}"
    token = mint_participant_token(
        api_key=API_KEY,
        api_secret=API_SECRET,
        room_name=room_name,
        participant_identity=victim,  # pretends to be the victim by name
        customer_id=victim,
        identity_secret="an-attacker-guessed-secret-0123456789",
        agent_name=worker.agent_name,
    )
    caller = await join_as_caller(livekit_server, worker, victim, room_name=room_name, token=token)
    try:
        greeting = await caller.next_message(timeout_s=30)
        assert "Vaillant" not in greeting
        [reply] = await caller.say("Book a visit on thursday")
        assert "Vaillant" not in reply
        assert "Booked" not in reply
    finally:
        await caller.hang_up()
    assert await LocalCalendar(worker.calendar_path).bookings_for(victim) == []
    assert "caller not authenticated: invalid_claim" in worker.log()


async def test_hang_up_writes_durable_facts(livekit_server, worker_factory):
    worker = worker_factory()
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(livekit_server, worker, customer)
    try:
        await caller.next_message(timeout_s=30)
        await caller.say("Remember that the side gate code is 4411")
        await caller.say("My dog is friendly but barks at the door")
        # The line ends the call: the host reads back what it will note, the caller agrees.
        [review] = await caller.say("that's all, bye")
        assert review.startswith("Before you go, I'll note that"), review
        assert "4411" not in review
        await caller.say("yes, that's right")
    finally:
        await caller.hang_up()

    def access_note(by_source: set[tuple[str, str]]) -> bool:
        return any(
            s == "user_stated" and "side gate" in c and "access code on file" in c
            for s, c in by_source
        )

    def pets_note(by_source: set[tuple[str, str]]) -> bool:
        return any(
            s == "user_stated" and c.startswith("Pets, in the caller's words:") and "friendly" in c
            for s, c in by_source
        )

    # The write lands after the worker's shutdown; wait (bounded) until both notes can be
    # recalled, not only the first (one seen before the other failed here under load).
    engine = await connect_local_engine(worker.memory_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            recalled = await engine.recall(customer, "dog gate", top_k=10)
            by_source = {(m.epistemic_source, m.content) for m in recalled.memories}
            if (access_note(by_source) and pets_note(by_source)) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
    finally:
        await engine.close()
    # The caller's own words, confirmed and typed: an access note with the code never stored,
    # and the dog in its own slot (pets).
    assert access_note(by_source), by_source
    assert pets_note(by_source), by_source
    assert not any("4411" in c for _, c in by_source)


async def test_memory_backend_down_call_starts_and_fails_closed(livekit_server, worker_factory):
    dead_port = 9  # discard port on loopback: nothing listens there
    worker = worker_factory(
        CONTEXTDB_API_KEY="cdb_e2e_unreachable",
        CONTEXTDB_BASE_URL=f"http://127.0.0.1:{dead_port}",
        MEMORY_PREFETCH_BUDGET_MS="300",
    )
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    caller = await join_as_caller(livekit_server, worker, customer)
    try:
        greeting = await caller.next_message(timeout_s=30)  # the call starts without memory
        assert greeting
        [reply] = await caller.say("Book a visit on thursday")
        assert "have not done anything" in reply
    finally:
        await caller.hang_up()
    assert await LocalCalendar(worker.calendar_path).bookings_for(customer) == []
    assert "snapshot for caller" in worker.log() and "(unavailable:" in worker.log()


async def test_cloud_outage_receipts_land_later_from_the_outbox(
    livekit_server, worker_factory, tmp_path
):
    # ContextDB Cloud during an outage: it decides, but refuses every receipt with 503.
    async with cloud_standin(tmp_path / "cloud.sqlite3", fail_receipts=True) as cloud:
        engine = cloud.engine
        worker = worker_factory(CONTEXTDB_API_KEY="cdb_e2e_flaky", CONTEXTDB_BASE_URL=cloud.url)
        customer = f"cust-{uuid.uuid4().hex[:8]}"
        caller = await join_as_caller(livekit_server, worker, customer)
        try:
            await caller.next_message(timeout_s=30)
            [asked] = await caller.say("Book a visit on thursday")
            assert asked.startswith("Just to confirm")
            [booked] = await caller.say("yes")
            assert booked.startswith("Booked a service visit on")
        finally:
            await caller.hang_up()
        assert cloud.refused >= 3
        await worker.wait_for_log("end-of-call write")  # the first job is over
        trail = await engine.decision_trail(customer)
        assert [d.status for d in trail] == [None, None, None]  # nothing landed yet

        # Cloud recovers; the next call's job drains the outbox it finds.
        cloud.fail_receipts = False
        second = await join_as_caller(livekit_server, worker, f"cust-{uuid.uuid4().hex[:8]}")
        try:
            await second.next_message(timeout_s=30)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                trail = await engine.decision_trail(customer)
                if all(d.status for d in trail):
                    break
                await asyncio.sleep(0.5)
        finally:
            await second.hang_up()
        assert [(d.outcome, d.status) for d in trail] == [
            ("abstain", "skipped"),
            ("ask", "skipped"),
            ("act", "succeeded"),
        ]
        [booking] = await LocalCalendar(worker.calendar_path).bookings_for(customer)
        assert trail[-1].external_ref == booking.booking_id
