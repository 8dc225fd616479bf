"""Caller authentication from the LiveKit room session, and the host's token minting.

No storage here: the host passes the customer directory's and the claim registry's answers
in (stores.directory, stores.claims, built by worker.host_state).
"""

from contextdb_livekit.identity.authenticate import RoomParticipant, authenticate_room_participant
from contextdb_livekit.identity.claims import (
    IDENTITY_CLAIM_ATTRIBUTE,
    VerifiedClaim,
    mint_identity_claim,
    verify_identity_claim,
)
from contextdb_livekit.identity.models import (
    Assurance,
    CallerIdentity,
    Channel,
    ExpiredIdentityClaim,
    IdentityError,
    IdentityNotConfigured,
    IdentityStoreUnavailable,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    ReplayedIdentityClaim,
    UnknownCaller,
    UnsupportedParticipant,
    WrongRoomClaim,
)
from contextdb_livekit.identity.phone import normalise_phone

__all__ = [
    "IDENTITY_CLAIM_ATTRIBUTE",
    "Assurance",
    "CallerIdentity",
    "Channel",
    "ExpiredIdentityClaim",
    "IdentityError",
    "IdentityNotConfigured",
    "IdentityStoreUnavailable",
    "InvalidIdentityClaim",
    "MissingIdentityClaim",
    "ReplayedIdentityClaim",
    "RoomParticipant",
    "UnknownCaller",
    "UnsupportedParticipant",
    "VerifiedClaim",
    "WrongRoomClaim",
    "authenticate_room_participant",
    "mint_identity_claim",
    "normalise_phone",
    "verify_identity_claim",
]
