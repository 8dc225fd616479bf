"""A business system's settings (`api.HostSystemSettings`, library `kit/host_settings.py`):
its variables named by its prefix, blanks unset, a base URL that is HTTP(S), errors that
name the variable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import Field, ValidationError

from contextdb_livekit.api import HostSystemSettings

NAMES = ["STOCK_BASE_URL", "STOCK_API_KEY", "STOCK_LOCAL_PATH", "STOCK_TIMEOUT_S", "STOCK_ZONE"]


class StockSettings(HostSystemSettings):
    model_config = HostSystemSettings.prefixed("STOCK_")

    local_path: Path = Path(".data/stock.sqlite3")
    zone: str = Field(default="UTC", alias="STOCK_ZONE")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the checkout
    yield


def test_defaults_and_variables_named_by_the_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = StockSettings()
    assert (settings.base_url, settings.api_key, settings.timeout_s) == (None, None, 3.0)
    assert settings.local_path == Path(".data/stock.sqlite3")
    monkeypatch.setenv("STOCK_BASE_URL", "  https://stock.test/api ")
    monkeypatch.setenv("STOCK_API_KEY", "s3cret")
    monkeypatch.setenv("STOCK_LOCAL_PATH", "/data/stock.db")
    monkeypatch.setenv("STOCK_TIMEOUT_S", "7.5")
    settings = StockSettings()
    assert settings.base_url == "https://stock.test/api"
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "s3cret"
    assert "s3cret" not in repr(settings)
    assert (settings.local_path, settings.timeout_s) == (Path("/data/stock.db"), 7.5)
    assert StockSettings(base_url="http://other.test", zone="Europe/Paris").zone == "Europe/Paris"


def test_blank_values_are_unset_and_dotenv_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("STOCK_BASE_URL=\nSTOCK_API_KEY=   \nSTOCK_ZONE=Asia/Tokyo\n")
    settings = StockSettings()
    assert (settings.base_url, settings.api_key, settings.zone) == (None, None, "Asia/Tokyo")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("STOCK_BASE_URL", "ftp://stock.test", "STOCK_BASE_URL must start with http://"),
        ("STOCK_TIMEOUT_S", "0", "greater than 0"),
        ("STOCK_TIMEOUT_S", "61", "less than or equal to 60"),
    ],
)
def test_errors_name_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        StockSettings()
    [error] = refused.value.errors()
    assert error["loc"] == (name,)
    assert message in error["msg"]


def test_the_client_is_the_rest_apis_when_a_base_url_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[tuple[object, ...]] = []

    def http(base_url: str, *, api_key: str | None, timeout_s: float) -> str:
        made.append((base_url, api_key, timeout_s))
        return "rest"

    def local(path: Path) -> str:
        made.append((path,))
        return "local"

    assert StockSettings().client(http, local) == "local"
    assert made == [(Path(".data/stock.sqlite3"),)]
    monkeypatch.setenv("STOCK_BASE_URL", "https://stock.test/api")
    monkeypatch.setenv("STOCK_TIMEOUT_S", "5")
    assert StockSettings().client(http, local) == "rest"
    assert made[-1] == ("https://stock.test/api", None, 5.0)
    monkeypatch.setenv("STOCK_API_KEY", "s3cret")
    StockSettings().client(http, local)
    assert made[-1] == ("https://stock.test/api", "s3cret", 5.0)
