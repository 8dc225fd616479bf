"""Who is calling, as established by the host — never by the model or the caller's own words."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

Channel = Literal["web", "sip"]
# verified: a claim signed by the host's token server; caller_id: a SIP number (a line, not a
# person), which consequential actions accept only when the host's policy says so.
Assurance = Literal["verified", "caller_id"]

# Same alphabet as ContextDB's user_id, which the customer id becomes.
CUSTOMER_ID_PATTERN = re.compile(r"^[A-Za-z0-9._:@+\-]{1,128}$")


@dataclass(frozen=True)
class CallerIdentity:
    customer_id: str
    actor_id: str
    channel: Channel
    assurance: Assurance
    room_name: str
    participant_identity: str

    @property
    def log_id(self) -> str:
        """A stable pseudonym for logs; raw customer ids stay out of them."""
        return hashlib.sha256(self.customer_id.encode()).hexdigest()[:12]


class IdentityError(Exception):
    """The participant could not be authenticated. `reason` is a machine code."""

    reason = "identity_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)


class MissingIdentityClaim(IdentityError):
    reason = "missing_claim"


class InvalidIdentityClaim(IdentityError):
    reason = "invalid_claim"


class ExpiredIdentityClaim(IdentityError):
    reason = "expired_claim"


class WrongRoomClaim(IdentityError):
    reason = "wrong_room"


class UnknownCaller(IdentityError):
    reason = "unknown_caller"


class UnsupportedParticipant(IdentityError):
    reason = "unsupported_participant"


def validate_customer_id(value: str) -> str:
    if not isinstance(value, str) or CUSTOMER_ID_PATTERN.fullmatch(value) is None:
        raise InvalidIdentityClaim("customer id has an invalid format")
    return value
