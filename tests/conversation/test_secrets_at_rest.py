"""Secrets a caller says never come to rest: every SQLite file and log after the calls is
scanned for each planted secret (engine rows and annotation columns, ledger, outbox,
attestations, calendar), with memory up and with memory down (the outbox holds the write)."""

from __future__ import annotations

import logging

import pytest

from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend
from tests.secret_scan import find_planted

CARD = "4111 1111 1111 1111"
SSN = "123-45-6789"
PASSWORD = "hunter2secret"
DOOR_CODE = "4821"
LINES = [
    f"my card number is {CARD} if you need it",
    f"my social security number is {SSN}",
    f"the password for the portal is {PASSWORD}",
    f"the door code is {DOOR_CODE} and please use the side gate",
    "book a visit on thursday",
    "yes",
    f"oh and the gate code is {DOOR_CODE} too",
]


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
    hits = {secret: find_planted(secret, [tmp_path]) for secret in (CARD, SSN, PASSWORD, DOOR_CODE)}
    assert hits == {CARD: [], SSN: [], PASSWORD: [], DOOR_CODE: []}
