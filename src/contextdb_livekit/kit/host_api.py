"""A business system's REST API, with the kit's failure semantics: what a line's HTTP client
for its booking, billing or any other system sends every request through.

- Never sent (connection refused or timed out, pool exhausted): the system's
  `HostSystemUnavailable` — nothing happened.
- Sent with no answer (read timeout, reset, the whole-call budget spent) on a request that
  changes something: its `OutcomeUnknown` — look the attempt up by its idempotency key before
  saying anything. A GET that got no answer changed nothing: `HostSystemUnavailable`.
- 401/403, any other non-2xx, a body that is not the expected shape: `HostSystemUnavailable`,
  whose message names the failure and never the API key or the body.

`Authorization: Bearer <api_key>` on every request when a key is set. An answer is read as a
`ResponseBody` or straight into the line's own dataclass (its checks as `Annotated[int,
Field(ge=0)]`), strictly either way ("2" is not a number, "true" is not a yes), unknown fields
ignored so a host may add to them.

A line's client either holds a `HostApi` or is one: a subclass names its system once
(`name`, `unavailable`, `outcome_unknown` as class attributes) and keeps the constructor
`(base_url, *, api_key, timeout_s, transport)`. `request(..., idempotency_key=KEY)` sends a
change under its key; `allowed` asks the system's authorization check; `one_for_key` is crash
recovery's question, "what did this idempotency key do?": one item or none, several means the
system is not keyed as agreed.

The shapes a client repeats: `get` reads one answer (a 404 may mean "no such thing"),
`get_listed` the items of `{field: [item, ...]}`;
`change` POSTs under a key, turns the system's "no" into the line's own exception and checks
the answer `echoes` the request; `read_refusal` reads a "no" body, `{"code": ...}` (`Refusal`).
An answer for another customer, day or amount is never reported as this request's: it is
`HostSystemUnavailable`, "<name> answered for a different <what>".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Mapping
from functools import cache
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, create_model

from contextdb_livekit.kit.errors import HostSystemUnavailable, OutcomeUnknown
from contextdb_livekit.tls import TLS_CONTEXT

Body = TypeVar("Body")  # what an answer is read as: a `ResponseBody` or a dataclass
T = TypeVar("T")


class ResponseBody(BaseModel):
    """A business system's answer: strict, frozen, unknown fields ignored."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class Refusal(ResponseBody):
    """A system's "no" to a change, `{"code": "..."}`; a subclass may read more fields."""

    code: str


RefusalBody = TypeVar("RefusalBody", bound=Refusal)


class HostApi:
    # How messages name the system ("booking system"), and what its failures raise.
    name: str = "business system"
    unavailable: type[HostSystemUnavailable] = HostSystemUnavailable
    outcome_unknown: type[OutcomeUnknown] = OutcomeUnknown

    def __init__(
        self,
        base_url: str,
        *,
        name: str | None = None,
        unavailable: type[HostSystemUnavailable] | None = None,
        outcome_unknown: type[OutcomeUnknown] | None = None,
        api_key: str | None = None,
        timeout_s: float = 3.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.name = name or self.name
        self.unavailable = unavailable or self.unavailable
        self.outcome_unknown = outcome_unknown or self.outcome_unknown
        self._timeout_s = timeout_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers=headers,
            timeout=timeout_s,
            transport=transport,
            verify=TLS_CONTEXT,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(
        self, method: str, path: str, *, idempotency_key: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        """One request; with `idempotency_key` (which must not be empty), sent as its
        `Idempotency-Key` header."""
        if idempotency_key is not None:
            if not idempotency_key:
                raise ValueError("idempotency_key is required")
            kwargs["headers"] = {**kwargs.get("headers", {}), "Idempotency-Key": idempotency_key}
        try:
            # httpx's timeout bounds each phase; this bounds the whole call, which is what a
            # caller waiting on the line actually feels.
            async with asyncio.timeout(self._timeout_s):
                return await self._http.request(method, path, **kwargs)
        except (httpx.ConnectTimeout, httpx.ConnectError, httpx.PoolTimeout) as exc:
            # Never sent: safe to report as "not done".
            raise self.unavailable(f"{self.name} unreachable ({type(exc).__name__})") from exc
        except (
            TimeoutError,
            httpx.TimeoutException,
            httpx.RemoteProtocolError,
            httpx.ReadError,
        ) as exc:
            if method == "GET":
                raise self.unavailable(f"{self.name} timed out") from exc
            raise self.outcome_unknown(
                f"{self.name} sent no answer ({type(exc).__name__})"
            ) from exc
        except httpx.RequestError as exc:
            raise self.unavailable(f"{self.name} unreachable ({type(exc).__name__})") from exc

    def parse(self, response: httpx.Response, body: type[Body]) -> Body:
        status = response.status_code
        if status in (401, 403):
            raise self.unavailable(f"{self.name} refused our credentials (HTTP {status})")
        if status >= 500:
            raise self.unavailable(f"{self.name} failed (HTTP {status})")
        if status not in (200, 201):
            raise self.unavailable(f"{self.name} answered HTTP {status}")
        try:
            # Strict whatever `body` is: a dataclass has no model config to say so.
            adapter = _adapter(body)  # type: ignore[arg-type]  # any type is hashable
            return adapter.validate_json(response.content, strict=True)
        except ValidationError as exc:
            raise self.unavailable(f"{self.name} sent a response we could not read") from exc

    async def get(
        self, path: str, answer: type[Body], *, absent: Exception | None = None, **params: str
    ) -> Body:
        """GET `path` (query `params`) read as `answer`; a 404 raises `absent` when given."""
        response = await self.request("GET", path, params=params or None)
        if absent is not None and response.status_code == 404:
            raise absent
        return self.parse(response, answer)

    async def get_listed(
        self, path: str, field: str, item: type[Body], **params: str
    ) -> list[Body]:
        """GET `path` (query `params`) answered `{field: [item, ...]}`: the items."""
        response = await self.request("GET", path, params=params or None)
        listing = _listing(field, item)  # type: ignore[arg-type]  # any type is hashable
        found: list[Body] = getattr(self.parse(response, listing), field)
        return found

    async def change(
        self,
        path: str,
        answer: type[Body],
        *,
        idempotency_key: str,
        json: Mapping[str, object],
        refused: Callable[[httpx.Response], Exception],
        refused_on: Collection[int] = (409, 422),
        echoes: Mapping[str, object],
        what: str,
    ) -> Body:
        """POST `json` to `path` under `idempotency_key`, the answer read as `answer`. A status
        in `refused_on` is the system's "no" (nothing changed): `refused(response)` is raised.
        The answer must hold `echoes` (field: value), see `echoing`."""
        response = await self.request(
            "POST", path, json=dict(json), idempotency_key=idempotency_key
        )
        if response.status_code in refused_on:
            raise refused(response)
        return self.echoing(self.parse(response, answer), echoes, what)

    def echoing(self, body: Body, echoes: Mapping[str, object], what: str) -> Body:
        """`body` when its fields hold `echoes`' values; else `unavailable`, never another
        customer's (or day's) answer reported as this request's."""
        if any(getattr(body, field) != value for field, value in echoes.items()):
            raise self.unavailable(f"{self.name} answered for a different {what}")
        return body

    def read_refusal(
        self, response: httpx.Response, body: type[RefusalBody], *, codes: Collection[str]
    ) -> RefusalBody:
        """The refusal `response` carries, whose code is one of `codes`. An unreadable body or
        another code is `unavailable`: we cannot tell what was refused, or whether."""
        status = response.status_code
        try:
            refusal = body.model_validate_json(response.content)
        except ValidationError as exc:
            raise self.unavailable(
                f"{self.name} refused with an unreadable body (HTTP {status})"
            ) from exc
        if refusal.code not in codes:
            raise self.unavailable(f"{self.name} refused (HTTP {status}, {refusal.code[:40]})")
        return refusal

    async def allowed(self, path: str, **checked: object) -> bool:
        """The system's authorization: POST `path` with `checked`, answered
        `{"allowed": true | false}`."""
        response = await self.request("POST", path, json=checked)
        return self.parse(response, _Allowed).allowed

    async def one_for_key(
        self, path: str, idempotency_key: str, *, field: str, item: type[Body]
    ) -> Body | None:
        """What `idempotency_key` did: GET `path?idempotency_key=KEY`, answered
        `{field: [item]}` or `{field: []}`; more than one is `HostSystemUnavailable`."""
        if not idempotency_key:
            raise ValueError("idempotency_key is required")
        found = await self.get_listed(path, field, item, idempotency_key=idempotency_key)
        if len(found) > 1:
            # One key acts at most once; two answers mean the host is not keyed as agreed.
            raise self.unavailable(f"{self.name} returned several {field} for one key")
        return found[0] if found else None


class _Allowed(ResponseBody):
    allowed: bool


@cache
def _adapter(body: type[T]) -> TypeAdapter[T]:
    """What reads an answer as `body`, built once per type."""
    return TypeAdapter(body)


@cache
def _listing(field: str, item: type) -> type[ResponseBody]:
    """The response model `{field: [item, ...]}`, built once per field and item."""
    fields: dict[str, Any] = {field: (list[item], ...)}  # type: ignore[valid-type]  # built at run time
    return create_model(f"Listed_{field}", __base__=ResponseBody, **fields)


def path_segment(value: str) -> str:
    """`value` as one percent-encoded path segment."""
    # "." and ".." would be normalised away by the URL, addressing a different resource.
    if value in ("", ".", ".."):
        raise ValueError("not a usable id")
    return quote(value, safe="")
