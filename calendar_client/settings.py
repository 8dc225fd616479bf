"""Booking-system configuration from the environment, then `.env` and `.env.local`.

CALENDAR_BASE_URL     set → the host's REST API (`HttpCalendar`); empty → local SQLite
CALENDAR_API_KEY      bearer token for that API
CALENDAR_LOCAL_PATH   the local SQLite file (default .data/calendar.sqlite3)
CALENDAR_TIMEOUT_S    per-request budget for the REST API, seconds (default 3)
CALLER_TIMEZONE       IANA zone that "today" and "thursday" are read in (default UTC)
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from calendar_client.base import CalendarClient
from calendar_client.http import HttpCalendar
from calendar_client.local import LocalCalendar
from contextdb_livekit.api import HostSystemSettings, ZoneName, today_in


class CalendarSettings(HostSystemSettings):
    model_config = HostSystemSettings.prefixed("CALENDAR_")

    local_path: Path = Path(".data/calendar.sqlite3")
    caller_timezone: ZoneName = Field(default="UTC", alias="CALLER_TIMEZONE")


def build_calendar(settings: CalendarSettings) -> CalendarClient:
    """`HttpCalendar` when a base URL is configured, else the embedded `LocalCalendar`."""
    today = today_in(settings.caller_timezone)
    return settings.client(HttpCalendar, lambda path: LocalCalendar(path, today=today))
