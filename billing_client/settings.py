"""Billing-system configuration from the environment, then `.env` and `.env.local`.

BILLING_BASE_URL     set → the host's REST API (`HttpBilling`); empty → local SQLite
BILLING_API_KEY      bearer token for that API
BILLING_LOCAL_PATH   the local SQLite file (default .data/billing.sqlite3)
BILLING_TIMEOUT_S    per-request budget for the REST API, seconds (default 3)
"""

from __future__ import annotations

from pathlib import Path

from billing_client.base import BillingClient
from billing_client.http import HttpBilling
from billing_client.local import LocalBilling
from contextdb_livekit.api import HostSystemSettings


class BillingSettings(HostSystemSettings):
    model_config = HostSystemSettings.prefixed("BILLING_")

    local_path: Path = Path(".data/billing.sqlite3")


def build_billing(settings: BillingSettings) -> BillingClient:
    """`HttpBilling` when a base URL is configured, else the embedded `LocalBilling`."""
    return settings.client(HttpBilling, LocalBilling)
