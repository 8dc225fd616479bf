"""Booking-system configuration from the environment, then `.env` and `.env.local`.

CALENDAR_BASE_URL     set → the host's REST API (`HttpCalendar`); empty → local SQLite
CALENDAR_API_KEY      bearer token for that API
CALENDAR_LOCAL_PATH   the local SQLite file (default .data/calendar.sqlite3)
CALENDAR_TIMEOUT_S    per-request budget for the REST API, seconds (default 3)
CALLER_TIMEZONE       IANA zone that "today" and "thursday" are read in (default UTC)
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from calendar_client.base import CalendarClient
from calendar_client.http import HttpCalendar
from calendar_client.local import LocalCalendar
from contextdb_livekit.api import today_in, zone_named


class CalendarSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"),
        extra="ignore",
        validate_by_name=True,
        validate_by_alias=True,
    )

    base_url: str | None = Field(default=None, alias="CALENDAR_BASE_URL")
    api_key: SecretStr | None = Field(default=None, alias="CALENDAR_API_KEY")
    local_path: Path = Field(default=Path(".data/calendar.sqlite3"), alias="CALENDAR_LOCAL_PATH")
    timeout_s: float = Field(default=3.0, gt=0, le=60, alias="CALENDAR_TIMEOUT_S")
    caller_timezone: str = Field(default="UTC", alias="CALLER_TIMEZONE")

    @field_validator("base_url", mode="before")
    @classmethod
    def _http_url_or_unset(cls, value: object) -> object:
        # `.env.example` ships `CALENDAR_BASE_URL=`; blank must mean "use the local calendar".
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.startswith(("http://", "https://")):
                raise ValueError("CALENDAR_BASE_URL must start with http:// or https://")
        return value

    @field_validator("api_key", mode="before")
    @classmethod
    def _blank_key_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("caller_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        zone_named(value)
        return value


def build_calendar(settings: CalendarSettings) -> CalendarClient:
    """`HttpCalendar` when a base URL is configured, else the embedded `LocalCalendar`."""
    if settings.base_url:
        key = settings.api_key.get_secret_value() if settings.api_key else None
        return HttpCalendar(settings.base_url, api_key=key, timeout_s=settings.timeout_s)
    return LocalCalendar(settings.local_path, today=today_in(settings.caller_timezone))
