"""The customer directory contract (stores.directory), one suite run against the SQLite and
the Postgres directory: a caller's number answers with its customer id and nothing else."""

from __future__ import annotations

import sqlite3
import stat
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

from contextdb_livekit.identity import IdentityStoreUnavailable
from testkit.host_state_handles import (
    KINDS,
    Backend,
    Handles,
    backend_for,
    open_handles,
    umask,
)


@pytest.fixture(params=KINDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return backend_for(request)


@pytest.fixture
async def handles(backend: Backend, tmp_path: Path) -> AsyncIterator[Handles]:
    async with open_handles(backend, tmp_path) as opened:
        yield opened


async def test_a_number_answers_with_its_customer_in_any_formatting(handles: Handles) -> None:
    directory = handles.directory()
    await directory.add("+1 (555) 010-0123", "cust-7")
    for spelling in ["+15550100123", "+1 555 010 0123", "+1-555-010-0123", "\t+1555 0100123 ",
                     "+1555.010.0123", "+١٥٥٥٠١٠٠١٢٣"]:  # fmt: skip
        assert await directory.customer_for_phone(spelling) == "cust-7"


async def test_an_unknown_number_has_no_customer(handles: Handles) -> None:
    directory = handles.directory()
    assert await directory.customer_for_phone("+15550100123") is None  # empty store
    await directory.add("+15550100123", "cust-7")
    assert await directory.customer_for_phone("+15550100124") is None
    await directory.add("+4930123456", "cust-8")
    assert await directory.customer_for_phone("+49301234567") is None  # a longer number


async def test_each_number_answers_with_its_own_customer(handles: Handles) -> None:
    directory = handles.directory()
    await directory.add("+15550100123", "cust-a")
    await directory.add("+445550100123", "cust-b")
    await directory.add("+15550100999", "cust-a")  # one customer, two lines
    assert await directory.customer_for_phone("+15550100123") == "cust-a"
    assert await directory.customer_for_phone("+445550100123") == "cust-b"
    assert await directory.customer_for_phone("+15550100999") == "cust-a"


async def test_an_entry_is_seen_from_every_handle_and_can_be_reassigned(
    handles: Handles,
) -> None:
    await handles.directory().add("+15550100123", "cust-old")
    assert await handles.directory().customer_for_phone("+15550100123") == "cust-old"
    await handles.directory().add("+1 555 010 0123", "cust-new")
    assert await handles.directory().customer_for_phone("+15550100123") == "cust-new"


@pytest.mark.parametrize(
    "number",
    ["", "anonymous", "15550100123", "+123456", "+1555\x000100123", "+1555\n0100123",
     "+155501001230", "+1555O100123"],
)  # fmt: skip
async def test_text_that_is_not_a_number_is_refused(handles: Handles, number: str) -> None:
    directory = handles.directory()
    with pytest.raises(ValueError, match="must be international"):
        await directory.add(number, "cust-7")
    with pytest.raises(ValueError, match="must be international"):
        await directory.customer_for_phone(number)


@pytest.mark.parametrize("customer_id", ["", "not a valid id", "cust\x00-1", "x" * 129, "cüst"])
async def test_a_customer_id_contextdb_would_refuse_is_never_kept(
    handles: Handles, customer_id: str
) -> None:
    directory = handles.directory()
    with pytest.raises(ValueError, match="customer id"):
        await directory.add("+15550100123", customer_id)
    assert await directory.customer_for_phone("+15550100123") is None


async def test_a_directory_that_cannot_answer_leaves_the_caller_unverified(
    handles: Handles,
) -> None:
    down = handles.down("directory").directory()
    with pytest.raises(IdentityStoreUnavailable):
        await down.customer_for_phone("+15550100123")
    with pytest.raises(IdentityStoreUnavailable):
        await down.add("+15550100123", "cust-7")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_the_sqlite_directory_file_is_owner_only(handles: Handles) -> None:
    with umask(0o000):
        assert await handles.directory().customer_for_phone("+15550100123") is None
    path = handles.path("directory")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    with closing(sqlite3.connect(path)) as conn:  # the table an operator fills by hand
        columns = [row[1] for row in conn.execute("PRAGMA table_info(customers)")]
    assert columns == ["phone", "customer_id"]
