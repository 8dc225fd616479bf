from __future__ import annotations

import dataclasses
import hashlib
import re

import pytest

from contextdb_livekit.identity import (
    CallerIdentity,
    ExpiredIdentityClaim,
    IdentityError,
    IdentityNotConfigured,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    UnknownCaller,
    UnsupportedParticipant,
    WrongRoomClaim,
)


def caller(customer_id: str = "cust-42") -> CallerIdentity:
    return CallerIdentity(
        customer_id=customer_id,
        actor_id="caller-1",
        channel="web",
        assurance="verified",
        room_name="call-1",
        participant_identity="caller-1",
    )


def test_log_id_is_a_short_sha256_pseudonym():
    identity = caller("cust-42")
    assert identity.log_id == hashlib.sha256(b"cust-42").hexdigest()[:12]
    assert re.fullmatch(r"[0-9a-f]{12}", identity.log_id)
    assert caller("cust-43").log_id != identity.log_id


def test_caller_identity_is_immutable():
    identity = caller()
    with pytest.raises(dataclasses.FrozenInstanceError):
        identity.customer_id = "cust-victim"  # type: ignore[misc]


@pytest.mark.parametrize("customer_id", ["", "has space", "x" * 129, "semi;colon"])
def test_caller_identity_refuses_ids_contextdb_would_reject(customer_id):
    with pytest.raises(ValueError):
        caller(customer_id)


def test_every_error_is_an_identity_error_with_its_own_reason():
    kinds = [
        MissingIdentityClaim,
        InvalidIdentityClaim,
        ExpiredIdentityClaim,
        WrongRoomClaim,
        UnknownCaller,
        UnsupportedParticipant,
        IdentityNotConfigured,
    ]
    assert all(issubclass(kind, IdentityError) for kind in kinds)
    reasons = [kind().reason for kind in kinds]
    assert len(set(reasons)) == len(kinds)
    assert InvalidIdentityClaim().reason == "invalid_claim"  # logged by the worker


def test_error_keeps_operator_detail_out_of_the_spoken_message():
    error = InvalidIdentityClaim(detail="InvalidSignatureError")
    assert error.detail == "InvalidSignatureError"
    assert "InvalidSignatureError" not in str(error)
    assert str(InvalidIdentityClaim("Please sign in again.")) == "Please sign in again."
