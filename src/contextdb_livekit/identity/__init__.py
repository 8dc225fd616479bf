"""Caller authentication from the LiveKit room session, and the host's token minting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from contextdb_livekit.identity.authenticate import RoomParticipant, authenticate_room_participant
from contextdb_livekit.identity.claims import (
    IDENTITY_CLAIM_ATTRIBUTE,
    VerifiedClaim,
    mint_identity_claim,
    verify_identity_claim,
)
from contextdb_livekit.identity.directory import (
    CustomerDirectory,
    PgCustomerDirectory,
    SqliteCustomerDirectory,
    normalise_phone,
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
from contextdb_livekit.identity.replay import ClaimRegistry, PgClaimRegistry, SqliteClaimRegistry

if TYPE_CHECKING:
    from contextdb_livekit.identity.host_tokens import mint_participant_token


def __getattr__(name: str) -> Any:
    # Imported on first use: importing host_tokens here would make
    # `python -m contextdb_livekit.identity.host_tokens`
    # warn that the module ran after being imported.
    if name == "mint_participant_token":
        from contextdb_livekit.identity.host_tokens import mint_participant_token

        return mint_participant_token
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "IDENTITY_CLAIM_ATTRIBUTE",
    "Assurance",
    "CallerIdentity",
    "Channel",
    "ClaimRegistry",
    "CustomerDirectory",
    "ExpiredIdentityClaim",
    "IdentityError",
    "IdentityNotConfigured",
    "IdentityStoreUnavailable",
    "InvalidIdentityClaim",
    "MissingIdentityClaim",
    "PgClaimRegistry",
    "PgCustomerDirectory",
    "ReplayedIdentityClaim",
    "RoomParticipant",
    "SqliteClaimRegistry",
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
