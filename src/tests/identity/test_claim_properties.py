"""Property tests: nothing but a host-signed claim for this room ever authenticates."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextdb_livekit.identity import (
    IdentityError,
    InvalidIdentityClaim,
    authenticate_room_participant,
    mint_identity_claim,
    verify_identity_claim,
)
from contextdb_livekit.identity.models import CUSTOMER_ID_PATTERN
from testkit.identity_tokens import (
    OTHER_SECRET,
    ROOM,
    SECRET,
    FakeParticipant,
    b64,
    claim_payload,
    hand_signed,
    sign,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
segments = st.one_of(
    st.binary(max_size=60).map(b64),
    st.dictionaries(st.text(max_size=8), json_values, max_size=5).map(
        lambda obj: b64(json.dumps(obj).encode())
    ),
    st.text(max_size=40),
)
jwt_shaped = st.tuples(segments, segments, segments).map(".".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), jwt_shaped))
def test_arbitrary_text_never_authenticates(text):
    with pytest.raises(IdentityError):
        verify_identity_claim(text, room_name=ROOM, secret=SECRET)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=8))
def test_any_payload_signed_with_another_key_is_invalid(payload):
    token = hand_signed({**claim_payload(), **payload}, OTHER_SECRET)
    with pytest.raises(InvalidIdentityClaim):
        verify_identity_claim(token, room_name=ROOM, secret=SECRET)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=8))
def test_any_correctly_signed_payload_either_verifies_as_its_subject_or_is_refused(payload):
    # Even the host's own key cannot make odd claim values crash verification.
    token = hand_signed({**claim_payload(), **payload}, SECRET)
    try:
        claim = verify_identity_claim(token, room_name=ROOM, secret=SECRET)
    except IdentityError:
        return
    assert claim.customer_id == {**claim_payload(), **payload}["sub"]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=140))
def test_signed_subject_is_taken_verbatim_or_refused(subject):
    token = sign(claim_payload(sub=subject))
    if CUSTOMER_ID_PATTERN.fullmatch(subject):
        assert verify_identity_claim(token, room_name=ROOM, secret=SECRET).customer_id == subject
    else:
        with pytest.raises(InvalidIdentityClaim):
            verify_identity_claim(token, room_name=ROOM, secret=SECRET)


@settings(max_examples=100, deadline=None)
@given(identity=st.text(max_size=40), name=st.text(max_size=40), room=st.text(min_size=1))
async def test_without_a_claim_no_participant_detail_authenticates(identity, name, room):
    # Whatever the caller calls itself, or the room is called, there is no customer id.
    participant = FakeParticipant(identity=identity, name=name, metadata=identity)
    with pytest.raises(IdentityError):
        await authenticate_room_participant(
            participant,
            room_name=room,
            identity_secret=SECRET,
            customer_for_phone=_no_directory,
            first_use=_no_registry,
        )


@settings(max_examples=50, deadline=None)
@given(st.from_regex(CUSTOMER_ID_PATTERN, fullmatch=True), st.text(min_size=1, max_size=60))
def test_every_valid_customer_and_room_round_trips(customer_id, room):
    token = mint_identity_claim(customer_id=customer_id, room_name=room, secret=SECRET)
    claim = verify_identity_claim(token, room_name=room, secret=SECRET)
    assert (claim.customer_id, claim.room_name) == (customer_id, room)


async def _no_directory(phone: str) -> str | None:
    raise AssertionError("a standard participant must never reach the SIP directory")


async def _no_registry(jti: str, expires_at: datetime) -> bool:
    raise AssertionError("a participant without a verified claim must never use a claim id")
