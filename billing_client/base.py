"""The billing system as the worker sees it. Implemented by `LocalBilling` and `HttpBilling`.
Every method may also raise `BillingUnavailable` when the billing system can't be used.
"""

from __future__ import annotations

from typing import Protocol

from billing_client.models import Credit


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
