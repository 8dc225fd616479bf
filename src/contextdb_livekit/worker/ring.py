"""Ring time: a phone caller is resolved and recalled while the line rings.

LiveKit's SIP service puts the caller in the room as a participant of kind SIP before the
call is answered, with `sip.callStatus` = "ringing" (outbound: "dialing", then "ringing"),
and sets it to "active" when the call connects ("hangup" when it ends). The worker does not
wait for the answer to do its work: it authenticates the caller from `sip.phoneNumber`
(the customer directory), starts the snapshot prefetch and the session while it rings, and
only the greeting waits for the answer — so the first words after "hello" already carry
the caller's history. A participant that is not SIP, or is already active, is answered.

A real trunk must let the agent in before it answers (see README, "Phone calls").
"""

from __future__ import annotations

import asyncio
import logging

from livekit import rtc

log = logging.getLogger("contextdb_livekit.worker.ring")

SIP_CALL_STATUS = "sip.callStatus"
NOT_YET_ANSWERED = frozenset({"ringing", "dialing"})
HUNG_UP = "hangup"


def call_status(participant: rtc.Participant) -> str | None:
    if participant.kind != rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
        return None
    return participant.attributes.get(SIP_CALL_STATUS)


def is_ringing(participant: rtc.Participant) -> bool:
    """A SIP caller whose line has not been answered yet."""
    return call_status(participant) in NOT_YET_ANSWERED


async def wait_until_answered(
    room: rtc.Room, participant: rtc.Participant, *, timeout_s: float
) -> bool:
    """True once the caller's line is answered (at once for anyone not ringing); False when
    the caller hung up or left first, or nobody answered within `timeout_s`."""
    if not is_ringing(participant):
        return call_status(participant) != HUNG_UP
    loop = asyncio.get_running_loop()
    answered: asyncio.Future[bool] = loop.create_future()

    def settle(value: bool) -> None:
        if not answered.done():
            answered.set_result(value)

    def on_attributes(_changed: dict[str, str], who: rtc.Participant) -> None:
        if who.identity != participant.identity:
            return
        status = who.attributes.get(SIP_CALL_STATUS)
        if status not in NOT_YET_ANSWERED:
            settle(status != HUNG_UP)

    def on_left(who: rtc.RemoteParticipant) -> None:
        if who.identity == participant.identity:
            settle(False)

    room.on("participant_attributes_changed", on_attributes)
    room.on("participant_disconnected", on_left)
    try:
        current = room.remote_participants.get(participant.identity)
        if current is None:
            return False
        if not is_ringing(current):
            return call_status(current) != HUNG_UP
        try:
            return await asyncio.wait_for(answered, timeout=timeout_s)
        except TimeoutError:
            log.info("caller's line not answered within %.0f s", timeout_s)
            return False
    finally:
        room.off("participant_attributes_changed", on_attributes)
        room.off("participant_disconnected", on_left)
