"""Who is calling, as established by the host — never by the model or the caller's own words."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import ClassVar, Literal

Channel = Literal["web", "sip"]
# verified: a claim signed by the host's token server; caller_id: a SIP number (a line, not a
# person), which consequential actions accept only when the host's policy says so.
Assurance = Literal["verified", "caller_id"]

# Same alphabet as ContextDB's user_id, which the customer id becomes. ASCII classes on
# purpose: `\w`/`\d` would admit look-alike Unicode letters and digits.
CUSTOMER_ID_PATTERN = re.compile(r"[A-Za-z0-9._:@+\-]{1,128}")

# A signed claim's id (`jti`): the host mints 32 hex characters; the claim registry keeps
# any printable id up to this length and refuses the rest.
MAX_CLAIM_ID_CHARS = 128
_CLAIM_ID_PATTERN = re.compile(rf"[^\x00-\x1f\x7f-\x9f]{{1,{MAX_CLAIM_ID_CHARS}}}")

_LOG_ID_CHARS = 12


def is_valid_customer_id(value: object) -> bool:
    return isinstance(value, str) and CUSTOMER_ID_PATTERN.fullmatch(value) is not None


def check_customer_id(value: str) -> str:
    """Host-side check (minting, directory entries): a bad id is a programming/config error."""
    if not is_valid_customer_id(value):
        raise ValueError(
            "customer id must be 1-128 characters of A-Z a-z 0-9 . _ : @ + -"
            " (the ContextDB user_id alphabet)"
        )
    return value


def is_valid_claim_id(value: object) -> bool:
    return isinstance(value, str) and _CLAIM_ID_PATTERN.fullmatch(value) is not None


@dataclass(frozen=True)
class CallerIdentity:
    customer_id: str
    actor_id: str
    channel: Channel
    assurance: Assurance
    room_name: str
    participant_identity: str
    # The signed claim's id (web callers): recorded so one sign-in joins once. Not part of
    # who the caller is, so a re-authenticated replacement compares equal.
    claim_id: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # The customer id becomes a ContextDB user_id; refuse to carry one it would reject.
        check_customer_id(self.customer_id)

    @property
    def log_id(self) -> str:
        """A stable pseudonym for logs; raw customer ids stay out of them."""
        return hashlib.sha256(self.customer_id.encode()).hexdigest()[:_LOG_ID_CHARS]


class IdentityError(Exception):
    """The participant could not be authenticated.

    `str(error)` is safe to say to the caller (no ids, no token internals); `reason` is a
    stable machine code for logs and metrics; `detail` is an optional operator hint for logs.
    """

    reason: ClassVar[str] = "identity_error"
    default_message: ClassVar[str] = "I couldn't confirm who is calling."

    def __init__(self, message: str | None = None, *, detail: str = "") -> None:
        self.message = message or self.default_message
        self.detail = detail
        super().__init__(self.message)


class MissingIdentityClaim(IdentityError):
    reason = "missing_claim"
    default_message = "I couldn't confirm who is calling: this call has no sign-in attached."


class InvalidIdentityClaim(IdentityError):
    """Bad signature, malformed, forged, or signed with a disallowed algorithm."""

    reason = "invalid_claim"
    default_message = "I couldn't confirm who is calling: the sign-in could not be verified."


class ExpiredIdentityClaim(IdentityError):
    reason = "expired_claim"
    default_message = "I couldn't confirm who is calling: the sign-in has expired."


class WrongRoomClaim(IdentityError):
    """A claim bound to another room: most likely replayed from a different call."""

    reason = "wrong_room"
    default_message = "I couldn't confirm who is calling: the sign-in belongs to another call."


class ReplayedIdentityClaim(IdentityError):
    """A claim whose id was already used to join: a copied or re-used sign-in."""

    reason = "replayed_claim"
    default_message = "I couldn't confirm who is calling: that sign-in was already used."


class UnknownCaller(IdentityError):
    reason = "unknown_caller"
    default_message = "I couldn't find an account for the number you are calling from."


class UnsupportedParticipant(IdentityError):
    reason = "unsupported_participant"
    default_message = "This participant cannot be served as a caller."


class IdentityStoreUnavailable(IdentityError):
    """The directory or the claim registry did not answer: the caller stays unverified."""

    reason = "identity_store_unavailable"


class IdentityNotConfigured(IdentityError):
    """The worker has no usable signing secret, so no claim can be trusted (fail closed)."""

    reason = "not_configured"
    default_message = "I can't confirm who is calling right now."
