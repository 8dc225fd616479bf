"""The caller is a participant, not an identity string — against a real livekit-server."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from livekit import api

from calendar_client import LocalCalendar
from contextdb_livekit.identity.host_tokens import mint_participant_token
from contextdb_livekit.worker.room_guard import EXTRA_PARTICIPANT_LINE
from testkit.harness import API_KEY, API_SECRET, IDENTITY_SECRET, join_as_caller
from testkit.history import seed_history

pytestmark = pytest.mark.e2e


def plain_token(room_name: str, identity: str) -> str:
    """A join token with no identity claim and no dispatch: what a stranger could hold."""
    grants = api.VideoGrants(room_join=True, room=room_name, can_update_own_metadata=False)
    return api.AccessToken(API_KEY, API_SECRET).with_identity(identity).with_grants(grants).to_jwt()


async def until(predicate, timeout_s: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.1)


async def _call_with_history(livekit_server, worker):  # type: ignore[no-untyped-def]
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    await seed_history(worker.memory_path, customer, "My boiler is a Vaillant ecoTEC 825")
    room_name, identity = f"call-{uuid.uuid4().hex[:8]}", f"caller-{uuid.uuid4().hex[:6]}"
    token = mint_participant_token(
        api_key=API_KEY, api_secret=API_SECRET, room_name=room_name,
        participant_identity=identity, customer_id=customer,
        identity_secret=IDENTITY_SECRET, agent_name=worker.agent_name,
    )  # fmt: skip
    caller = await join_as_caller(
        livekit_server, worker, customer, room_name=room_name, token=token
    )
    greeting = await caller.next_message(timeout_s=30)
    assert "Vaillant" in greeting
    return customer, room_name, identity, caller


async def test_a_connection_under_the_callers_identity_must_authenticate_again(
    livekit_server, worker_factory
):
    worker = worker_factory()
    customer, room_name, identity, caller = await _call_with_history(livekit_server, worker)
    # Same identity, no claim: LiveKit replaces the caller's connection with this one.
    impostor = await join_as_caller(
        livekit_server,
        worker,
        customer,
        room_name=room_name,
        token=plain_token(room_name, identity),
    )
    try:
        await worker.wait_for_log("replacing participant failed re-authentication")
        with pytest.raises(TimeoutError):
            await impostor.say("book a visit on thursday", timeout_s=5)
        # Not even the closing line: nothing is sent to a connection that is not admitted.
        assert impostor.agent_messages == []
    finally:
        await impostor.hang_up()
        await caller.hang_up()
    assert await LocalCalendar(worker.calendar_path).bookings_for(customer) == []


async def test_an_extra_participant_gets_nothing_recalled_and_the_call_ends(
    livekit_server, worker_factory
):
    worker = worker_factory()
    customer, room_name, _, caller = await _call_with_history(livekit_server, worker)
    listener = await join_as_caller(
        livekit_server, worker, customer, room_name=room_name,
        token=plain_token(room_name, f"listener-{uuid.uuid4().hex[:6]}"),
    )  # fmt: skip
    try:
        await worker.wait_for_log("extra participant in the room")
        # The caller hears why the call ends; the listener gets nothing at all.
        await until(lambda: any(EXTRA_PARTICIPANT_LINE in m for m in caller.agent_messages))
        await worker.wait_for_log("call memory revoked: extra_participant")
        assert listener.agent_messages == []
    finally:
        await listener.hang_up()
        await caller.hang_up()
