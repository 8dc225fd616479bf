"""The host's booking system: a local SQLite default and an HTTP client for your own.
`build_calendar(CalendarSettings())` picks one from the `CALENDAR_*` variables and
`CALLER_TIMEZONE` (calendar_client/README.md), read from the environment, `.env`, `.env.local`.
"""

from pathlib import Path

from pydantic import Field

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
from contextdb_livekit.api import HostSystemSettings, ZoneName, today_in

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


class CalendarSettings(HostSystemSettings):
    model_config = HostSystemSettings.prefixed("CALENDAR_")

    local_path: Path = Path(".data/calendar.sqlite3")
    caller_timezone: ZoneName = Field(default="UTC", alias="CALLER_TIMEZONE")


def build_calendar(settings: CalendarSettings) -> CalendarClient:
    """`HttpCalendar` when a base URL is configured, else the embedded `LocalCalendar`."""
    today = today_in(settings.caller_timezone)
    return settings.client(HttpCalendar, lambda path: LocalCalendar(path, today=today))
