"""The signed identity claim a host's token server puts in the caller's participant token.

A short-lived HS256 JWT (PyJWT) whose subject is the customer id and whose audience is the
room, so a claim lifted from one call cannot be replayed into another.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt

from contextdb_livekit.identity.models import (
    ExpiredIdentityClaim,
    IdentityNotConfigured,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    WrongRoomClaim,
    check_customer_id,
    is_valid_claim_id,
    is_valid_customer_id,
)

IDENTITY_CLAIM_ATTRIBUTE = "contextdb.identity_claim"
CLAIM_ISSUER = "scheduling-host"
MIN_SECRET_BYTES = 32
DEFAULT_CLAIM_TTL = timedelta(minutes=10)
_ALGORITHM = "HS256"
_REQUIRED_CLAIMS = ["exp", "iat", "sub", "aud", "iss", "jti"]


@dataclass(frozen=True)
class VerifiedClaim:
    customer_id: str
    room_name: str
    expires_at: datetime
    jti: str


def room_audience(room_name: str) -> str:
    return f"livekit-room:{room_name}"


def _is_strong(secret: str) -> bool:
    return len(secret.encode()) >= MIN_SECRET_BYTES


def _aware(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(UTC)
    # A naive datetime would be read as UTC by PyJWT and silently shift every window.
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("`now` must be timezone-aware")
    return now


def mint_identity_claim(
    *,
    customer_id: str,
    room_name: str,
    secret: str,
    ttl: timedelta = DEFAULT_CLAIM_TTL,
    now: datetime | None = None,
) -> str:
    if not _is_strong(secret):
        raise ValueError(
            f"identity signing secret (IDENTITY_SIGNING_SECRET) must be at least"
            f" {MIN_SECRET_BYTES} bytes"
        )
    check_customer_id(customer_id)
    if not room_name:
        raise ValueError("room_name is required: the claim is bound to one room")
    if ttl <= timedelta(0):
        raise ValueError("ttl must be positive")
    issued = _aware(now)
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
    token: str | None,
    *,
    room_name: str,
    secret: str,
    leeway_s: float = 5.0,
    now: datetime | None = None,
) -> VerifiedClaim:
    """Verify a claim for `room_name`; every failure is an `IdentityError` subclass.

    `now` exists for tests and incident replays; production leaves it None so PyJWT checks
    the time window against the real clock.
    """
    if not _is_strong(secret):
        # A weak or empty key would let anyone mint claims; refuse every caller instead.
        raise IdentityNotConfigured(detail="identity signing secret is missing or too short")
    if not token:
        raise MissingIdentityClaim()
    payload = _decode(token, room_name=room_name, secret=secret, leeway_s=leeway_s, now=now)
    customer_id = payload["sub"]
    if not is_valid_customer_id(customer_id):
        raise InvalidIdentityClaim(detail="customer id in the claim has an invalid format")
    if not is_valid_claim_id(payload["jti"]):
        raise InvalidIdentityClaim(detail="claim id has an invalid format")
    try:
        expires_at = datetime.fromtimestamp(payload["exp"], UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        raise InvalidIdentityClaim(detail="exp is not a usable timestamp") from None
    return VerifiedClaim(
        customer_id=customer_id, room_name=room_name, expires_at=expires_at, jti=payload["jti"]
    )


def _decode(
    token: str, *, room_name: str, secret: str, leeway_s: float, now: datetime | None
) -> dict[str, Any]:
    # With an injected clock PyJWT's own time checks (real clock) must be off; every other
    # check — signature, algorithm, audience, issuer, required claims — stays with PyJWT.
    now_ts = None if now is None else _aware(now).timestamp()
    real_clock = now_ts is None
    try:
        payload = jwt.decode(
            token,
            secret,
            algorithms=[_ALGORITHM],
            audience=room_audience(room_name),
            issuer=CLAIM_ISSUER,
            leeway=leeway_s,
            options={
                "require": _REQUIRED_CLAIMS,
                "strict_aud": True,
                "verify_exp": real_clock,
                "verify_nbf": real_clock,
                "verify_iat": real_clock,
            },
        )
        if now_ts is not None:
            _check_time_window(payload, now_ts, leeway_s)
    except jwt.ExpiredSignatureError:
        raise ExpiredIdentityClaim() from None
    except jwt.InvalidAudienceError:
        raise WrongRoomClaim() from None
    except jwt.PyJWTError as exc:
        raise InvalidIdentityClaim(detail=type(exc).__name__) from None
    except (ValueError, TypeError) as exc:
        # Untrusted input: e.g. text that cannot be encoded never gets past "invalid".
        raise InvalidIdentityClaim(detail=type(exc).__name__) from None
    return payload


def _check_time_window(payload: dict[str, Any], now_ts: float, leeway_s: float) -> None:
    """PyJWT's exp/nbf/iat semantics, evaluated at an injected instant."""
    for name in ("exp", "nbf", "iat"):
        value = payload.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise jwt.DecodeError(f"{name} must be a number")
    if payload["exp"] <= now_ts - leeway_s:
        raise jwt.ExpiredSignatureError("Signature has expired")
    if payload.get("nbf") is not None and payload["nbf"] > now_ts + leeway_s:
        raise jwt.ImmatureSignatureError("The token is not yet valid (nbf)")
    if payload["iat"] > now_ts + leeway_s:
        raise jwt.ImmatureSignatureError("The token is not yet valid (iat)")
