"""CallerGuard: the call follows the authenticated participant object, not its identity."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass, field

from livekit import rtc

from contextdb_livekit.identity import MissingIdentityClaim
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from contextdb_livekit.worker.room_guard import EXTRA_PARTICIPANT_LINE, CallerGuard
from line import LINE
from testkit.line_host import local_host
from tests.conversation.conftest import caller

REVOKED = LINE.instructions(None, verified=False)


@dataclass
class FakeParticipant:
    identity: str
    sid: str = field(default_factory=lambda: f"PA_{uuid.uuid4().hex[:8]}")
    kind: int = rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD


class FakeLocal:
    def __init__(self) -> None:
        self.permissions: list = []  # type: ignore[type-arg]

    def set_track_subscription_permissions(self, **kwargs):  # type: ignore[no-untyped-def]
        self.permissions.append(kwargs)

    def allowed(self) -> list[str]:
        """Who may subscribe to the agent's audio under the latest permissions."""
        latest = self.permissions[-1]
        assert latest["allow_all_participants"] is False
        return [p.participant_identity for p in latest["participant_permissions"]]


class FakeRoom:
    def __init__(self) -> None:
        self.local_participant = FakeLocal()
        self.handlers: dict = {}  # type: ignore[type-arg]
        self.remote_participants: dict[str, FakeParticipant] = {}

    def on(self, event, handler):  # type: ignore[no-untyped-def]
        self.handlers[event] = handler

    def join(self, participant: FakeParticipant) -> None:
        self.remote_participants[participant.identity] = participant
        if "participant_connected" in self.handlers:
            self.handlers["participant_connected"](participant)

    def leave(self, participant: FakeParticipant) -> None:
        if self.remote_participants.get(participant.identity) is participant:
            del self.remote_participants[participant.identity]
        self.handlers["participant_disconnected"](participant)


class FakeCtx:
    def __init__(self) -> None:
        self.room = FakeRoom()
        self.shutdowns: list[str] = []
        # The LiveKit server's view: identity -> the sid holding it. It can run ahead of the
        # room's (a join the worker has not heard of yet); an Exception value: no answer.
        self.server: dict[str, str | Exception] = {}

    async def server_connection(self, identity: str) -> str | None:
        holder = self.server.get(identity)
        if isinstance(holder, Exception):
            raise holder
        return holder

    def shutdown(self, reason: str = "") -> None:
        self.shutdowns.append(reason)


class FakeHandle:
    async def wait_for_playout(self) -> None:
        return None


class FakeInput:
    def __init__(self) -> None:
        self.audio_enabled = True

    def set_audio_enabled(self, enabled: bool) -> None:
        self.audio_enabled = enabled


class FakeAgent:
    def __init__(self) -> None:
        self.instructions: list[str] = []

    async def update_instructions(self, instructions: str) -> None:
        self.instructions.append(instructions)


class FakeSession:
    def __init__(self, userdata) -> None:  # type: ignore[no-untyped-def]
        self.userdata = userdata
        self.current_agent = FakeAgent()
        self.said: list[str] = []
        self.input = FakeInput()
        self.replies: list[str] = []

    def say(self, text: str, **_):  # type: ignore[no-untyped-def]
        self.said.append(text)
        return FakeHandle()

    def clear_user_turn(self) -> None:
        pass

    @contextlib.asynccontextmanager
    async def _claim_user_turn(self):  # type: ignore[no-untyped-def]
        yield

    async def interrupt(self) -> None:
        pass

    def generate_reply(self, *, user_input: str) -> None:
        self.replies.append(user_input)


def setup(tmp_path, local_engine, authenticate, *, already_in_room=(), started=True):  # type: ignore[no-untyped-def]
    identity = caller()
    host = local_host(tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None))
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id="c1")
    ctx, session = FakeCtx(), FakeSession(call.context)
    linked = FakeParticipant(identity.participant_identity)
    ctx.room.remote_participants[linked.identity] = linked
    ctx.server[linked.identity] = linked.sid
    for other in already_in_room:
        ctx.room.remote_participants[other.identity] = other
    guard = CallerGuard(  # type: ignore[arg-type]
        ctx,
        session,
        linked,
        authenticate,
        revoked_instructions=REVOKED,
        server_connection=ctx.server_connection,
    )
    guard.attach()
    if started:
        guard.session_started()
    return identity, call, ctx, session, linked, guard


async def settle(until=lambda: False) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        if until():
            return
        await asyncio.sleep(0.005)


async def test_agent_audio_is_for_the_linked_caller_only(tmp_path, local_engine):
    identity, _, ctx, *_ = setup(tmp_path, local_engine, None)
    assert ctx.room.local_participant.allowed() == [identity.participant_identity]


async def test_an_extra_participant_revokes_memory_and_ends_the_call(tmp_path, local_engine):
    _, call, ctx, session, linked, guard = setup(tmp_path, local_engine, None)
    await guard.check(FakeParticipant("someone-else"))
    assert call.context.memory is None and call.context.identity is None
    assert ctx.shutdowns == ["extra_participant"] and session.said == [EXTRA_PARTICIPANT_LINE]
    # The caller stays the only one answered until the call ends.
    assert guard.admits(linked) and guard.transcript_destination() == linked.identity


async def test_a_participant_already_in_the_room_is_caught_before_anything_starts(
    tmp_path, local_engine
):
    early = FakeParticipant("early-bird")
    _, call, ctx, session, linked, guard = setup(
        tmp_path, local_engine, None, already_in_room=[early], started=False
    )
    # Synchronously in attach(): before the session starts, before any await.
    assert call.context.memory is None and call.context.identity is None
    assert guard.revoked_reason == "extra_participant"
    assert not guard.admits(early)  # type: ignore[arg-type]
    assert ctx.room.local_participant.allowed() == [linked.identity]
    # The snapshot being recalled never reaches the instructions.
    assert await call.apply_snapshot() is None
    assert call.context.snapshot is None
    assert session.said == []  # the closing line waits for the session to run
    guard.session_started()
    await settle(lambda: ctx.shutdowns)
    assert session.said == [EXTRA_PARTICIPANT_LINE] and ctx.shutdowns == ["extra_participant"]
    # The agent's instructions lose whatever was recalled: the line's unverified variant.
    assert session.current_agent.instructions == [REVOKED]


async def test_a_replacement_that_fails_reauthentication_gets_nothing(tmp_path, local_engine):
    async def refuse(_participant):  # type: ignore[no-untyped-def]
        return None, MissingIdentityClaim()

    _, call, ctx, _, linked, guard = setup(tmp_path, local_engine, refuse)
    await guard.check(FakeParticipant(linked.identity))  # same identity, new connection
    assert call.context.memory is None and call.context.identity is None
    assert ctx.shutdowns == ["recheck_failed:missing_claim"]


async def test_a_replacement_is_gated_the_moment_it_joins(tmp_path, local_engine):
    release = asyncio.Event()
    holder = {}

    async def slow_same(_participant):  # type: ignore[no-untyped-def]
        await release.wait()
        return holder["identity"], None

    identity, call, ctx, session, linked, guard = setup(tmp_path, local_engine, slow_same)
    holder["identity"] = identity
    replacement = FakeParticipant(linked.identity)
    ctx.room.join(replacement)  # LiveKit: same identity, the old connection is dropped
    # Before re-authentication finishes: nothing in, nothing out, for either connection.
    assert not guard.admits(replacement) and not guard.admits(linked)  # type: ignore[arg-type]
    assert guard.transcript_destination() is None
    assert session.input.audio_enabled is False
    assert ctx.room.local_participant.allowed() == []
    release.set()
    await settle(lambda: guard.admits(replacement))
    assert guard.admits(replacement) and not guard.admits(linked)  # type: ignore[arg-type]
    assert guard.transcript_destination() == linked.identity
    assert session.input.audio_enabled is True
    assert ctx.room.local_participant.allowed() == [linked.identity]
    assert call.context.identity == identity and ctx.shutdowns == []


async def test_the_caller_leaving_closes_the_gate(tmp_path, local_engine):
    _, _, ctx, session, linked, guard = setup(tmp_path, local_engine, None)
    ctx.room.leave(linked)
    assert not guard.admits(linked)  # type: ignore[arg-type]
    assert guard.transcript_destination() is None and session.input.audio_enabled is False


async def test_a_replacement_for_another_customer_gets_nothing(tmp_path, local_engine):
    async def other(_participant):  # type: ignore[no-untyped-def]
        return caller("cust-intruder"), None

    _, call, ctx, _, linked, guard = setup(tmp_path, local_engine, other)
    await guard.check(FakeParticipant(linked.identity))
    assert call.context.identity is None and ctx.shutdowns


async def test_a_reauthenticated_reconnect_keeps_the_call(tmp_path, local_engine):
    holder = {}

    async def same(_participant):  # type: ignore[no-untyped-def]
        return holder["identity"], None

    identity, call, ctx, _, linked, guard = setup(tmp_path, local_engine, same)
    holder["identity"] = identity
    await guard.check(FakeParticipant(linked.identity))
    assert call.context.identity == identity and call.context.memory is not None
    assert ctx.shutdowns == []
