"""The days a caller's reply names, for `kit.days.CalendarDays.mentions`.

English weekdays (and Spanish, French and German weekday names, so "sí, el viernes" is a new
request, not a yes), "today", "tomorrow", "the day after tomorrow", ISO dates, "the 10th",
"10th", "the tenth", "december 10", "10 december", "the 10th of december [2026]". A date
without a month or year is the nearest such date to the offered day (else `today`), never
before `today` (`_resolve`). "today" and "tomorrow" resolve only when `today` is given;
nothing reads the clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta


def _words(text: str) -> list[str]:
    return text.split()


_WEEKDAYS: Mapping[str, int] = {
    **{
        name: i
        for i, names in enumerate(
            [
                "monday mondays lunes lundi montag",
                "tuesday tuesdays tues martes mardi dienstag",
                "wednesday wednesdays weds miercoles mercredi mittwoch",
                "thursday thursdays thurs jueves jeudi donnerstag",
                "friday fridays fri viernes vendredi freitag",
                "saturday saturdays sabado samedi samstag",
                "sunday sundays domingo dimanche sonntag",
            ]
        )
        for name in names.split()
    }
}
_WEEKDAY_NAMES = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
_MONTHS: Mapping[str, int] = {
    name: i + 1
    for i, names in enumerate(
        [
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ]
    )
    for name in names.split()
}
_UNITS = _words("one two three four five six seven eight nine")
_ORD_UNITS = _words("first second third fourth fifth sixth seventh eighth ninth")
_TEENS = _words("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
_ORD_TEENS = _words(
    "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
    "nineteenth"
)
_CARDINAL_WORDS: dict[tuple[str, ...], int] = {
    **{(w,): i + 1 for i, w in enumerate(_UNITS)},
    **{(w,): i + 10 for i, w in enumerate(_TEENS)},
    ("twenty",): 20,
    ("thirty",): 30,
    **{("twenty", w): 21 + i for i, w in enumerate(_UNITS)},
    ("thirty", "one"): 31,
}
_ORDINAL_WORDS: dict[tuple[str, ...], int] = {
    **{(w,): i + 1 for i, w in enumerate(_ORD_UNITS)},
    **{(w,): i + 10 for i, w in enumerate(_ORD_TEENS)},
    ("twentieth",): 20,
    ("thirtieth",): 30,
    **{("twenty", w): 21 + i for i, w in enumerate(_ORD_UNITS)},
    ("thirty", "first"): 31,
}
_NUMERIC_ORDINAL = re.compile(r"^([0-9]{1,2})(st|nd|rd|th)$")
_NUMERIC_DAY = re.compile(r"^([0-9]{1,2})(st|nd|rd|th)?$")
_YEAR = re.compile(r"^20[0-9]{2}$")


ISO_DATE = re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b")
POSSESSIVE_DAY = re.compile(
    r"\b(" + "|".join(sorted({*_WEEKDAYS, "today", "tomorrow"}, key=len, reverse=True)) + r")'s\b"
)


@dataclass(frozen=True)
class _Day:
    """A day or date named in the reply: `label` is what a new request returns."""

    label: str | None  # None: named but cannot be resolved to one date
    when: date | None  # the resolved date, when there is one
    weekday: int | None  # a bare weekday
    start: int
    end: int  # token span [start, end)

    def names(self, offered: date | None) -> bool:
        """Whether this names the offered day ("yes, Thursday" to a Thursday read-back)."""
        if offered is None:
            return False
        if self.weekday is not None:
            return self.weekday == offered.weekday()
        return self.when == offered


def _day_number(tokens: list[str], i: int, *, ordinal_only: bool) -> tuple[int, int] | None:
    """(day of month, tokens used) for a day number at tokens[i]."""
    if i >= len(tokens):
        return None
    numeric = (_NUMERIC_ORDINAL if ordinal_only else _NUMERIC_DAY).match(tokens[i])
    if numeric:
        return int(numeric.group(1)), 1
    tables = (_ORDINAL_WORDS,) if ordinal_only else (_ORDINAL_WORDS, _CARDINAL_WORDS)
    for width in (2, 1):
        key = tuple(tokens[i : i + width])
        for table in tables:
            if len(key) == width and key in table:
                return table[key], width
    return None


def _resolve(
    year: int | None, month: int | None, dom: int, *, offered: date | None, today: date | None
) -> date | None:
    """The date meant by a day of the month (and maybe month, year), or None.

    Without a month: that day in the month of the reference, or the month before/after; with a
    month but no year: that date in the reference's year, or the year before/after. Of those,
    the one nearest the reference (`offered`, else `today`), never before `today`: "january 5th"
    said about an offered 10 December is next January, "the 8th" is two days before it.
    """
    ref = offered or today
    if ref is None:
        return None
    candidates: list[date] = []
    for step in (-1, 0, 1):
        if year is not None and step:
            continue
        if month is None:
            m_index = ref.year * 12 + ref.month - 1 + step
            y, m = divmod(m_index, 12)
            y, m = y, m + 1
        else:
            y, m = (year if year is not None else ref.year + step), month
        try:
            candidates.append(date(y, m, dom))
        except ValueError:
            continue
    if today is not None:
        candidates = [c for c in candidates if c >= today]
    if not candidates:
        return None
    return min(candidates, key=lambda c: (abs((c - ref).days), c))


def find_days(tokens: list[str], *, offered: date | None, today: date | None) -> list[_Day]:
    days: list[_Day] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.startswith("iso") and len(tok) == 11 and tok[3:].isdigit():
            try:
                when: date | None = date(int(tok[3:7]), int(tok[7:9]), int(tok[9:11]))
            except ValueError:
                when = None
            days.append(_Day(when.isoformat() if when else None, when, None, i, i + 1))
            i += 1
            continue
        if tok in _WEEKDAYS:
            wd = _WEEKDAYS[tok]
            days.append(_Day(_WEEKDAY_NAMES[wd], None, wd, i, i + 1))
            i += 1
            continue
        if tok == "today":
            days.append(_Day("today", today, None, i, i + 1))
            i += 1
            continue
        if tok == "tomorrow":
            if i >= 2 and tokens[i - 2 : i] == ["day", "after"]:
                when = today + timedelta(days=2) if today else None
                days.append(_Day(when.isoformat() if when else None, when, None, i - 2, i + 1))
            else:
                when = today + timedelta(days=1) if today else None
                days.append(_Day("tomorrow", when, None, i, i + 1))
            i += 1
            continue
        # month first: "december 10", "dec the 10th", "december tenth 2026"
        if tok in _MONTHS:
            j = i + 1 + (i + 1 < n and tokens[i + 1] == "the")
            num = _day_number(tokens, j, ordinal_only=False)
            if num is not None:
                end = j + num[1]
                year = int(tokens[end]) if end < n and _YEAR.match(tokens[end]) else None
                end += year is not None
                when = _resolve(year, _MONTHS[tok], num[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
        # day first: "10 december", "the 10th", "10th of dec", "the tenth"
        has_the = tok == "the"
        j = i + 1 if has_the else i
        num = _day_number(tokens, j, ordinal_only=False)
        if num is not None:
            end = j + num[1]
            k = end + (end < n and tokens[end] == "of")
            if k < n and tokens[k] in _MONTHS:
                end = k + 1
                year = int(tokens[end]) if end < n and _YEAR.match(tokens[end]) else None
                end += year is not None
                when = _resolve(year, _MONTHS[tokens[k]], num[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
            ordinal = _day_number(tokens, j, ordinal_only=True)
            # A bare ordinal word needs "the" ("wait a second" is not the 2nd); "10th" does not.
            if ordinal is not None and (has_the or _NUMERIC_ORDINAL.match(tokens[j])):
                end = j + ordinal[1]
                when = _resolve(None, None, ordinal[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
        i += 1
    return days
