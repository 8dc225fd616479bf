"""The host's booking system: a local SQLite default and an HTTP client for your own."""

from contextdb_livekit.domain.calendar.base import CalendarClient
from contextdb_livekit.domain.calendar.days import (
    MAX_DAY_CHARS,
    parse_visit_day,
    today_in,
    zone_named,
)
from contextdb_livekit.domain.calendar.http import HttpCalendar
from contextdb_livekit.domain.calendar.local import LocalCalendar
from contextdb_livekit.domain.calendar.models import (
    Booking,
    CalendarError,
    CalendarOutcomeUnknown,
    CalendarUnavailable,
    Credit,
    CreditRefused,
    InvalidDay,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from contextdb_livekit.domain.calendar.settings import CalendarSettings, build_calendar

__all__ = [
    "MAX_DAY_CHARS",
    "Booking",
    "CalendarClient",
    "CalendarError",
    "CalendarOutcomeUnknown",
    "CalendarSettings",
    "CalendarUnavailable",
    "Credit",
    "CreditRefused",
    "HttpCalendar",
    "InvalidDay",
    "LocalCalendar",
    "Slot",
    "SlotChanged",
    "SlotUnavailable",
    "build_calendar",
    "parse_visit_day",
    "today_in",
    "zone_named",
]
