"""A SIP caller's number in the one form the customer directory compares (E.164)."""

from __future__ import annotations

import re

# ASCII digits only: `\d` would also accept other scripts' digits and store look-alikes.
_E164 = re.compile(r"\+[0-9]{7,15}")
_FORMATTING = re.compile(r"[ \t\-()]")


def normalise_phone(raw: str) -> str:
    """`+1 (555) 010-0123` → `+15550100123`; anything not `+` and 7-15 digits is refused."""
    number = _FORMATTING.sub("", raw)
    if _E164.fullmatch(number) is None:
        raise ValueError("phone number must be `+` followed by 7-15 digits, e.g. +15550100123")
    return number
