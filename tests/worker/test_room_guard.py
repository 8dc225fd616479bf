"""CallerGuard: the call follows the authenticated participant object, not its identity."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from livekit import rtc

from identity import MissingIdentityClaim
from memory.settings import MemorySettings
from tests.conversation.conftest import caller
from tools import HostServices
from worker.call import Call
from worker.room_guard import CallerGuard


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


class FakeRoom:
    def __init__(self) -> None:
        self.local_participant = FakeLocal()
        self.handlers: dict = {}  # type: ignore[type-arg]

    def on(self, event, handler):  # type: ignore[no-untyped-def]
        self.handlers[event] = handler


class FakeCtx:
    def __init__(self) -> None:
        self.room = FakeRoom()
        self.shutdowns: list[str] = []

    def shutdown(self, reason: str = "") -> None:
        self.shutdowns.append(reason)


class FakeHandle:
    async def wait_for_playout(self) -> None:
        return None


class FakeSession:
    def __init__(self, userdata) -> None:  # type: ignore[no-untyped-def]
        self.userdata = userdata
        self.said: list[str] = []

    def say(self, text: str, **_):  # type: ignore[no-untyped-def]
        self.said.append(text)
        return FakeHandle()


def setup(tmp_path, local_engine, authenticate):  # type: ignore[no-untyped-def]
    identity = caller()
    host = HostServices.local(
        tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None)
    )
    call = Call.open(host, identity=identity, auth_error=None, call_id="c1")
    ctx, session = FakeCtx(), FakeSession(call.context)
    linked = FakeParticipant(identity.participant_identity)
    guard = CallerGuard(ctx, session, linked, authenticate)  # type: ignore[arg-type]
    guard.attach()
    return identity, call, ctx, session, linked, guard


async def test_agent_audio_is_for_the_linked_caller_only(tmp_path, local_engine):
    identity, _, ctx, *_ = setup(tmp_path, local_engine, None)
    [permission] = ctx.room.local_participant.permissions
    assert permission["allow_all_participants"] is False
    [only] = permission["participant_permissions"]
    assert only.participant_identity == identity.participant_identity


async def test_an_extra_participant_revokes_memory_and_ends_the_call(tmp_path, local_engine):
    _, call, ctx, session, _, guard = setup(tmp_path, local_engine, None)
    await guard.check(FakeParticipant("someone-else"))
    assert call.context.memory is None and call.context.identity is None
    assert ctx.shutdowns == ["extra_participant"] and session.said


async def test_a_replacement_that_fails_reauthentication_gets_nothing(tmp_path, local_engine):
    async def refuse(_participant):  # type: ignore[no-untyped-def]
        return None, MissingIdentityClaim()

    _, call, ctx, _, linked, guard = setup(tmp_path, local_engine, refuse)
    await guard.check(FakeParticipant(linked.identity))  # same identity, new connection
    assert call.context.memory is None and call.context.identity is None
    assert ctx.shutdowns == ["recheck_failed:missing_claim"]


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
