"""Caller authentication from the LiveKit room session, and the host's token minting."""

from identity.authenticate import authenticate_room_participant
from identity.claims import (
    IDENTITY_CLAIM_ATTRIBUTE,
    VerifiedClaim,
    mint_identity_claim,
    verify_identity_claim,
)
from identity.directory import CustomerDirectory, SqliteCustomerDirectory, normalise_phone
from identity.host_tokens import mint_participant_token
from identity.models import (
    CallerIdentity,
    ExpiredIdentityClaim,
    IdentityError,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    UnknownCaller,
    UnsupportedParticipant,
    WrongRoomClaim,
)

__all__ = [
    "IDENTITY_CLAIM_ATTRIBUTE",
    "CallerIdentity",
    "CustomerDirectory",
    "ExpiredIdentityClaim",
    "IdentityError",
    "InvalidIdentityClaim",
    "MissingIdentityClaim",
    "SqliteCustomerDirectory",
    "UnknownCaller",
    "UnsupportedParticipant",
    "VerifiedClaim",
    "WrongRoomClaim",
    "authenticate_room_participant",
    "mint_identity_claim",
    "mint_participant_token",
    "normalise_phone",
    "verify_identity_claim",
]
