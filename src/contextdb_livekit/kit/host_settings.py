"""A business system's settings: its REST API when a base URL is set, else its local file.

A line's system subclasses `HostSystemSettings` with its variables' prefix and its file:

    class BillingSettings(HostSystemSettings):
        model_config = HostSystemSettings.prefixed("BILLING_")
        local_path: Path = Path(".data/billing.sqlite3")

reads BILLING_BASE_URL (blank is unset; else http:// or https://), BILLING_API_KEY (blank is
unset), BILLING_LOCAL_PATH and BILLING_TIMEOUT_S (0 < s <= 60, default 3) from the
environment, then `.env` and `.env.local`. A field of the subclass's own may name its variable
with an alias (`Field(alias="CALLER_TIMEZONE")`). Errors name the variable, as the worker's
start-up check reports them.

`client(http, local)` is the system's client: `http(base_url, api_key=..., timeout_s=...)` when a
base URL is set, else `local(local_path)`.

`local_data_paths` names the local files of a line's systems, for the start-up check to probe
(`LineProfile.data_paths`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Local = TypeVar("Local")
Rest = TypeVar("Rest")
Client_co = TypeVar("Client_co", covariant=True)


class RestClient(Protocol[Client_co]):
    """How a system's REST client is made (`HostApi`'s constructor)."""

    def __call__(self, base_url: str, *, api_key: str | None, timeout_s: float) -> Client_co: ...


class HostSystemSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"),
        extra="ignore",
        validate_by_name=True,
        validate_by_alias=True,
    )

    base_url: str | None = None
    api_key: SecretStr | None = None
    local_path: Path
    timeout_s: float = Field(default=3.0, gt=0, le=60)

    @staticmethod
    def prefixed(prefix: str) -> SettingsConfigDict:
        """A subclass's `model_config`: its variables are `prefix` + the field's name."""
        return SettingsConfigDict(alias_generator=lambda name: f"{prefix}{name.upper()}")

    def client(self, http: RestClient[Rest], local: Callable[[Path], Local]) -> Rest | Local:
        """The REST client when a base URL is set, else the local file's."""
        if self.base_url:
            key = self.api_key.get_secret_value() if self.api_key else None
            return http(self.base_url, api_key=key, timeout_s=self.timeout_s)
        return local(self.local_path)

    @field_validator("base_url", mode="before")
    @classmethod
    def _http_url_or_unset(cls, value: object, info: ValidationInfo) -> object:
        # `.env.example` ships `<PREFIX>BASE_URL=`; blank must mean "use the local file".
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.startswith(("http://", "https://")):
                variable = cls.model_fields[str(info.field_name)].alias or info.field_name
                raise ValueError(f"{variable} must start with http:// or https://")
        return value

    @field_validator("api_key", mode="before")
    @classmethod
    def _blank_key_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value


def local_data_paths(settings: Sequence[BaseSettings]) -> list[tuple[str, Path]]:
    """The local files of the business systems with no REST API configured, each with the
    variable that names it (`<PREFIX>LOCAL_PATH`)."""
    return [
        (type(s).model_fields["local_path"].alias or "local_path", s.local_path)
        for s in settings
        if isinstance(s, HostSystemSettings) and not s.base_url
    ]
