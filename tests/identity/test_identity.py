from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jwt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from livekit import api, rtc

from identity import (
    IDENTITY_CLAIM_ATTRIBUTE,
    ExpiredIdentityClaim,
    IdentityError,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    SqliteCustomerDirectory,
    UnknownCaller,
    UnsupportedParticipant,
    WrongRoomClaim,
    authenticate_room_participant,
    mint_identity_claim,
    mint_participant_token,
    verify_identity_claim,
)

SECRET = "s" * 40
ROOM = "call-room-1"
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class FakeParticipant:
    identity: str
    attributes: dict[str, str] = field(default_factory=dict)
    kind: int = rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD


@pytest.fixture
def directory(tmp_path) -> SqliteCustomerDirectory:
    return SqliteCustomerDirectory(tmp_path / "customers.sqlite3")


def test_claim_round_trip():
    token = mint_identity_claim(customer_id="cust-42", room_name=ROOM, secret=SECRET)
    claim = verify_identity_claim(token, room_name=ROOM, secret=SECRET)
    assert claim.customer_id == "cust-42" and claim.room_name == ROOM
    assert claim.expires_at > datetime.now(UTC)


def _tamper(token: str) -> str:
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["sub"] = "cust-victim"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{forged}.{signature}"


@pytest.mark.parametrize(
    "make_token",
    [
        lambda: _tamper(mint_identity_claim(customer_id="cust-1", room_name=ROOM, secret=SECRET)),
        lambda: mint_identity_claim(customer_id="cust-1", room_name=ROOM, secret="x" * 40),
        lambda: jwt.encode(
            {"sub": "cust-1", "aud": f"livekit-room:{ROOM}", "iss": "scheduling-host"},
            None,
            algorithm="none",
        ),
        lambda: jwt.encode(
            {
                "sub": "cust-1",
                "aud": f"livekit-room:{ROOM}",
                "iss": "scheduling-host",
                "iat": datetime.now(UTC),
                "exp": datetime.now(UTC) + timedelta(minutes=5),
                "jti": "j",
            },
            SECRET,
            algorithm="HS512",
        ),
        lambda: "not-a-jwt",
    ],
    ids=["tampered", "other-secret", "alg-none", "hs512", "garbage"],
)
def test_forged_claims_are_invalid(make_token):
    with pytest.raises(InvalidIdentityClaim):
        verify_identity_claim(make_token(), room_name=ROOM, secret=SECRET)


def test_expired_claim():
    token = mint_identity_claim(
        customer_id="cust-1",
        room_name=ROOM,
        secret=SECRET,
        ttl=timedelta(minutes=1),
        now=datetime.now(UTC) - timedelta(hours=1),
    )
    with pytest.raises(ExpiredIdentityClaim):
        verify_identity_claim(token, room_name=ROOM, secret=SECRET)


def test_claim_replayed_into_another_room():
    token = mint_identity_claim(customer_id="cust-1", room_name="room-a", secret=SECRET)
    with pytest.raises(WrongRoomClaim):
        verify_identity_claim(token, room_name="room-b", secret=SECRET)


@pytest.mark.parametrize("token", [None, ""])
def test_missing_claim(token):
    with pytest.raises(MissingIdentityClaim):
        verify_identity_claim(token, room_name=ROOM, secret=SECRET)


def test_short_secret_is_refused():
    with pytest.raises(ValueError, match="32 bytes"):
        mint_identity_claim(customer_id="cust-1", room_name=ROOM, secret="short")


def test_signed_claim_with_a_malformed_customer_id_is_invalid():
    token = jwt.encode(
        {
            "sub": "cust 1; DROP",
            "aud": f"livekit-room:{ROOM}",
            "iss": "scheduling-host",
            "iat": datetime.now(UTC),
            "exp": datetime.now(UTC) + timedelta(minutes=5),
            "jti": "j",
        },
        SECRET,
        algorithm="HS256",
    )
    with pytest.raises(InvalidIdentityClaim):
        verify_identity_claim(token, room_name=ROOM, secret=SECRET)


async def test_participant_identity_never_decides(directory):
    caller = FakeParticipant(identity="cust-42")
    with pytest.raises(MissingIdentityClaim):
        await authenticate_room_participant(
            caller, room_name="cust-42", identity_secret=SECRET, directory=directory
        )


async def test_customer_comes_from_the_claim_only(directory):
    claim = mint_identity_claim(customer_id="cust-7", room_name=ROOM, secret=SECRET)
    caller = FakeParticipant(identity="cust-99", attributes={IDENTITY_CLAIM_ATTRIBUTE: claim})
    identity = await authenticate_room_participant(
        caller, room_name=ROOM, identity_secret=SECRET, directory=directory
    )
    assert identity.customer_id == "cust-7"
    assert (identity.channel, identity.assurance, identity.actor_id) == (
        "web",
        "verified",
        "cust-99",
    )
    assert "cust-7" not in identity.log_id


@pytest.mark.parametrize("raw", ["+1 (555) 010-0123", "+15550100123", "0015550100123"])
async def test_sip_caller_found_by_number(directory, raw):
    await directory.add("+1 555 010 0123", "cust-sip")
    caller = FakeParticipant(
        identity="sip_caller",
        attributes={"sip.phoneNumber": raw},
        kind=rtc.ParticipantKind.PARTICIPANT_KIND_SIP,
    )
    identity = await authenticate_room_participant(
        caller, room_name=ROOM, identity_secret=SECRET, directory=directory
    )
    assert (identity.customer_id, identity.assurance, identity.channel) == (
        "cust-sip",
        "caller_id",
        "sip",
    )
    assert identity.actor_id == "sip:+15550100123"


@pytest.mark.parametrize("number", ["+15550100999", "", "anonymous"])
async def test_unknown_sip_caller(directory, number):
    caller = FakeParticipant(
        identity="sip_caller",
        attributes={"sip.phoneNumber": number},
        kind=rtc.ParticipantKind.PARTICIPANT_KIND_SIP,
    )
    with pytest.raises(UnknownCaller):
        await authenticate_room_participant(
            caller, room_name=ROOM, identity_secret=SECRET, directory=directory
        )


async def test_agents_are_not_callers(directory):
    agent = FakeParticipant(identity="agent-1", kind=rtc.ParticipantKind.PARTICIPANT_KIND_AGENT)
    with pytest.raises(UnsupportedParticipant):
        await authenticate_room_participant(
            agent, room_name=ROOM, identity_secret=SECRET, directory=directory
        )


def test_host_token_carries_claim_and_dispatch():
    token = mint_participant_token(
        api_key="devkey",
        api_secret="devsecret-devsecret-devsecret-00",
        room_name=ROOM,
        participant_identity="caller-1",
        customer_id="cust-1",
        identity_secret=SECRET,
        agent_name="scheduling-agent",
    )
    claims = api.TokenVerifier("devkey", "devsecret-devsecret-devsecret-00").verify(token)
    assert claims.identity == "caller-1"
    assert claims.video.room == ROOM and claims.video.can_update_own_metadata is False
    assert [d.agent_name for d in claims.room_config.agents] == ["scheduling-agent"]
    verified = verify_identity_claim(
        claims.attributes[IDENTITY_CLAIM_ATTRIBUTE], room_name=ROOM, secret=SECRET
    )
    assert verified.customer_id == "cust-1"


def test_cli_help_and_missing_settings():
    help_run = subprocess.run(
        [sys.executable, "-m", "identity.host_tokens", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert help_run.returncode == 0 and "--customer" in help_run.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LIVEKIT_", "IDENTITY_"))}
    missing = subprocess.run(
        [sys.executable, "-m", "identity.host_tokens", "--room", "r", "--customer", "c"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert missing.returncode == 2
    assert "LIVEKIT_API_KEY" in missing.stderr and "Traceback" not in missing.stderr


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_authenticates(text):
    with pytest.raises(IdentityError):
        verify_identity_claim(text, room_name=ROOM, secret=SECRET)
