"""Ring time: a phone caller is resolved and recalled while the line rings.

LiveKit's SIP service puts the caller in the room as a participant of kind SIP before the
call is answered, with `sip.callStatus` = "ringing" (outbound: "dialing", then "ringing";
"automation" while it still sends DTMF), and sets it to "active" when the call connects
("hangup" when it ends). The worker does not wait for the answer to do its work: it
authenticates the caller from `sip.phoneNumber` (the customer directory), starts the
snapshot prefetch and the session while it rings, and only the greeting waits for the
answer — so the first words after "hello" already carry the caller's history.

Only "active" is an answer. Every other status a SIP participant carries — the ones above,
and any status a newer SIP service adds — means nobody is on the line yet: recalled memory
must not be spoken to a line nobody answered. A SIP participant with no status at all (a
SIP service older than the attribute) and every participant that is not SIP are answered.

A ring is bounded: the caller answers within `RING_TIMEOUT_S` or the call ends without a
word and its recalled memory is revoked (agent.py), so a ring nobody picks up never holds
a job, a session or a caller's snapshot.

A real trunk must let the agent in before it answers (see README, "Phone calls").
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from livekit import rtc

log = logging.getLogger("contextdb_livekit.worker.ring")

SIP_CALL_STATUS = "sip.callStatus"
ANSWERED_STATUS = "active"
HUNG_UP_STATUS = "hangup"
# How long a ring may go unanswered when the host sets nothing (`RING_TIMEOUT_S`): longer
# than the 30-40 s most carriers ring before they give up themselves, short enough that an
# unanswered line does not keep a caller's recalled memory in a job for minutes.
DEFAULT_RING_TIMEOUT_S = 45.0


class RingOutcome(enum.Enum):
    ANSWERED = "answered"
    HUNG_UP = "hung_up"  # the SIP service reported the call ended before the answer
    LEFT = "left"  # the participant left the room before the answer
    NOT_ANSWERED = "not_answered"  # still ringing when the ring timeout ran out


class RingingParticipant(Protocol):
    """The parts of `rtc.Participant` ring time reads."""

    @property
    def identity(self) -> str: ...

    @property
    def kind(self) -> Any: ...

    @property
    def attributes(self) -> Mapping[str, str]: ...


class RingingRoom(Protocol):
    """The parts of `rtc.Room` ring time reads."""

    @property
    def remote_participants(self) -> Mapping[str, Any]: ...

    def on(self, event: Any, callback: Callable[..., Any] | None = None) -> Any: ...

    def off(self, event: Any, callback: Callable[..., Any]) -> None: ...


def call_status(participant: RingingParticipant) -> str | None:
    """The SIP call status, or None for a participant that is not SIP."""
    if participant.kind != rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
        return None
    return participant.attributes.get(SIP_CALL_STATUS)


def is_answered(participant: RingingParticipant) -> bool:
    """Someone is on the line: not SIP, SIP without a status, or SIP and "active"."""
    if participant.kind != rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
        return True
    status = participant.attributes.get(SIP_CALL_STATUS)
    return status is None or status == ANSWERED_STATUS


def is_ringing(participant: RingingParticipant) -> bool:
    """A SIP caller whose line has not been answered yet (and has not hung up)."""
    return not is_answered(participant) and call_status(participant) != HUNG_UP_STATUS


def _outcome_now(participant: RingingParticipant) -> RingOutcome | None:
    """The ring's outcome as `participant` shows it now; None while it still rings."""
    if is_answered(participant):
        return RingOutcome.ANSWERED
    if call_status(participant) == HUNG_UP_STATUS:
        return RingOutcome.HUNG_UP
    return None


async def wait_until_answered(
    room: RingingRoom, participant: RingingParticipant, *, timeout_s: float
) -> RingOutcome:
    """How the ring ended: answered (at once for anyone not ringing), hung up, left, or
    not answered within `timeout_s`."""
    loop = asyncio.get_running_loop()
    settled: asyncio.Future[RingOutcome] = loop.create_future()

    def settle(outcome: RingOutcome) -> None:
        if not settled.done():
            settled.set_result(outcome)

    def on_attributes(_changed: Mapping[str, str], who: RingingParticipant) -> None:
        if who.identity == participant.identity and (outcome := _outcome_now(who)) is not None:
            settle(outcome)

    def on_left(who: RingingParticipant) -> None:
        if who.identity == participant.identity:
            settle(RingOutcome.LEFT)

    room.on("participant_attributes_changed", on_attributes)
    room.on("participant_disconnected", on_left)
    try:
        # Read after subscribing: a change made between the caller's check and here is
        # in the room's state already, one made after it arrives as an event.
        current = room.remote_participants.get(participant.identity)
        if current is None:
            return RingOutcome.LEFT
        if (outcome := _outcome_now(current)) is not None:
            return outcome
        try:
            return await asyncio.wait_for(settled, timeout=timeout_s)
        except TimeoutError:
            log.info("caller's line not answered within %.0f s", timeout_s)
            return RingOutcome.NOT_ANSWERED
    finally:
        room.off("participant_attributes_changed", on_attributes)
        room.off("participant_disconnected", on_left)
