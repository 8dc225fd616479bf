"""The host's booking system: a local SQLite default and an HTTP client for your own."""

from calendar_client.base import (
    Booking,
    CalendarClient,
    CalendarError,
    CalendarOutcomeUnknown,
    CalendarUnavailable,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from calendar_client.http import HttpCalendar
from calendar_client.local import LocalCalendar
from calendar_client.settings import CalendarSettings, build_calendar

__all__ = [
    "Booking",
    "CalendarClient",
    "CalendarError",
    "CalendarOutcomeUnknown",
    "CalendarSettings",
    "CalendarUnavailable",
    "HttpCalendar",
    "LocalCalendar",
    "Slot",
    "SlotChanged",
    "SlotUnavailable",
    "build_calendar",
]
