from __future__ import annotations

from dataclasses import dataclass

import pytest
from livekit import rtc

from contextdb_livekit.identity import (
    IDENTITY_CLAIM_ATTRIBUTE,
    IdentityNotConfigured,
    MissingIdentityClaim,
    ReplayedIdentityClaim,
    UnknownCaller,
    UnsupportedParticipant,
    WrongRoomClaim,
    authenticate_room_participant,
    mint_identity_claim,
)
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from testkit.identity_tokens import ROOM, SECRET, FakeParticipant, real_participant

SIP = rtc.ParticipantKind.PARTICIPANT_KIND_SIP
KNOWN_NUMBER = "+15550100123"


@dataclass
class Host:
    """The host state authentication reads: the worker's own SQLite stores."""

    directory: SqliteCustomerDirectory
    claims: SqliteClaimRegistry


@pytest.fixture
async def host(tmp_path) -> Host:
    directory = SqliteCustomerDirectory(tmp_path / "customers.sqlite3")
    await directory.add("+1 555 010 0123", "cust-sip")
    return Host(directory, SqliteClaimRegistry(tmp_path / "claims.sqlite3"))


def claim_for(customer_id: str, room_name: str = ROOM) -> dict[str, str]:
    token = mint_identity_claim(customer_id=customer_id, room_name=room_name, secret=SECRET)
    return {IDENTITY_CLAIM_ATTRIBUTE: token}


async def authenticate(participant, host: Host, room_name: str = ROOM, secret: str = SECRET):
    return await authenticate_room_participant(
        participant,
        room_name=room_name,
        identity_secret=secret,
        customer_for_phone=host.directory.customer_for_phone,
        first_use=host.claims.first_use,
    )


async def test_participant_named_like_a_customer_without_a_claim_is_rejected(host):
    caller = FakeParticipant(identity="cust-42", name="cust-42", metadata='{"customer":"cust-42"}')
    with pytest.raises(MissingIdentityClaim):
        await authenticate(caller, host, room_name="cust-42")


async def test_customer_comes_from_the_claim_whatever_the_participant_says(host):
    caller = FakeParticipant(
        identity="cust-99",
        name="cust-99",
        metadata="cust-99",
        attributes={**claim_for("cust-7"), "customer_id": "cust-99"},
    )
    identity = await authenticate(caller, host)
    assert identity.customer_id == "cust-7"
    assert (identity.channel, identity.assurance) == ("web", "verified")
    assert (identity.actor_id, identity.participant_identity) == ("cust-99", "cust-99")
    assert identity.room_name == ROOM


async def test_real_remote_participant_is_accepted(host):
    caller = real_participant("caller-1", claim_for("cust-7"), name="cust-99")
    identity = await authenticate(caller, host)
    assert (identity.customer_id, identity.actor_id) == ("cust-7", "caller-1")


async def test_claim_from_another_call_is_refused(host):
    caller = FakeParticipant(identity="caller-1", attributes=claim_for("cust-7", "other-call"))
    with pytest.raises(WrongRoomClaim):
        await authenticate(caller, host)


async def test_worker_without_a_signing_secret_refuses_web_callers(host):
    caller = FakeParticipant(identity="caller-1", attributes=claim_for("cust-7"))
    with pytest.raises(IdentityNotConfigured):
        await authenticate(caller, host, secret="")


@pytest.mark.parametrize(
    "number", ["+15550100123", "+1 555 010 0123", "+1 (555) 010-0123", "+1-555-010-0123"]
)
async def test_sip_caller_is_found_by_number(host, number):
    caller = real_participant("sip_caller", {"sip.phoneNumber": number}, kind=SIP)
    identity = await authenticate(caller, host)
    assert identity.customer_id == "cust-sip"
    assert (identity.channel, identity.assurance) == ("sip", "caller_id")
    assert identity.actor_id == f"sip:{KNOWN_NUMBER}"
    assert identity.participant_identity == "sip_caller"


@pytest.mark.parametrize("number", ["+15550100999", "", "anonymous", "5550100123"])
async def test_unknown_or_withheld_sip_number_is_unknown_caller(host, number):
    caller = FakeParticipant(
        identity="sip_caller", attributes={"sip.phoneNumber": number}, kind=SIP
    )
    with pytest.raises(UnknownCaller):
        await authenticate(caller, host)


async def test_sip_participant_without_a_number_is_unknown_caller(host):
    with pytest.raises(UnknownCaller):
        await authenticate(FakeParticipant(identity="sip_caller", kind=SIP), host)


async def test_sip_caller_cannot_upgrade_to_verified_with_a_claim(host):
    attributes = {"sip.phoneNumber": KNOWN_NUMBER, **claim_for("cust-7")}
    caller = FakeParticipant(identity="sip_caller", attributes=attributes, kind=SIP)
    identity = await authenticate(caller, host)
    assert (identity.customer_id, identity.assurance) == ("cust-sip", "caller_id")


async def test_web_caller_cannot_claim_a_phone_number(host):
    caller = FakeParticipant(identity="caller-1", attributes={"sip.phoneNumber": KNOWN_NUMBER})
    with pytest.raises(MissingIdentityClaim):
        await authenticate(caller, host)


async def test_directory_entry_that_is_not_a_valid_id_is_refused(host):
    async def broken_directory(phone: str) -> str | None:
        return "not a valid id"

    caller = FakeParticipant(identity="s", attributes={"sip.phoneNumber": KNOWN_NUMBER}, kind=SIP)
    with pytest.raises(UnknownCaller):
        await authenticate_room_participant(
            caller,
            room_name=ROOM,
            identity_secret=SECRET,
            customer_for_phone=broken_directory,
            first_use=host.claims.first_use,
        )


@pytest.mark.parametrize(
    "kind",
    [
        rtc.ParticipantKind.PARTICIPANT_KIND_AGENT,
        rtc.ParticipantKind.PARTICIPANT_KIND_EGRESS,
        rtc.ParticipantKind.PARTICIPANT_KIND_INGRESS,
    ],
)
async def test_non_caller_participants_are_unsupported_even_with_a_claim(host, kind):
    participant = real_participant("agent-1", claim_for("cust-7"), kind=kind)
    with pytest.raises(UnsupportedParticipant):
        await authenticate(participant, host)


async def test_a_claim_joins_once(host):
    attributes = claim_for("cust-7")
    first = FakeParticipant(identity="web-cust-7", attributes=attributes)
    identity = await authenticate(first, host)
    assert identity.customer_id == "cust-7" and identity.claim_id
    # The same signed claim again (a copied token, or a second connection with it).
    second = FakeParticipant(identity="web-cust-7", attributes=attributes)
    with pytest.raises(ReplayedIdentityClaim):
        await authenticate(second, host)
    # A fresh claim for the same customer is fine, and compares equal as the same caller.
    third = FakeParticipant(identity="web-cust-7", attributes=claim_for("cust-7"))
    again = await authenticate(third, host)
    assert again == identity and again.claim_id != identity.claim_id
