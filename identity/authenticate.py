"""Authenticate the caller from the room session.

The customer id comes from a host-signed claim in the participant's attributes (web/app)
or from the SIP trunk's caller number looked up in the host's directory. The participant's
identity string, display name, metadata and the room name never decide it. The caller
cannot rewrite the attributes either: the host mints tokens with
`can_update_own_metadata=False`, and the claim is signed besides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from livekit import rtc

from identity.claims import IDENTITY_CLAIM_ATTRIBUTE, verify_identity_claim
from identity.directory import CustomerDirectory, normalise_phone
from identity.models import (
    CallerIdentity,
    UnknownCaller,
    UnsupportedParticipant,
    validate_customer_id,
)

SIP_PHONE_ATTRIBUTE = "sip.phoneNumber"


class RoomParticipant(Protocol):
    """The parts of `rtc.RemoteParticipant` authentication reads."""

    @property
    def identity(self) -> str: ...

    @property
    def attributes(self) -> Mapping[str, str]: ...

    @property
    def kind(self) -> int: ...


async def authenticate_room_participant(
    participant: RoomParticipant,
    *,
    room_name: str,
    identity_secret: str,
    directory: CustomerDirectory,
) -> CallerIdentity:
    kind = participant.kind
    if kind == rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
        return await _sip_caller(participant, room_name, directory)
    if kind != rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD:
        raise UnsupportedParticipant(f"participant kind {kind} cannot be a caller")
    claim = verify_identity_claim(
        participant.attributes.get(IDENTITY_CLAIM_ATTRIBUTE),
        room_name=room_name,
        secret=identity_secret,
    )
    return CallerIdentity(
        customer_id=claim.customer_id,
        actor_id=participant.identity,
        channel="web",
        assurance="verified",
        room_name=room_name,
        participant_identity=participant.identity,
    )


async def _sip_caller(
    participant: RoomParticipant, room_name: str, directory: CustomerDirectory
) -> CallerIdentity:
    raw = participant.attributes.get(SIP_PHONE_ATTRIBUTE, "")
    try:
        number = normalise_phone(raw)
    except ValueError:
        raise UnknownCaller("the call has no usable caller number") from None
    customer_id = await directory.customer_for_phone(number)
    if customer_id is None:
        raise UnknownCaller("caller number is not in the customer directory")
    return CallerIdentity(
        customer_id=validate_customer_id(customer_id),
        actor_id=f"sip:{number}",
        channel="sip",
        assurance="caller_id",
        room_name=room_name,
        participant_identity=participant.identity,
    )
