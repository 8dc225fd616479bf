from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import jwt
import pytest

from contextdb_livekit.identity import (
    ExpiredIdentityClaim,
    IdentityError,
    IdentityNotConfigured,
    InvalidIdentityClaim,
    MissingIdentityClaim,
    WrongRoomClaim,
    mint_identity_claim,
    verify_identity_claim,
)
from testkit.identity_tokens import (
    OTHER_SECRET,
    ROOM,
    SECRET,
    b64,
    claim_payload,
    decoded_payload,
    hand_signed,
    sign,
    with_payload,
)


def mint(customer_id: str = "cust-1", room_name: str = ROOM, **kwargs) -> str:
    return mint_identity_claim(
        customer_id=customer_id, room_name=room_name, secret=SECRET, **kwargs
    )


def verify(token: str | None, room_name: str = ROOM, **kwargs):
    return verify_identity_claim(token, room_name=room_name, secret=SECRET, **kwargs)


def test_round_trip_carries_customer_room_expiry_and_jti():
    before = datetime.now(UTC)
    claim = verify(mint("cust-42"))
    assert claim.customer_id == "cust-42"
    assert claim.room_name == ROOM
    # Minted with the default ten minutes; JWT times are whole seconds.
    expected = before + timedelta(minutes=10)
    assert abs((claim.expires_at - expected).total_seconds()) <= 2
    assert re.fullmatch(r"[0-9a-f]{32}", claim.jti)


def test_minted_claim_has_the_documented_registered_claims():
    now = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    payload = decoded_payload(mint("cust-42", now=now, ttl=timedelta(minutes=3)))
    assert payload["iss"] == "scheduling-host"
    assert payload["sub"] == "cust-42"
    assert payload["aud"] == f"livekit-room:{ROOM}"
    assert payload["iat"] == payload["nbf"] == int(now.timestamp())
    assert payload["exp"] == int((now + timedelta(minutes=3)).timestamp())


def test_each_claim_gets_its_own_jti():
    assert verify(mint()).jti != verify(mint()).jti


def _flip_payload_char(token: str) -> str:
    header, payload, signature = token.split(".")
    index = len(payload) // 2
    flipped = "A" if payload[index] != "A" else "B"
    return f"{header}.{payload[:index]}{flipped}{payload[index + 1 :]}.{signature}"


def test_flipped_payload_character_is_invalid():
    token = mint()
    tampered = _flip_payload_char(token)
    assert tampered != token
    with pytest.raises(InvalidIdentityClaim):
        verify(tampered)


def test_payload_rewritten_to_another_customer_is_invalid():
    token = mint("cust-attacker")
    forged = with_payload(token, {**decoded_payload(token), "sub": "cust-victim"})
    with pytest.raises(InvalidIdentityClaim):
        verify(forged)


def test_claim_signed_with_another_secret_is_invalid():
    forged = mint_identity_claim(customer_id="cust-1", room_name=ROOM, secret=OTHER_SECRET)
    with pytest.raises(InvalidIdentityClaim):
        verify(forged)


def test_unsigned_alg_none_claim_is_invalid():
    unsigned = jwt.encode(claim_payload(), None, algorithm="none")
    assert unsigned.endswith(".")  # really has no signature
    with pytest.raises(InvalidIdentityClaim):
        verify(unsigned)


def test_hand_made_alg_none_header_on_a_real_signature_is_invalid():
    _, payload, signature = mint().split(".")
    header = b64(b'{"alg":"none","typ":"JWT"}')
    with pytest.raises(InvalidIdentityClaim):
        verify(f"{header}.{payload}.{signature}")


@pytest.mark.parametrize("algorithm", ["HS384", "HS512"])
def test_other_hmac_algorithms_are_refused_even_with_the_right_secret(algorithm):
    token = sign(claim_payload(), SECRET, algorithm)
    # Same key, same claims: only the algorithm differs, and that alone must be refused.
    assert (
        jwt.decode(
            token,
            SECRET,
            algorithms=[algorithm],
            audience=f"livekit-room:{ROOM}",
        )["sub"]
        == "cust-1"
    )
    with pytest.raises(InvalidIdentityClaim):
        verify(token)


@pytest.mark.parametrize("garbage", ["not-a-jwt", "a.b.c", "...", "\ud800.x.y", " " * 3])
def test_garbage_is_invalid(garbage):
    with pytest.raises(InvalidIdentityClaim):
        verify(garbage)


def test_claim_expired_on_the_real_clock():
    token = mint(ttl=timedelta(minutes=1), now=datetime.now(UTC) - timedelta(hours=1))
    with pytest.raises(ExpiredIdentityClaim):
        verify(token)


def test_claim_expired_at_an_injected_instant():
    minted_at = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    token = mint(ttl=timedelta(minutes=10), now=minted_at)
    assert verify(token, now=minted_at + timedelta(minutes=9)).customer_id == "cust-1"
    with pytest.raises(ExpiredIdentityClaim):
        verify(token, now=minted_at + timedelta(minutes=11))


def test_leeway_tolerates_small_clock_skew_only():
    minted_at = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    token = mint(ttl=timedelta(minutes=10), now=minted_at)
    expiry = minted_at + timedelta(minutes=10)
    assert verify(token, now=expiry + timedelta(seconds=3), leeway_s=5).customer_id == "cust-1"
    with pytest.raises(ExpiredIdentityClaim):
        verify(token, now=expiry + timedelta(seconds=3), leeway_s=0)


@pytest.mark.parametrize("clock", ["real", "injected"])
def test_claim_from_the_future_is_invalid(clock):
    token = mint(now=datetime.now(UTC) + timedelta(hours=1))
    now = None if clock == "real" else datetime.now(UTC)
    with pytest.raises(InvalidIdentityClaim):
        verify(token, now=now)


def test_naive_now_is_a_programming_error():
    with pytest.raises(ValueError, match="timezone-aware"):
        mint(now=datetime(2030, 1, 1, 12, 0))
    with pytest.raises(ValueError, match="timezone-aware"):
        verify(mint(), now=datetime(2030, 1, 1, 12, 0))


@pytest.mark.parametrize("clock", ["real", "injected"])
def test_claim_minted_for_room_a_is_refused_in_room_b(clock):
    token = mint(room_name="room-a")
    now = None if clock == "real" else datetime.now(UTC)
    assert verify(token, room_name="room-a", now=now).room_name == "room-a"
    with pytest.raises(WrongRoomClaim):
        verify(token, room_name="room-b", now=now)


def test_room_names_must_match_exactly_not_by_prefix():
    with pytest.raises(WrongRoomClaim):
        verify(mint(room_name="call-1"), room_name="call-10")


def test_audience_list_is_refused_even_if_it_names_this_room():
    token = sign(claim_payload(aud=[f"livekit-room:{ROOM}", "livekit-room:other"]))
    with pytest.raises(WrongRoomClaim):
        verify(token)


@pytest.mark.parametrize("dropped", ["exp", "iat", "sub", "aud", "iss", "jti"])
def test_each_required_claim_must_be_present(dropped):
    token = sign(claim_payload(**{dropped: None}))
    with pytest.raises(IdentityError) as raised:
        verify(token)
    assert isinstance(raised.value, InvalidIdentityClaim)


def test_claim_from_another_issuer_is_invalid():
    with pytest.raises(InvalidIdentityClaim):
        verify(sign(claim_payload(iss="someone-else")))


@pytest.mark.parametrize("token", [None, ""])
def test_missing_claim(token):
    with pytest.raises(MissingIdentityClaim):
        verify(token)


@pytest.mark.parametrize("secret", ["", "short", "x" * 31])
def test_minting_with_a_short_secret_is_refused(secret):
    with pytest.raises(ValueError, match="at least 32 bytes"):
        mint_identity_claim(customer_id="cust-1", room_name=ROOM, secret=secret)


def test_secret_length_counts_bytes_not_characters():
    eleven_chars_33_bytes = "€" * 11
    token = mint_identity_claim(customer_id="c", room_name=ROOM, secret=eleven_chars_33_bytes)
    assert verify_identity_claim(token, room_name=ROOM, secret=eleven_chars_33_bytes).customer_id
    with pytest.raises(ValueError):
        mint_identity_claim(customer_id="c", room_name=ROOM, secret="€" * 10)


@pytest.mark.parametrize("secret", ["", "short"])
def test_verifier_without_a_strong_secret_refuses_everyone(secret):
    # Even a claim correctly signed with that weak key is not trusted (PyJWT cannot sign
    # with an empty key, so that case gets an ordinary claim).
    token = sign(claim_payload(), secret or SECRET)
    with pytest.raises(IdentityNotConfigured):
        verify_identity_claim(token, room_name=ROOM, secret=secret)


@pytest.mark.parametrize("customer_id", ["", "cust 1", "cust/1", "c" * 129, "cüst", "cust\n"])
def test_validly_signed_claim_with_a_malformed_customer_id_is_invalid(customer_id):
    with pytest.raises(InvalidIdentityClaim):
        verify(sign(claim_payload(sub=customer_id)))


@pytest.mark.parametrize("customer_id", ["cust 1", "c" * 129, ""])
def test_host_cannot_mint_a_malformed_customer_id(customer_id):
    with pytest.raises(ValueError, match="customer id"):
        mint(customer_id)


def test_longest_allowed_customer_id_round_trips():
    customer_id = "a.b_c:d@e+f-" + "9" * 116
    assert len(customer_id) == 128
    assert verify(mint(customer_id)).customer_id == customer_id


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"room_name": ""}, "room_name"), ({"ttl": timedelta(0)}, "ttl")],
)
def test_minting_refuses_unbound_or_dead_claims(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mint(**kwargs)


def test_error_messages_are_speakable_and_leak_nothing():
    failures: list[IdentityError] = []
    for token, room in [
        (None, ROOM),
        (with_payload(mint("cust-secret-99"), {"sub": "cust-secret-99"}), ROOM),
        (mint("cust-secret-99", now=datetime.now(UTC) - timedelta(hours=2)), ROOM),
        (mint("cust-secret-99"), "other-room"),
    ]:
        with pytest.raises(IdentityError) as raised:
            verify(token, room_name=room)
        failures.append(raised.value)
    assert len({type(error) for error in failures}) == 4
    for error in failures:
        spoken = str(error)
        assert spoken.startswith("I couldn't confirm who is calling")
        assert "cust-secret-99" not in spoken
        assert "Error" not in spoken and "jwt" not in spoken.lower()
        assert re.fullmatch(r"[a-z_]+", error.reason)


def test_hand_signed_helper_matches_pyjwt():
    # Guards the property tests: their hand-made tokens must be what PyJWT would accept.
    token = hand_signed(claim_payload(sub="cust-hand"), SECRET)
    assert verify(token).customer_id == "cust-hand"


@pytest.mark.parametrize("jti", ["", "x" * 129, "jti\x00-1", "jti\n1", 42, None, ["a"]])
def test_a_signed_claim_whose_id_the_registry_cannot_keep_is_invalid(jti):
    # Even the host's own key: the claim id is what makes one sign-in join once.
    with pytest.raises(InvalidIdentityClaim):
        verify(sign(claim_payload(jti=jti)))


def test_a_claim_id_is_taken_verbatim():
    assert verify(sign(claim_payload(jti="x" * 128))).jti == "x" * 128
    assert verify(mint()).jti
