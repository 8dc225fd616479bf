"""A SIP caller's number in the one form the customer directory compares (E.164)."""

from __future__ import annotations

import phonenumbers

REFUSED = "phone number must be international (`+` and the country code), e.g. +15550100123"


def normalise_phone(raw: str) -> str:
    """`+1 (555) 010-0123` → `+15550100123` (phonenumbers' E.164). Refused: no `+` and
    country code, a length the country's numbers never have, letters (phonenumbers would
    read them as keypad digits or drop them, making another number)."""
    if any(c.isalpha() for c in raw):
        raise ValueError(REFUSED)
    try:
        number = phonenumbers.parse(raw, None)
    except phonenumbers.NumberParseException:
        raise ValueError(REFUSED) from None
    if not phonenumbers.is_possible_number(number):
        raise ValueError(REFUSED)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
