"""A business system's REST API, with the kit's failure semantics: what a line's HTTP client
for its booking, billing or any other system sends every request through.

- Never sent (connection refused or timed out, pool exhausted): the system's
  `HostSystemUnavailable` — nothing happened.
- Sent with no answer (read timeout, reset, the whole-call budget spent) on a request that
  changes something: its `OutcomeUnknown` — look the attempt up by its idempotency key before
  saying anything. A GET that got no answer changed nothing: `HostSystemUnavailable`.
- 401/403, any other non-2xx, a body that is not the expected shape: `HostSystemUnavailable`,
  whose message names the failure and never the API key or the body.

`Authorization: Bearer <api_key>` on every request when a key is set. Response models should
be strict pydantic models with `extra="ignore"`, so a host may add fields.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from contextdb_livekit.kit.errors import HostSystemUnavailable, OutcomeUnknown

Body = TypeVar("Body", bound=BaseModel)


class HostApi:
    def __init__(
        self,
        base_url: str,
        *,
        name: str,
        unavailable: type[HostSystemUnavailable],
        outcome_unknown: type[OutcomeUnknown],
        api_key: str | None = None,
        timeout_s: float = 3.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.name = name  # "booking system": how messages name it
        self._unavailable, self._outcome_unknown = unavailable, outcome_unknown
        self._timeout_s = timeout_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=headers, timeout=timeout_s, transport=transport
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            # httpx's timeout bounds each phase; this bounds the whole call, which is what a
            # caller waiting on the line actually feels.
            async with asyncio.timeout(self._timeout_s):
                return await self._http.request(method, path, **kwargs)
        except (httpx.ConnectTimeout, httpx.ConnectError, httpx.PoolTimeout) as exc:
            # Never sent: safe to report as "not done".
            raise self._unavailable(f"{self.name} unreachable ({type(exc).__name__})") from exc
        except (
            TimeoutError,
            httpx.TimeoutException,
            httpx.RemoteProtocolError,
            httpx.ReadError,
        ) as exc:
            if method == "GET":
                raise self._unavailable(f"{self.name} timed out") from exc
            raise self._outcome_unknown(
                f"{self.name} sent no answer ({type(exc).__name__})"
            ) from exc
        except httpx.RequestError as exc:
            raise self._unavailable(f"{self.name} unreachable ({type(exc).__name__})") from exc

    def parse(self, response: httpx.Response, body: type[Body]) -> Body:
        status = response.status_code
        if status in (401, 403):
            raise self._unavailable(f"{self.name} refused our credentials (HTTP {status})")
        if status >= 500:
            raise self._unavailable(f"{self.name} failed (HTTP {status})")
        if status not in (200, 201):
            raise self._unavailable(f"{self.name} answered HTTP {status}")
        try:
            return body.model_validate_json(response.content)
        except ValidationError as exc:
            raise self._unavailable(f"{self.name} sent a response we could not read") from exc


def path_segment(value: str) -> str:
    """`value` as one percent-encoded path segment."""
    # "." and ".." would be normalised away by the URL, addressing a different resource.
    if value in ("", ".", ".."):
        raise ValueError("not a usable id")
    return quote(value, safe="")
