"""Billing-system configuration from the environment, then `.env` and `.env.local`.

BILLING_BASE_URL     set → the host's REST API (`HttpBilling`); empty → local SQLite
BILLING_API_KEY      bearer token for that API
BILLING_LOCAL_PATH   the local SQLite file (default .data/billing.sqlite3)
BILLING_TIMEOUT_S    per-request budget for the REST API, seconds (default 3)
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from billing_client.base import BillingClient
from billing_client.http import HttpBilling
from billing_client.local import LocalBilling


class BillingSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"),
        extra="ignore",
        validate_by_name=True,
        validate_by_alias=True,
    )

    base_url: str | None = Field(default=None, alias="BILLING_BASE_URL")
    api_key: SecretStr | None = Field(default=None, alias="BILLING_API_KEY")
    local_path: Path = Field(default=Path(".data/billing.sqlite3"), alias="BILLING_LOCAL_PATH")
    timeout_s: float = Field(default=3.0, gt=0, le=60, alias="BILLING_TIMEOUT_S")

    @field_validator("base_url", "api_key", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `.env.example` ships `BILLING_BASE_URL=`; blank must mean "use the local billing".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip().startswith(("http://", "https://")):
            raise ValueError("BILLING_BASE_URL must start with http:// or https://")
        return value.strip() if value else value


def build_billing(settings: BillingSettings) -> BillingClient:
    """`HttpBilling` when a base URL is configured, else the embedded `LocalBilling`."""
    if settings.base_url:
        key = settings.api_key.get_secret_value() if settings.api_key else None
        return HttpBilling(settings.base_url, api_key=key, timeout_s=settings.timeout_s)
    return LocalBilling(settings.local_path)
