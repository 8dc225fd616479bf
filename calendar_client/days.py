"""Turn the model's `day` argument into a date.

The text comes from an LLM tool call, so it is untrusted: anything that is not exactly one of
the forms below, inside the booking window, is refused with `InvalidDay`.

    today | tomorrow | YYYY-MM-DD | [this |next ]<weekday>     (weekday: "thursday", "thu", …)

Case and runs of spaces don't matter. "thursday", "this thursday" and "next thursday" all
mean the next Thursday strictly after today, so a caller saying "Thursday" on a Thursday
gets next week's, never a visit that has already started.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from types import MappingProxyType
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from calendar_client.models import InvalidDay

MAX_DAY_CHARS = 32

_WEEKDAY_NUMBERS: Mapping[str, int] = MappingProxyType(
    {
        "monday": 0,
        "mon": 0,
        "tuesday": 1,
        "tue": 1,
        "tues": 1,
        "wednesday": 2,
        "wed": 2,
        "thursday": 3,
        "thu": 3,
        "thur": 3,
        "thurs": 3,
        "friday": 4,
        "fri": 4,
        "saturday": 5,
        "sat": 5,
        "sunday": 6,
        "sun": 6,
    }
)
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_WEEKDAY_PHRASE = re.compile(r"(?:(?:this|next) )?([a-z]+)")


def zone_named(tz_name: str) -> ZoneInfo:
    """The IANA zone, or ValueError (never KeyError/OSError) for anything that isn't one."""
    try:
        return ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise ValueError(f"unknown time zone {tz_name!r}") from None


def today_in(tz_name: str, now: datetime | None = None) -> date:
    """The calendar date in the caller's time zone; `now` (timezone-aware) pins the clock."""
    zone = zone_named(tz_name)
    if now is None:
        return datetime.now(zone).date()
    if now.tzinfo is None:
        # A naive time would silently use the host's zone, which is exactly the bug this avoids.
        raise ValueError("now must be timezone-aware")
    return now.astimezone(zone).date()


def parse_visit_day(text: str, *, today: date, horizon_days: int = 60) -> date:
    """The visit date `text` names, within [today, today + horizon_days]; else `InvalidDay`."""
    if horizon_days < 0:
        raise ValueError("horizon_days must not be negative")
    day = _named_day(text, today)
    if day < today:
        raise InvalidDay("in the past")
    if day > today + timedelta(days=horizon_days):
        raise InvalidDay("beyond the booking window")
    return day


def _named_day(text: object, today: date) -> date:
    if not isinstance(text, str):
        raise InvalidDay("not text")
    if len(text) > MAX_DAY_CHARS:
        raise InvalidDay("too long")
    # Every accepted form is plain ASCII; refusing the rest up front rules out look-alike
    # letters, zero-width and bidi characters, and case-folding surprises.
    if not text.isascii() or not text.isprintable():
        raise InvalidDay("unexpected characters")
    normal = " ".join(text.lower().split())
    if normal == "today":
        return today
    if normal == "tomorrow":
        return today + timedelta(days=1)
    if _ISO_DAY.fullmatch(normal):
        try:
            return date.fromisoformat(normal)
        except ValueError:
            raise InvalidDay("impossible date") from None
    phrase = _WEEKDAY_PHRASE.fullmatch(normal)
    if phrase is None or phrase.group(1) not in _WEEKDAY_NUMBERS:
        raise InvalidDay("unrecognised")
    days_ahead = (_WEEKDAY_NUMBERS[phrase.group(1)] - today.weekday()) % 7 or 7
    return today + timedelta(days=days_ahead)
