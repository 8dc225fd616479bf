from __future__ import annotations

import sqlite3

import pytest

from contextdb_livekit.identity import SqliteCustomerDirectory, normalise_phone


@pytest.mark.parametrize(
    "raw",
    ["+15550100123", "+1 555 010 0123", "+1 (555) 010-0123", "+1-555-010-0123", "\t+1555 0100123 "],
)
def test_formatting_is_stripped(raw):
    assert normalise_phone(raw) == "+15550100123"


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "15550100123",  # no leading +
        "+123456",  # 6 digits
        "+1234567890123456",  # 16 digits
        "+1555O100123",  # letter O
        "+1555.010.0123",  # dots are not in the accepted formatting
        "anonymous",
        "+١٥٥٥٠١٠٠١٢٣",  # Arabic-Indic digits look like digits to `\d`
        "++15550100123",
    ],
)
def test_non_international_numbers_are_refused(raw):
    with pytest.raises(ValueError, match="followed by 7-15 digits"):
        normalise_phone(raw)


def test_length_bounds_are_inclusive():
    assert normalise_phone("+1234567") == "+1234567"
    assert normalise_phone("+123456789012345") == "+123456789012345"


async def test_first_use_creates_folder_and_schema(tmp_path):
    path = tmp_path / "nested" / "deeper" / "customers.sqlite3"
    directory = SqliteCustomerDirectory(path)
    assert await directory.customer_for_phone("+15550100123") is None
    with sqlite3.connect(path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(customers)")]
    assert columns == ["phone", "customer_id"]


async def test_lookup_matches_any_formatting_of_the_stored_number(tmp_path):
    directory = SqliteCustomerDirectory(tmp_path / "customers.sqlite3")
    await directory.add("+1 (555) 010-0123", "cust-7")
    assert await directory.customer_for_phone("+15550100123") == "cust-7"
    assert await directory.customer_for_phone("+1 555 010 0123") == "cust-7"
    assert await directory.customer_for_phone("+15550100124") is None


async def test_entries_persist_and_can_be_reassigned(tmp_path):
    path = tmp_path / "customers.sqlite3"
    await SqliteCustomerDirectory(path).add("+15550100123", "cust-old")
    await SqliteCustomerDirectory(str(path)).add("+1 555 010 0123", "cust-new")
    assert await SqliteCustomerDirectory(path).customer_for_phone("+15550100123") == "cust-new"


async def test_add_refuses_bad_numbers_and_ids(tmp_path):
    directory = SqliteCustomerDirectory(tmp_path / "customers.sqlite3")
    with pytest.raises(ValueError):
        await directory.add("555-0100", "cust-1")
    with pytest.raises(ValueError, match="customer id"):
        await directory.add("+15550100123", "not a valid id")
    assert await directory.customer_for_phone("+15550100123") is None
