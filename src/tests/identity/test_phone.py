"""A SIP caller's number in the one form the customer directory compares (phonenumbers' E.164)."""

from __future__ import annotations

import pytest

from contextdb_livekit.identity import normalise_phone


@pytest.mark.parametrize(
    "raw",
    [
        "+15550100123",
        "+1 555 010 0123",
        "+1 (555) 010-0123",
        "+1-555-010-0123",
        "\t+1555 0100123 ",
        "+1555.010.0123",
        "+١٥٥٥٠١٠٠١٢٣",  # other scripts' digits come back as ASCII, never stored as look-alikes
    ],
)
def test_formatting_is_stripped(raw):
    assert normalise_phone(raw) == "+15550100123"


def test_the_national_prefix_written_inside_an_international_number_is_dropped():
    assert normalise_phone("+44 (0)20 7946 0018") == "+442079460018"


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "15550100123",  # no leading +: which country's number is it?
        "07700 900123",  # a national form, no country code
        "+123456",  # shorter than any +1 number
        "+1234567",
        "+155501001230",  # longer than any +1 number
        "+1234567890123456",
        "+1555O100123",  # letter O
        "+15550O100123",  # phonenumbers alone would drop the O and read +15550100123
        "+1 800 FLOWERS",  # a keypad word is not a caller id
        "anonymous",
        "+999123456789",  # no such country code
    ],
)
def test_non_international_numbers_are_refused(raw):
    with pytest.raises(ValueError, match="must be international"):
        normalise_phone(raw)


def test_lengths_follow_the_country():
    assert normalise_phone("+15550100") == "+15550100"  # a US local-only length
    assert normalise_phone("+4930123456") == "+4930123456"
    assert normalise_phone("+49301234567") == "+49301234567"
