"""A SIP caller's number in the one form the customer directory compares."""

from __future__ import annotations

import pytest

from contextdb_livekit.identity import normalise_phone


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
