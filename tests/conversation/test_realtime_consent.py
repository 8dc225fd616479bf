"""Realtime models, for real: one yes books once, whenever the caller's words arrive.

Each test runs the real `AgentSession` with the real OpenAI realtime plugin client against the
loopback Realtime API (`testkit.realtime_server`), for every order in which the provider may
deliver the caller's transcript (before its response, after the function call, after
`response.done`, never) × each scripted persona (obedient, sloppy, memory-obeying) × every
backend. LiveKit runs the confirmation tool as soon as the function call arrives, so in the
late orders the caller's "yes please" is not in the history when the tool starts.

What is asserted is what the host systems did — the calendar's bookings, the host's
attestations and the decision ledger's receipts — and what the caller heard after each of
their turns, as it happened. Never the final chat history: LiveKit files a late transcript at
the moment the caller started speaking, so the history looks ordered even when the tool ran
before the words arrived.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from calendar_client import LocalCalendar
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.confirmation import NOT_CAUGHT
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.room_guard import revoke
from testkit.line_host import local_host
from testkit.realtime_call import RealtimeCall, start_realtime_call
from testkit.realtime_server import TRANSCRIPT_ORDERS, LoopbackRealtime, RealtimeScript
from testkit.scripted_model import MODELS
from tests.conversation.conftest import caller, next_weekday
from tests.conversation.test_host_readback import INJECTED

# The scripted provider's transcript lag after its anchor event, and the host's bound on
# waiting for it: ten times the lag, so a slow machine never turns a late transcript into a
# missing one (the bound is behaviour under test, never a measure of speed).
TRANSCRIPT_DELAY_S = 0.3
TRANSCRIPT_WAIT_S = 3.0
READBACK = "Just to confirm: "
YES = "yes please"


@pytest.fixture(params=sorted(MODELS))
def model(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=TRANSCRIPT_ORDERS)
def order(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def make_realtime_call(tmp_path: Path, calendar: LocalCalendar):  # type: ignore[no-untyped-def]
    calls: list[RealtimeCall] = []
    servers: list[LoopbackRealtime] = []

    async def start(
        identity: CallerIdentity,
        *,
        backend,
        order: str,
        model: str,  # type: ignore[no-untyped-def]
    ) -> RealtimeCall:
        server = LoopbackRealtime(
            RealtimeScript(
                order=order,  # type: ignore[arg-type]
                transcript_delay_s=TRANSCRIPT_DELAY_S,
                policy=MODELS[model],
            )
        )
        servers.append(server)
        base_url = await server.start()
        host = local_host(
            tmp_path,
            backend,
            memory_settings=MemorySettings(
                _env_file=None, MEMORY_PREFETCH_BUDGET_MS=5000, MEMORY_GATE_BUDGET_MS=1000
            ),
            calendar=calendar,
        )
        call = await start_realtime_call(
            host, identity, server, base_url, transcript_wait_s=TRANSCRIPT_WAIT_S
        )
        calls.append(call)
        if model == "memory_obeying":
            # A note that slipped into the instructions: the persona then confirms on its own
            # and asks its own question naming the day (see test_host_readback).
            agent = call.call.agent
            await agent.update_instructions(agent.instructions + INJECTED)
            await call.settled()
        return call

    yield start
    for call in calls:
        await call.close()
    for server in servers:
        await server.close()


def spoken(happened: list[tuple[str, ...]]) -> list[str]:
    return [event[1] for event in happened if event[0] == "agent"]


def confirm_outputs(happened: list[tuple[str, ...]]) -> list[str]:
    return [e[2] for e in happened if e[0] == "tool" and e[1] == "confirm_read_back"]


def last_spoken(call: RealtimeCall) -> str:
    said = spoken(call.happened.events)
    return said[-1] if said else ""


async def say_yes_until_booked(
    call: RealtimeCall, calendar: LocalCalendar, customer_id: str, *, tries: int = 4
) -> int:
    """The caller answers yes to whatever they were asked until a booking exists; after each
    yes that books nothing, they must have been asked again (never left in silence), and a
    yes straight after the host's read-back is never called an answer to something else.
    Returns how many yeses it took."""
    for attempt in range(1, tries + 1):
        after_readback = last_spoken(call).startswith(READBACK)
        happened = await call.say(YES)
        if after_readback:
            for output in confirm_outputs(happened):
                assert "not to the read-back" not in output, happened
        if await calendar.bookings_for(customer_id):
            return attempt
        said = spoken(happened)
        assert said and said[-1].endswith("?"), f"stranded after {YES!r}: {happened}"
    raise AssertionError(f"no booking after {tries} yeses: {call.happened.events}")


async def assert_receipts(trail, customer_id: str, booking_ids: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Every decision closed by a receipt; a succeeded receipt for each booking, no other."""
    records = await trail(customer_id)
    assert all(r.status is not None for r in records), records
    assert sorted(r.external_ref for r in records if r.status == "succeeded") == sorted(booking_ids)
    assert all(r.policy_alignment == "aligned" for r in records), records


async def test_one_yes_books_once_whatever_the_transcript_order(
    make_realtime_call, backend, model, order, calendar, trail
):
    identity = caller()
    call = await make_realtime_call(identity, backend=backend, order=order, model=model)
    customer = identity.customer_id
    asked = await call.say("can you book a visit on thursday")
    # The host read it back (the sloppy persona may talk after it).
    assert any(s.startswith(READBACK) for s in spoken(asked)), asked

    if order == "never":
        # The caller's words never reach the host: nothing may count as a yes, and each yes
        # straight after a read-back is met with "didn't catch that" and the read-back again.
        for _ in range(3):
            after_readback = last_spoken(call).startswith(READBACK)
            happened = await call.say(YES)
            said = spoken(happened)
            assert said and said[-1].endswith("?"), f"stranded: {happened}"
            if after_readback and confirm_outputs(happened):
                # (the compromised persona may ask its own question instead of confirming)
                assert said[-2:] == [NOT_CAUGHT, said[-1]] and said[-1].startswith(READBACK)
        assert await calendar.bookings_for(customer) == []
        assert await call.context.host.attestations.for_customer(customer) == []
        await assert_receipts(trail, customer, [])
        # Once the words come through again, a yes to the read-back books, once.
        call.server.script.order = "after_response_done"

    await say_yes_until_booked(call, calendar, customer)
    await call.say(YES)  # a further yes is not a further booking
    [booking] = await calendar.bookings_for(customer)
    assert booking.day == next_weekday("thursday")
    # No fabricated action: the one booking rests on the caller's own yes to the host's own
    # read-back, kept before ContextDB was told.
    [attestation] = await call.context.host.attestations.for_customer(customer)
    assert attestation.turn_text == YES
    assert attestation.question_text.startswith(READBACK)
    await assert_receipts(trail, customer, [booking.booking_id])


async def test_a_late_yes_is_read_only_once_its_words_arrive(make_realtime_call, local_engine):
    """The tool starts before the words: it waits for them, and the caller hears the result
    of their yes, not a second read-back."""
    identity = caller()
    call = await make_realtime_call(
        identity, backend=local_engine, order="after_response_done", model="obedient"
    )
    await call.say("can you book a visit on thursday")
    happened = await call.say(YES)
    # The race really ran: the model's call and its response were out before the words.
    wire = call.server.log.wire
    turn = wire[wire.index(f"caller:{YES}") :]
    assert turn.index("call:confirm_read_back") < turn.index("response.done")
    assert turn.index("response.done") < turn.index(f"transcript:{YES}")
    [output] = confirm_outputs(happened)
    assert output.startswith("Booked a service visit")
    assert [s for s in spoken(happened) if s.startswith(READBACK)] == []


async def test_a_transcript_that_never_comes_is_never_a_yes(
    make_realtime_call, local_engine, calendar
):
    identity = caller()
    call = await make_realtime_call(identity, backend=local_engine, order="never", model="obedient")
    await call.say("can you book a visit on thursday")
    happened = await call.say(YES)
    [output] = confirm_outputs(happened)
    assert output.startswith("Not confirmed: I did not catch")
    assert spoken(happened)[-2] == NOT_CAUGHT
    assert spoken(happened)[-1].startswith(READBACK)
    assert await calendar.bookings_for(identity.customer_id) == []


def test_the_realtime_matrix_covers_every_order() -> None:
    # The four orders; a new order in the server must come with its tests.
    assert TRANSCRIPT_ORDERS == (
        "before_response",
        "after_function_call",
        "after_response_done",
        "never",
    )


async def test_a_call_revoked_while_waiting_for_the_words_acts_on_nothing(
    make_realtime_call, local_engine, calendar
):
    """Another participant joined (room_guard revokes the call) while the tool waited."""
    identity = caller()
    call = await make_realtime_call(identity, backend=local_engine, order="never", model="obedient")
    await call.say("can you book a visit on thursday")
    answering = asyncio.ensure_future(call.say(YES))
    wire = call.server.log.wire
    async with asyncio.timeout(30):
        while wire[-1:] != ["response.done"] or "call:confirm_read_back" not in wire:
            await asyncio.sleep(0.05)
    revoke(call.context, "unexpected participant")
    happened = await answering
    assert confirm_outputs(happened) == [
        "This call is no longer verified. Do not act on the account."
    ]
    assert NOT_CAUGHT not in spoken(happened)
    assert await calendar.bookings_for(identity.customer_id) == []
    assert await call.context.host.attestations.for_customer(identity.customer_id) == []
