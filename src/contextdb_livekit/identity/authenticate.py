"""Authenticate the caller from the room session.

The customer id comes from a host-signed claim in the participant's attributes (web/app)
or from the SIP trunk's caller number looked up in the host's directory. The participant's
identity string, display name, metadata and the room name never decide it.

Why participant attributes can be trusted here: they arrive from the LiveKit server, which
took them from the access token the host minted. That token carries
`can_update_own_metadata=False`, so the caller cannot rewrite its attributes after joining,
and the claim inside is signed with a secret only the host and this worker hold, so it cannot
be forged or moved to another room either. `sip.*` attributes and the participant kind are set
by the server itself (the SIP service, or the host's token), never by the client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Protocol

from livekit import rtc

from contextdb_livekit.identity.claims import IDENTITY_CLAIM_ATTRIBUTE, verify_identity_claim
from contextdb_livekit.identity.models import (
    CallerIdentity,
    ReplayedIdentityClaim,
    UnknownCaller,
    UnsupportedParticipant,
    is_valid_customer_id,
)
from contextdb_livekit.identity.phone import normalise_phone

SIP_PHONE_ATTRIBUTE = "sip.phoneNumber"

# The two host-state answers authentication needs, as functions: the host passes its stores'
# methods (stores.directory.CustomerDirectory.customer_for_phone,
# stores.claims.ClaimRegistry.first_use), so identity holds no storage code.
CustomerForPhone = Callable[[str], Awaitable[str | None]]
FirstUse = Callable[[str, datetime], Awaitable[bool]]


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
    customer_for_phone: CustomerForPhone,
    first_use: FirstUse,
) -> CallerIdentity:
    kind = participant.kind
    if kind == rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
        return await _sip_caller(participant, room_name, customer_for_phone)
    if kind != rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD:
        # Agents, egress, ingress, connectors and bridges are not people calling in.
        raise UnsupportedParticipant(detail=f"participant kind {kind}")
    claim = verify_identity_claim(
        participant.attributes.get(IDENTITY_CLAIM_ATTRIBUTE),
        room_name=room_name,
        secret=identity_secret,
    )
    if not await first_use(claim.jti, claim.expires_at):
        raise ReplayedIdentityClaim(detail="claim id seen before")
    return CallerIdentity(
        customer_id=claim.customer_id,
        actor_id=participant.identity,
        channel="web",
        assurance="verified",
        room_name=room_name,
        participant_identity=participant.identity,
        claim_id=claim.jti,
    )


async def _sip_caller(
    participant: RoomParticipant, room_name: str, customer_for_phone: CustomerForPhone
) -> CallerIdentity:
    raw = participant.attributes.get(SIP_PHONE_ATTRIBUTE, "")
    try:
        number = normalise_phone(raw)
    except ValueError:
        # Withheld ("anonymous") or non-international numbers cannot be looked up.
        raise UnknownCaller(detail="no usable caller number") from None
    customer_id = await customer_for_phone(number)
    if customer_id is None:
        raise UnknownCaller(detail="caller number is not in the directory")
    if not is_valid_customer_id(customer_id):
        raise UnknownCaller(detail="directory entry has an invalid customer id")
    return CallerIdentity(
        customer_id=customer_id,
        actor_id=f"sip:{number}",
        channel="sip",
        assurance="caller_id",
        room_name=room_name,
        participant_identity=participant.identity,
    )
