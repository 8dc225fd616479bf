"""Configuration picks the calendar: the host's REST API when configured, else local SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import respx
from pydantic import ValidationError

from calendar_client import (
    CalendarSettings,
    HttpCalendar,
    LocalCalendar,
    build_calendar,
)

BASE = "https://booking.test"
NAMES = [
    "CALENDAR_BASE_URL",
    "CALENDAR_API_KEY",
    "CALENDAR_LOCAL_PATH",
    "CALENDAR_TIMEOUT_S",
    "CALLER_TIMEZONE",
]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the checkout
    yield


def test_defaults() -> None:
    settings = CalendarSettings()
    assert settings.base_url is None
    assert settings.api_key is None
    assert settings.local_path == Path(".data/calendar.sqlite3")
    assert settings.timeout_s == 3.0
    assert settings.caller_timezone == "UTC"


async def test_local_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CALENDAR_LOCAL_PATH", str(tmp_path / "here" / "c.sqlite3"))
    calendar = build_calendar(CalendarSettings())
    assert isinstance(calendar, LocalCalendar)
    assert calendar.path == tmp_path / "here" / "c.sqlite3"
    await calendar.open_days(date.today(), 1)
    assert (tmp_path / "here" / "c.sqlite3").exists()


def test_blank_values_from_env_example_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALENDAR_BASE_URL", "")
    monkeypatch.setenv("CALENDAR_API_KEY", "")
    settings = CalendarSettings()
    assert settings.base_url is None
    assert settings.api_key is None
    assert isinstance(build_calendar(settings), LocalCalendar)


async def test_http_when_base_url_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALENDAR_BASE_URL", BASE)
    monkeypatch.setenv("CALENDAR_API_KEY", "cal-key")
    monkeypatch.setenv("CALENDAR_TIMEOUT_S", "1.5")
    settings = CalendarSettings()
    assert "cal-key" not in repr(settings)
    assert settings.timeout_s == 1.5
    calendar = build_calendar(settings)
    assert isinstance(calendar, HttpCalendar)
    with respx.mock(base_url=BASE) as api:
        route = api.get("/v1/customers/c-1/bookings").respond(200, json={"bookings": []})
        assert await calendar.bookings_for("c-1") == []
    assert route.calls.last.request.headers["Authorization"] == "Bearer cal-key"
    await calendar.aclose()


def test_reads_dotenv_files(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("CALENDAR_BASE_URL=https://a.test\nCALLER_TIMEZONE=Asia/Tokyo\n")
    (tmp_path / ".env.local").write_text("CALENDAR_BASE_URL=https://b.test\nUNRELATED=1\n")
    settings = CalendarSettings()
    assert settings.base_url == "https://b.test"  # .env.local wins
    assert settings.caller_timezone == "Asia/Tokyo"


def test_environment_beats_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("CALLER_TIMEZONE=Asia/Tokyo\n")
    monkeypatch.setenv("CALLER_TIMEZONE", "Europe/Paris")
    assert CalendarSettings().caller_timezone == "Europe/Paris"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CALLER_TIMEZONE", "Nowhere/Land"),
        ("CALLER_TIMEZONE", "../../etc/passwd"),
        ("CALENDAR_BASE_URL", "booking.test"),
        ("CALENDAR_BASE_URL", "file:///etc/passwd"),
        ("CALENDAR_TIMEOUT_S", "0"),
        ("CALENDAR_TIMEOUT_S", "-1"),
        ("CALENDAR_TIMEOUT_S", "soon"),
    ],
)
def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        CalendarSettings()


def test_field_names_also_work_in_code() -> None:
    settings = CalendarSettings(base_url=BASE, caller_timezone="America/Chicago")
    assert settings.base_url == BASE
    assert settings.caller_timezone == "America/Chicago"
