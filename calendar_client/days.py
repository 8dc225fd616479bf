"""Turn the model's day argument into a date. The text is untrusted: anything that is not
exactly a weekday, "today", "tomorrow" or an ISO date in the booking window is refused."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from calendar_client.models import InvalidDay

MAX_DAY_CHARS = 32
_WEEKDAYS = {
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
_WEEKDAY_FORM = re.compile(r"^(?:(?:this|next|on)\s+)?([a-z]+)$")
_ISO_FORM = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def today_in(tz_name: str, now: datetime | None = None) -> date:
    try:
        zone = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {tz_name!r}") from None
    return (now or datetime.now(zone)).astimezone(zone).date()


def parse_visit_day(text: str, *, today: date, horizon_days: int = 60) -> date:
    if not isinstance(text, str) or len(text) > MAX_DAY_CHARS:
        raise InvalidDay("too long")
    if any(not ch.isprintable() for ch in text):
        raise InvalidDay("control characters")
    normal = " ".join(text.strip().lower().split())
    if normal == "today":
        day = today
    elif normal == "tomorrow":
        day = today + timedelta(days=1)
    elif _ISO_FORM.fullmatch(normal):
        try:
            day = date.fromisoformat(normal)
        except ValueError:
            raise InvalidDay("impossible date") from None
    elif (match := _WEEKDAY_FORM.fullmatch(normal)) and match.group(1) in _WEEKDAYS:
        # The next occurrence strictly after today: "thursday" said on a Thursday is next week.
        ahead = (_WEEKDAYS[match.group(1)] - today.weekday()) % 7 or 7
        day = today + timedelta(days=ahead)
    else:
        raise InvalidDay("unrecognised")
    if day < today:
        raise InvalidDay("in the past")
    if day > today + timedelta(days=horizon_days):
        raise InvalidDay("beyond the booking window")
    return day
