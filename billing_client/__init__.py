"""The host's billing system (service credits): a local SQLite default and an HTTP client.
`build_billing(BillingSettings())` picks one from the `BILLING_*` variables
(billing_client/README.md), read from the environment, `.env`, `.env.local`.
"""

from pathlib import Path

from billing_client.base import (
    BillingClient,
    BillingError,
    BillingOutcomeUnknown,
    BillingUnavailable,
    Credit,
    CreditRefused,
)
from billing_client.http import HttpBilling
from billing_client.local import LocalBilling
from contextdb_livekit.api import HostSystemSettings

__all__ = [
    "BillingClient",
    "BillingError",
    "BillingOutcomeUnknown",
    "BillingSettings",
    "BillingUnavailable",
    "Credit",
    "CreditRefused",
    "HttpBilling",
    "LocalBilling",
    "build_billing",
]


class BillingSettings(HostSystemSettings):
    model_config = HostSystemSettings.prefixed("BILLING_")

    local_path: Path = Path(".data/billing.sqlite3")


def build_billing(settings: BillingSettings) -> BillingClient:
    """`HttpBilling` when a base URL is configured, else the embedded `LocalBilling`."""
    return settings.client(HttpBilling, LocalBilling)
