"""The billing system as the worker sees it: its record of a service credit, the errors callers
are expected to handle, and the protocol `LocalBilling` and `HttpBilling` implement. Every
method may also raise `BillingUnavailable` when the billing system can't be used.

An HTTP answer is read straight into `Credit`: its `Field` checks are what the host's answer
must meet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Protocol

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


class BillingClient(Protocol):
    async def can_credit(self, actor_id: str, customer_id: str, pence: int) -> bool:
        """Host authorization: may this actor credit this customer's account this much?"""
        ...

    async def apply_credit(self, customer_id: str, pence: int, *, idempotency_key: str) -> Credit:
        """Apply one service credit. `CreditRefused` when the account can't take it;
        repeating `idempotency_key` returns the original credit instead of crediting twice."""
        ...

    async def credits_for(self, customer_id: str) -> list[Credit]:
        """The customer's applied credits, oldest first."""
        ...

    async def credit_for_key(self, idempotency_key: str) -> Credit | None:
        """The credit applied under `idempotency_key`, if that credit happened."""
        ...

    async def aclose(self) -> None: ...
