"""Shared builders for the identity tests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from livekit import rtc
from livekit.rtc._proto import participant_pb2

SECRET = "host-signing-secret-0123456789abcdef"
OTHER_SECRET = "someone-elses-secret-0123456789abcdef"
ROOM = "call-room-1"


@dataclass
class FakeParticipant:
    """Stands in for `rtc.RemoteParticipant`; carries the fields callers control, too."""

    identity: str
    attributes: dict[str, str] = field(default_factory=dict)
    kind: int = rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD
    name: str = ""
    metadata: str = ""


def real_participant(
    identity: str,
    attributes: dict[str, str],
    kind: int = rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD,
    name: str = "",
    metadata: str = "",
) -> rtc.RemoteParticipant:
    """A genuine `rtc.RemoteParticipant` built from its protocol message (no FFI handle)."""
    owned = participant_pb2.OwnedParticipant()
    owned.handle.id = 0  # INVALID_HANDLE: nothing to release on the native side
    owned.info.identity = identity
    owned.info.name = name
    owned.info.metadata = metadata
    owned.info.kind = kind  # type: ignore[assignment]
    owned.info.attributes.update(attributes)
    return rtc.RemoteParticipant(owned)


def claim_payload(**overrides: Any) -> dict[str, Any]:
    """A well-formed claim payload, minus/plus whatever a test overrides (None removes)."""
    now = datetime.now(UTC)
    payload: dict[str, Any] = {
        "iss": "scheduling-host",
        "sub": "cust-1",
        "aud": f"livekit-room:{ROOM}",
        "iat": now,
        "nbf": now,
        "exp": now + timedelta(minutes=5),
        "jti": "0123456789abcdef",
    }
    payload.update(overrides)
    return {key: value for key, value in payload.items() if value is not None}


def sign(payload: dict[str, Any], secret: str = SECRET, algorithm: str = "HS256") -> str:
    return jwt.encode(payload, secret, algorithm=algorithm)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def with_payload(token: str, payload: dict[str, Any]) -> str:
    """Swap the payload segment, keeping the original header and signature."""
    header, _, signature = token.split(".")
    return f"{header}.{b64(json.dumps(payload).encode())}.{signature}"


def decoded_payload(token: str) -> dict[str, Any]:
    return json.loads(unb64(token.split(".")[1]))


def hand_signed(payload: dict[str, Any], secret: str) -> str:
    """HS256 over any JSON payload, bypassing PyJWT's encode-side claim checks."""
    header = b64(b'{"alg":"HS256","typ":"JWT"}')
    body = b64(json.dumps(payload, default=lambda value: int(value.timestamp())).encode())
    mac = hmac.new(secret.encode(), f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{b64(mac)}"
