"""Booking-system configuration (environment, then `.env` / `.env.local`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from calendar_client.base import CalendarClient
from calendar_client.days import today_in
from calendar_client.http import HttpCalendar
from calendar_client.local import LocalCalendar


class CalendarSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"), extra="ignore", populate_by_name=True
    )

    base_url: str | None = Field(default=None, alias="CALENDAR_BASE_URL")
    api_key: SecretStr | None = Field(default=None, alias="CALENDAR_API_KEY")
    local_path: Path = Field(default=Path(".data/calendar.sqlite3"), alias="CALENDAR_LOCAL_PATH")
    timeout_s: float = Field(default=3.0, gt=0, alias="CALENDAR_TIMEOUT_S")
    caller_timezone: str = Field(default="UTC", alias="CALLER_TIMEZONE")

    @field_validator("caller_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        today_in(value)
        return value

    @field_validator("base_url")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value or None


def build_calendar(settings: CalendarSettings) -> CalendarClient:
    if settings.base_url:
        key = settings.api_key.get_secret_value() if settings.api_key else None
        return HttpCalendar(settings.base_url, api_key=key, timeout_s=settings.timeout_s)
    return LocalCalendar(settings.local_path, today=today_in(settings.caller_timezone))
