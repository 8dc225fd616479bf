"""Calendar days as the target of a gated action (`TargetKind[date]`), and the caller's today.

The model's argument is untrusted: anything that is not exactly one of these forms, within
[today, today + horizon_days], is refused with `InvalidDay` (one fixed sentence):

    today | tomorrow | YYYY-MM-DD | [this |next ]<weekday>     (weekday: "thursday", "thu", …)

Case and runs of spaces don't matter. "thursday", "this thursday" and "next thursday" all
mean the next Thursday strictly after today, so "Thursday" said on a Thursday is next week's,
never a day that has already started. How a caller's reply names days (weekdays in English,
Spanish, French and German, dates, "the 10th") is `kit.day_mentions`.

    CalendarDays(horizon_days=60)   a line's day target: "on Thursday 10 December"
    today_in("Europe/London")       the date in the caller's zone, never the host's
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from types import MappingProxyType
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator

from contextdb_livekit.kit.day_mentions import ISO_DATE, POSSESSIVE_DAY, find_days
from contextdb_livekit.kit.target import InvalidTarget, Mention

MAX_DAY_CHARS = 32

_SPOKEN_INVALID_DAY = (
    "I couldn't understand that day. Please say a weekday like Thursday or a date like 2026-12-10."
)
_WEEKDAY_NUMBERS: Mapping[str, int] = MappingProxyType(
    {
        name: number
        for number, names in enumerate(
            [
                "monday mon",
                "tuesday tue tues",
                "wednesday wed",
                "thursday thu thur thurs",
                "friday fri",
                "saturday sat",
                "sunday sun",
            ]
        )
        for name in names.split()
    }
)
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_WEEKDAY_PHRASE = re.compile(r"(?:(?:this|next) )?([a-z]+)")


class InvalidDay(InvalidTarget):
    """The day text is not a day of this kind.

    `str(error)` is always the same short sentence, safe to hand back to the model or speak:
    it never echoes the untrusted input. `detail` says why, for logs.
    """

    def __init__(self, detail: str = "") -> None:
        super().__init__(_SPOKEN_INVALID_DAY)
        self.detail = detail


def zone_named(tz_name: str) -> ZoneInfo:
    """The IANA zone, or ValueError (never KeyError/OSError) for anything that isn't one."""
    try:
        return ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise ValueError(f"unknown time zone {tz_name!r}") from None


def _a_zone(tz_name: str) -> str:
    zone_named(tz_name)
    return tz_name


# A settings field that holds an IANA zone's name: anything else fails validation at start-up.
ZoneName = Annotated[str, AfterValidator(_a_zone)]


def today_in(tz_name: str, now: datetime | None = None) -> date:
    """The calendar date in the caller's time zone; `now` (timezone-aware) pins the clock."""
    zone = zone_named(tz_name)
    if now is None:
        return datetime.now(zone).date()
    if now.tzinfo is None:
        # A naive time would silently use the host's zone, which is exactly the bug this avoids.
        raise ValueError("now must be timezone-aware")
    return now.astimezone(zone).date()


def parse_day(text: str, *, today: date, horizon_days: int = 60) -> date:
    """The date `text` names, within [today, today + horizon_days]; else `InvalidDay`."""
    if horizon_days < 0:
        raise ValueError("horizon_days must not be negative")
    day = _named_day(text, today)
    if day < today:
        raise InvalidDay("in the past")
    if day > today + timedelta(days=horizon_days):
        raise InvalidDay("beyond the horizon")
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


def spoken_day(day: date) -> str:
    """A date as said in a read-back: Thursday 10 December."""
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B')}"


@dataclass(frozen=True)
class CalendarDays:
    """Days from today to `horizon_days` ahead, as a gated action's target."""

    horizon_days: int = 60
    noun: str = "day"

    def parse(self, text: str, *, today: date) -> date:
        return parse_day(text, today=today, horizon_days=self.horizon_days)

    def spoken(self, target: date) -> str:
        return f"on {spoken_day(target)}"

    def key(self, target: date) -> str:
        return target.isoformat().replace("-", "_")

    def protect(self, folded: str) -> str:
        folded = ISO_DATE.sub(lambda m: f" iso{m.group(1)}{m.group(2)}{m.group(3)} ", folded)
        # "thursday's fine" -> thursday is fine
        return POSSESSIVE_DAY.sub(lambda m: f"{m.group(1)} is", folded)

    def mentions(
        self, tokens: Sequence[str], *, offered: date | None, today: date | None
    ) -> list[Mention]:
        return [
            Mention(d.start, d.end, d.label, d.names(offered))
            for d in find_days(list(tokens), offered=offered, today=today)
        ]
