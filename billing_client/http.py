"""Client for a host billing system over REST: the contract, each endpoint with its answers
and errors, is billing_client/README.md's ("REST contract").

The failures are the library's `HostApi`'s: a credit that may have been sent but got no answer
raises `BillingOutcomeUnknown` (look the credit up by its key before saying anything); any
other failure raises `BillingUnavailable`, whose message never carries the key.
"""

from __future__ import annotations

from billing_client.base import BillingOutcomeUnknown, BillingUnavailable, Credit, CreditRefused
from contextdb_livekit.api import HostApi, path_segment


class HttpBilling(HostApi):
    name = "billing system"
    unavailable = BillingUnavailable
    outcome_unknown = BillingOutcomeUnknown

    async def can_credit(self, actor_id: str, customer_id: str, pence: int) -> bool:
        return await self.allowed(
            "/v1/credits/authorizations/check",
            actor_id=actor_id,
            customer_id=customer_id,
            pence=pence,
        )

    async def apply_credit(self, customer_id: str, pence: int, *, idempotency_key: str) -> Credit:
        return await self.change(
            "/v1/credits",
            Credit,
            idempotency_key=idempotency_key,
            json={"customer_id": customer_id, "pence": pence},
            refused=lambda response: CreditRefused(
                f"billing system refused the credit (HTTP {response.status_code})"
            ),
            echoes={"customer_id": customer_id, "pence": pence},
            what="credit",
        )

    async def credits_for(self, customer_id: str) -> list[Credit]:
        path = f"/v1/customers/{path_segment(customer_id)}/credits"
        return await self.get_listed(path, "credits", Credit)

    async def credit_for_key(self, idempotency_key: str) -> Credit | None:
        return await self.one_for_key("/v1/credits", idempotency_key, field="credits", item=Credit)
