"""Client for a host billing system over REST. The contract (also in billing_client/README.md):

    POST /v1/credits/authorizations/check   {"actor_id": ..., "customer_id": ..., "pence": N}
         200 {"allowed": true | false}
    POST /v1/credits   Idempotency-Key: <key>   {"customer_id": ..., "pence": N}
         200/201 {"credit_id": ..., "customer_id": ..., "pence": N}
         409/422 {"code": "credit_refused"}   → CreditRefused (nothing applied)
    GET  /v1/customers/{customer_id}/credits   (customer_id percent-encoded)
         200 {"credits": [credit, ...]}
    GET  /v1/credits?idempotency_key=KEY
         200 {"credits": [credit]} or {"credits": []}   the credit applied under KEY

A request that may have been sent but got no answer raises `BillingOutcomeUnknown`: look the
credit up by its key before saying anything. `Authorization: Bearer <api_key>` on every
request when a key is set; every other failure raises `BillingUnavailable`, whose message
never carries the key. Unknown extra fields in responses are ignored.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from billing_client.models import BillingOutcomeUnknown, BillingUnavailable, Credit, CreditRefused

_Body = TypeVar("_Body", bound="_ResponseBody")


class _ResponseBody(BaseModel):
    # Strict: "2500" is not an amount and "true" is not a yes; a host sending those is broken.
    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class _CreditBody(_ResponseBody):
    credit_id: str = Field(min_length=1, max_length=200)
    customer_id: str
    pence: int = Field(gt=0)

    def to_credit(self) -> Credit:
        return Credit(self.credit_id, self.customer_id, self.pence)


class _CreditsBody(_ResponseBody):
    credits: list[_CreditBody]


class _AuthorizationBody(_ResponseBody):
    allowed: bool


class HttpBilling:
    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 3.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._timeout_s = timeout_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=headers, timeout=timeout_s, transport=transport
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def can_credit(self, actor_id: str, customer_id: str, pence: int) -> bool:
        response = await self._request(
            "POST",
            "/v1/credits/authorizations/check",
            json={"actor_id": actor_id, "customer_id": customer_id, "pence": pence},
        )
        return _parse(response, _AuthorizationBody).allowed

    async def apply_credit(self, customer_id: str, pence: int, *, idempotency_key: str) -> Credit:
        if not idempotency_key:
            raise ValueError("idempotency_key is required")
        response = await self._request(
            "POST",
            "/v1/credits",
            json={"customer_id": customer_id, "pence": pence},
            headers={"Idempotency-Key": idempotency_key},
        )
        if response.status_code in (409, 422):
            raise CreditRefused(f"billing system refused the credit (HTTP {response.status_code})")
        credit = _parse(response, _CreditBody).to_credit()
        if (credit.customer_id, credit.pence) != (customer_id, pence):
            # Never report another customer's credit (or another amount) as this caller's.
            raise BillingUnavailable("billing system confirmed a different credit")
        return credit

    async def credits_for(self, customer_id: str) -> list[Credit]:
        if customer_id in ("", ".", ".."):
            # "." and ".." would be normalised away by the URL, addressing another resource.
            raise ValueError("not a usable id")
        path = f"/v1/customers/{quote(customer_id, safe='')}/credits"
        response = await self._request("GET", path)
        return [body.to_credit() for body in _parse(response, _CreditsBody).credits]

    async def credit_for_key(self, idempotency_key: str) -> Credit | None:
        if not idempotency_key:
            raise ValueError("idempotency_key is required")
        response = await self._request(
            "GET", "/v1/credits", params={"idempotency_key": idempotency_key}
        )
        found = _parse(response, _CreditsBody).credits
        if len(found) > 1:
            # One key acts at most once; two answers mean the host is not keyed as agreed.
            raise BillingUnavailable("billing system returned several credits for one key")
        return found[0].to_credit() if found else None

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            # Bounds the whole call, which is what a caller waiting on the line feels.
            async with asyncio.timeout(self._timeout_s):
                return await self._http.request(method, path, **kwargs)
        except (httpx.ConnectTimeout, httpx.ConnectError, httpx.PoolTimeout) as exc:
            # Never sent: safe to report as "not done".
            raise BillingUnavailable(f"billing system unreachable ({type(exc).__name__})") from exc
        except (
            TimeoutError,
            httpx.TimeoutException,
            httpx.RemoteProtocolError,
            httpx.ReadError,
        ) as exc:
            if method == "GET":
                raise BillingUnavailable("billing system timed out") from exc
            raise BillingOutcomeUnknown(
                f"billing system sent no answer ({type(exc).__name__})"
            ) from exc
        except httpx.RequestError as exc:
            raise BillingUnavailable(f"billing system unreachable ({type(exc).__name__})") from exc


def _parse(response: httpx.Response, body: type[_Body]) -> _Body:
    status = response.status_code
    if status in (401, 403):
        raise BillingUnavailable(f"billing system refused our credentials (HTTP {status})")
    if status not in (200, 201):
        raise BillingUnavailable(f"billing system answered HTTP {status}")
    try:
        return body.model_validate_json(response.content)
    except ValidationError as exc:
        raise BillingUnavailable("billing system sent a response we could not read") from exc
