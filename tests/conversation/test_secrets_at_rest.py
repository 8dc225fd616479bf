"""Secrets a caller says never come to rest: every SQLite file and log after the calls is
scanned for each planted secret (engine rows and annotation columns, ledger, outbox,
attestations, calendar), with memory up and with memory down (the outbox holds the write).
Planted: a card, an SSN, a password, door / gate / padlock codes (spoken, with "hash"), an
IBAN, a sort code, a spoken account number and a date of birth."""

from __future__ import annotations

import logging

import pytest

from testkit.secret_scan import find_planted
from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend

# Planted values are chosen so that nothing else at rest can hold them by chance: no bare
# digit string short enough to turn up inside a uuid, a hex id or a timestamp. Codes and bank
# numbers are planted spoken (the scan looks for the words), or typed with separators no id
# has ("14/03/1962"), or long (the card's 16 digits, the SSN's 9, an 8-digit gate code).
CARD = "4111 1111 1111 1111"
SSN = "123-45-6789"
PASSWORD = "hunter2secret"
DOOR_CODE = "four eight two one"
GATE_CODE = "58273946"
PADLOCK_CODE = "seven three one nine"
IBAN = "GB33 BUKB 2020 1555 5555 55"
IBAN_COMPACT = "GB33BUKB20201555555555"
SORT_CODE = "four oh, four seven, eight four"
ACCOUNT_NUMBER = "three one nine two six eight one nine"
DATE_OF_BIRTH = "14/03/1962"
# Issue 31: a spoken CVV beside a withheld card, a card read in two halves, a Canadian SIN,
# an alarm code after "it's".
CVV = "two one one"
CARD_FIRST_HALF, CARD_SECOND_HALF = "5555 5555", "5555 4444"
SIN = "434 060 752"
ALARM_CODE = "nine nine one two"
# The new kinds ride in sentences the extractor keeps as access notes ("the dog", "ring the
# bell" ...), so without redaction they would be written: the scan has something to find.
LINES = [
    f"the padlock on the side gate is {PADLOCK_CODE} hash",
    f"the dog is friendly and for the refund my IBAN is {IBAN}",
    f"ring the bell twice, my sort code is {SORT_CODE}",
    f"beware of the cat, my account number is {ACCOUNT_NUMBER}",
    f"the dog is called Rex and my date of birth is {DATE_OF_BIRTH}",
    f"my card number is {CARD} if you need it",
    f"my social security number is {SSN}",
    f"the password for the portal is {PASSWORD}",
    f"the door code is {DOOR_CODE} and please use the side gate",
    "book a visit on thursday",
    "yes",
    f"oh and the gate code is {GATE_CODE} too",
]
# One a call: each is that call's access note, so without redaction each would be written
# (one call keeps one access note: the last).
ISSUE_31_LINES = [
    f"use the side gate, card 4539 1488 0343 6467 and the security number is {CVV}",
    f"use the side gate, the card is {CARD_FIRST_HALF} then {CARD_SECOND_HALF}",
    f"ring the bell twice, my SIN is {SIN}",
    f"use the side gate and to turn the alarm off it's {ALARM_CODE}",
]
PLANTED = [
    CARD,
    SSN,
    PASSWORD,
    DOOR_CODE,
    GATE_CODE,
    PADLOCK_CODE,
    IBAN,
    IBAN_COMPACT,
    SORT_CODE,
    ACCOUNT_NUMBER,
    DATE_OF_BIRTH,
]
ISSUE_31_PLANTED = [CVV, CARD_FIRST_HALF, CARD_SECOND_HALF, SIN, ALARM_CODE]


@pytest.fixture
def log_file(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "worker.log"
    handler = logging.FileHandler(path)
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    previous = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    yield path
    root.removeHandler(handler)
    root.setLevel(previous)
    handler.close()


@pytest.mark.parametrize("memory_up", [True, False], ids=["memory_up", "memory_down"])
async def test_planted_secrets_are_found_nowhere_at_rest(
    make_call, local_engine, tmp_path, log_file, memory_up
):
    identity = caller()
    backend = local_engine if memory_up else FlakyBackend(local_engine, failing={"remember_many"})
    harness = await make_call(identity, backend=backend)
    await harness.say(*LINES)
    outcome = await harness.hang_up()
    assert (outcome.written > 0) if memory_up else (outcome.queued > 0)
    assert len(await harness.calendar.bookings_for(identity.customer_id)) == (1 if memory_up else 0)
    # The access note itself survives, its code does not.
    later = await make_call(identity)
    if memory_up:
        assert "access code on file" in later.agent.instructions
    # Every file under tmp_path: engine rows and its WAL, outbox, ledger, attestations, log.
    hits = {secret: find_planted(secret, [tmp_path]) for secret in PLANTED}
    assert hits == {secret: [] for secret in PLANTED}


@pytest.mark.parametrize("memory_up", [True, False], ids=["memory_up", "memory_down"])
async def test_secrets_that_reached_rest_before_issue_31_are_found_nowhere(
    make_call, local_engine, tmp_path, log_file, memory_up
):
    identity = caller()
    backend = local_engine if memory_up else FlakyBackend(local_engine, failing={"remember_many"})
    for line in ISSUE_31_LINES:
        harness = await make_call(identity, backend=backend)
        await harness.say(line)
        outcome = await harness.hang_up()
        assert (outcome.written > 0) if memory_up else (outcome.queued > 0)
    later = await make_call(identity)
    if memory_up:  # the notes are kept, without their secrets
        assert "use the side gate" in later.agent.instructions
    hits = {secret: find_planted(secret, [tmp_path]) for secret in ISSUE_31_PLANTED}
    assert hits == {secret: [] for secret in ISSUE_31_PLANTED}
