"""Ring time (worker.ring): only "active" is an answer, and a ring always ends."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest
from livekit import rtc

from contextdb_livekit.worker.ring import (
    RingOutcome,
    call_status,
    is_answered,
    is_ringing,
    wait_until_answered,
)
from contextdb_livekit.worker.settings import WorkerSettings

SIP = rtc.ParticipantKind.PARTICIPANT_KIND_SIP
STANDARD = rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD


@dataclass
class Line:
    identity: str = "sip_+442079460000"
    kind: int = SIP
    attributes: dict[str, str] = field(default_factory=dict)


def sip(status: str | None) -> Line:
    return Line(attributes={} if status is None else {"sip.callStatus": status})


class Room(rtc.EventEmitter):  # type: ignore[type-arg]
    """The parts of a room ring time reads: who is in it, and its two events."""

    def __init__(self, *participants: Line) -> None:
        super().__init__()
        self.remote_participants = {p.identity: p for p in participants}

    def set_status(self, who: Line, status: str) -> None:
        who.attributes["sip.callStatus"] = status
        self.emit("participant_attributes_changed", {"sip.callStatus": status}, who)

    def leave(self, who: Line) -> None:
        del self.remote_participants[who.identity]
        self.emit("participant_disconnected", who)

    def listeners(self) -> int:
        return sum(len(callbacks) for callbacks in self._events.values())


@pytest.mark.parametrize("status", ["ringing", "dialing", "automation", "early-media", ""])
def test_a_sip_line_that_is_not_active_is_not_answered(status):
    line = sip(status)
    assert not is_answered(line)
    assert is_ringing(line)


def test_only_active_answers_a_sip_line():
    assert is_answered(sip("active"))
    assert not is_ringing(sip("active"))


def test_a_hung_up_line_is_neither_answered_nor_ringing():
    assert not is_answered(sip("hangup")) and not is_ringing(sip("hangup"))


def test_participants_that_are_not_sip_are_answered():
    web = Line(identity="caller-1", kind=STANDARD, attributes={"sip.callStatus": "ringing"})
    assert is_answered(web) and not is_ringing(web) and call_status(web) is None


def test_a_sip_participant_without_a_status_is_answered():
    # A SIP service older than the attribute: the participant is the call.
    assert is_answered(sip(None)) and not is_ringing(sip(None))


async def test_an_outbound_call_is_answered_only_when_active():
    """Every status before "active" is still the ring: the first one that settled it would
    be this wait's outcome instead of the hang-up at the end."""
    line = sip("dialing")
    room = Room(line)
    waiting = asyncio.create_task(wait_until_answered(room, line, timeout_s=30))
    await asyncio.sleep(0)
    for status in ("dialing", "ringing", "automation", "hangup"):
        room.set_status(line, status)
    assert await waiting is RingOutcome.HUNG_UP
    assert room.listeners() == 0

    line = sip("dialing")
    room = Room(line)
    waiting = asyncio.create_task(wait_until_answered(room, line, timeout_s=30))
    await asyncio.sleep(0)
    room.set_status(line, "ringing")
    room.set_status(line, "active")
    assert await waiting is RingOutcome.ANSWERED


async def test_a_ring_nobody_answers_ends_after_the_timeout():
    line = sip("ringing")
    room = Room(line)
    # A wait that never ends fails here instead of hanging the suite.
    outcome = await asyncio.wait_for(wait_until_answered(room, line, timeout_s=0.05), 10)
    assert outcome is RingOutcome.NOT_ANSWERED
    assert room.listeners() == 0


async def test_a_hang_up_while_ringing_is_not_an_answer():
    line = sip("ringing")
    room = Room(line)
    waiting = asyncio.create_task(wait_until_answered(room, line, timeout_s=30))
    await asyncio.sleep(0)
    room.set_status(line, "hangup")
    assert await waiting is RingOutcome.HUNG_UP


async def test_leaving_while_ringing_is_not_an_answer():
    line = sip("ringing")
    room = Room(line)
    waiting = asyncio.create_task(wait_until_answered(room, line, timeout_s=30))
    await asyncio.sleep(0)
    room.leave(line)
    assert await waiting is RingOutcome.LEFT


async def test_another_participants_answer_or_exit_is_not_the_callers():
    line, other = sip("ringing"), Line(identity="sip_other", attributes={})
    room = Room(line, other)
    waiting = asyncio.create_task(wait_until_answered(room, line, timeout_s=30))
    await asyncio.sleep(0)
    room.set_status(other, "active")
    room.leave(other)
    room.set_status(line, "hangup")
    assert await waiting is RingOutcome.HUNG_UP


async def test_the_room_state_is_read_when_the_wait_starts():
    """A status that changed between the caller's check and the wait is not missed."""
    line = sip("ringing")
    room = Room(line)
    line.attributes["sip.callStatus"] = "active"  # changed before the wait subscribed
    assert await wait_until_answered(room, line, timeout_s=30) is RingOutcome.ANSWERED
    gone = sip("ringing")
    assert await wait_until_answered(Room(), gone, timeout_s=30) is RingOutcome.LEFT


def test_the_ring_timeout_is_a_bounded_setting_with_a_default(monkeypatch):
    monkeypatch.delenv("RING_TIMEOUT_S", raising=False)
    assert WorkerSettings(_env_file=None).ring_timeout_s == 45.0
    monkeypatch.setenv("RING_TIMEOUT_S", "12")
    assert WorkerSettings(_env_file=None).ring_timeout_s == 12.0
