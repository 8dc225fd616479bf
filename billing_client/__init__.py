"""The host's billing system (service credits): a local SQLite default and an HTTP client."""

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
from billing_client.settings import BillingSettings, build_billing

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
