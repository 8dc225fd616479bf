"""The billing system's view of a service credit, and the errors callers are expected to handle.
An HTTP answer is read straight into `Credit`: its `Field` checks are what the host's answer
must meet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from contextdb_livekit.api import HostSystemUnavailable, OutcomeUnknown


@dataclass(frozen=True)
class Credit:
    """A service credit applied to a customer's account, in pence."""

    credit_id: Annotated[str, Field(min_length=1, max_length=200)]
    customer_id: str
    pence: Annotated[int, Field(gt=0)]


class BillingError(Exception):
    """Base class for billing-system failures."""


class CreditRefused(BillingError):
    """The account can't take this credit (closed, over its limit): nothing was applied."""


class BillingUnavailable(BillingError, HostSystemUnavailable):
    """The billing system could not be reached, failed, or answered something we can't trust.
    Messages never carry credentials, so they are safe to log."""


class BillingOutcomeUnknown(BillingUnavailable, OutcomeUnknown):
    """The request may have reached the billing system, but no answer came back. Look the
    credit up by its idempotency key before saying anything; retry only with the same key."""
