"""The signed identity claim a host's token server puts in the caller's participant token.

A short-lived HS256 JWT (PyJWT) whose subject is the customer id and whose audience is the
room, so a claim lifted from one call cannot be replayed into another.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import jwt

from identity.models import (
    ExpiredIdentityClaim,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    WrongRoomClaim,
    validate_customer_id,
)

IDENTITY_CLAIM_ATTRIBUTE = "contextdb.identity_claim"
CLAIM_ISSUER = "scheduling-host"
_ALGORITHM = "HS256"
MIN_SECRET_BYTES = 32


@dataclass(frozen=True)
class VerifiedClaim:
    customer_id: str
    room_name: str
    expires_at: datetime
    jti: str


def room_audience(room_name: str) -> str:
    return f"livekit-room:{room_name}"


def _check_secret(secret: str) -> None:
    if len(secret.encode()) < MIN_SECRET_BYTES:
        raise ValueError(f"IDENTITY_SIGNING_SECRET must be at least {MIN_SECRET_BYTES} bytes")


def mint_identity_claim(
    *,
    customer_id: str,
    room_name: str,
    secret: str,
    ttl: timedelta = timedelta(minutes=10),
    now: datetime | None = None,
) -> str:
    _check_secret(secret)
    validate_customer_id(customer_id)
    issued = now or datetime.now(UTC)
    payload = {
        "iss": CLAIM_ISSUER,
        "sub": customer_id,
        "aud": room_audience(room_name),
        "iat": issued,
        "nbf": issued,
        "exp": issued + ttl,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(payload, secret, algorithm=_ALGORITHM)


def verify_identity_claim(
    token: str | None, *, room_name: str, secret: str, leeway_s: float = 5.0
) -> VerifiedClaim:
    if not token:
        raise MissingIdentityClaim("no identity claim in the participant's attributes")
    _check_secret(secret)
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[_ALGORITHM],
            audience=room_audience(room_name),
            issuer=CLAIM_ISSUER,
            leeway=leeway_s,
            options={"require": ["exp", "iat", "sub", "aud", "iss", "jti"]},
        )
    except jwt.ExpiredSignatureError:
        raise ExpiredIdentityClaim("identity claim has expired") from None
    except jwt.InvalidAudienceError:
        raise WrongRoomClaim("identity claim was issued for another room") from None
    except jwt.PyJWTError as exc:
        raise InvalidIdentityClaim(f"identity claim rejected: {type(exc).__name__}") from None
    customer_id = validate_customer_id(claims["sub"])
    return VerifiedClaim(
        customer_id=customer_id,
        room_name=room_name,
        expires_at=datetime.fromtimestamp(claims["exp"], UTC),
        jti=str(claims["jti"]),
    )
