"""ContextDB Cloud through the official `contextdb-cloud-client`.

The client raises `ApiError` with the status and code only; it exposes no response headers.
Retry-After is read one layer down instead, on the client's httpx transport
(`RetryAfterTransport`): the transport runs in the task that made the request, so the header
it saw is carried to `CloudMemory._call` in a context variable and put on the
`MemoryUnavailable` a 429 or 503 becomes. The outbox then waits that long (capped) before the
row's next try.
"""

from __future__ import annotations

import contextvars
import dataclasses
import email.utils
import time
import uuid
from collections.abc import Awaitable
from typing import Any, TypeVar

import httpx
from contextdb_cloud_client import ApiError, CloudClient

from contextdb_livekit.memory.decisions import decide_in_slot
from contextdb_livekit.memory.errors import MemoryUnavailable, error_for_status
from contextdb_livekit.memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    FactToRemember,
    Memory,
    RecallResult,
    ReceiptStatus,
)
from contextdb_livekit.tls import TLS_CONTEXT

_T = TypeVar("_T")

# The Retry-After of the last response this task received through a `RetryAfterTransport`.
_RETRY_AFTER: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "cloud_retry_after", default=None
)


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class RetryAfterTransport(httpx.AsyncBaseTransport):
    """Wraps the Cloud client's transport and notes each response's Retry-After."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self._inner = inner or httpx.AsyncHTTPTransport(verify=TLS_CONTEXT)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        _RETRY_AFTER.set(parse_retry_after(response.headers.get("retry-after")))
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class CloudMemory:
    """Adapter: the Cloud client's calls, with errors mapped and actions scoped to a slot."""

    # Named in error messages, so an operator knows which service did not answer.
    label = "ContextDB Cloud"

    def __init__(self, client: CloudClient) -> None:
        self._client = client

    @classmethod
    def connect(
        cls,
        base_url: str,
        api_key: str,
        *,
        timeout_s: float,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> CloudMemory:
        return cls(
            CloudClient(
                base_url, api_key, timeout=timeout_s, transport=RetryAfterTransport(transport)
            )
        )

    async def close(self) -> None:
        await self._client.close()

    async def _call(self, awaitable: Awaitable[_T]) -> _T:
        _RETRY_AFTER.set(None)
        try:
            return await awaitable
        except ApiError as exc:
            error = error_for_status(exc.status, exc.code, str(exc))
            if isinstance(error, MemoryUnavailable):
                error.retry_after_s = _RETRY_AFTER.get()
            raise error from exc
        except httpx.TimeoutException as exc:
            raise MemoryUnavailable(f"{self.label} timed out", code="timeout") from exc
        except httpx.TransportError as exc:
            raise MemoryUnavailable(f"{self.label} unreachable: {exc}", code="network") from exc
        except (KeyError, TypeError, ValueError) as exc:
            # A 2xx body the client cannot parse is a contract break, not a caller error.
            raise MemoryUnavailable(
                f"unexpected {self.label} response: {exc!r}", code="invalid_response"
            ) from exc

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult:
        return await self._call(self._client.recall(user_id, query, top_k=top_k))

    async def evaluate_action(
        self,
        user_id: str,
        query: str,
        *,
        slot: ActionSlot,
        top_k: int = 5,
        request_key: str | None = None,
    ) -> ActionDecision:
        """`request_key`: the local engine returns the decision already recorded under it
        (a retry after a lost answer). Cloud's recall_for_action takes no such key, so it is
        not sent there: a Cloud decision whose answer was lost stays open (see README)."""
        if hasattr(self._client, "evaluate_action_in_slot"):
            request = self._client.evaluate_action_in_slot(
                user_id, query, slot, top_k=top_k, request_key=request_key
            )
        else:
            request = self._client.evaluate_action(user_id, query, top_k=top_k)
        decision: ActionDecision = await self._call(request)
        return await self._apply_slot_rule(user_id, decision, slot)

    async def _apply_slot_rule(
        self, user_id: str, decision: ActionDecision, slot: ActionSlot
    ) -> ActionDecision:
        """The host's rule on what the service returned: never act on more than it allows.

        `act` needs the service's act *and* confirmed evidence in the slot; otherwise the
        decision is downgraded (and later closed as `skipped`, which stays aligned).
        """
        ruled = decide_in_slot(slot, decision.memories)
        if ruled.outcome == "abstain":
            # Similarity recall can rank the slot's own fact below its top_k.
            ruled = decide_in_slot(slot, await self.pending_confirmations(user_id))
        if ruled.outcome == "act" and decision.outcome == "act":
            return ActionDecision(decision.decision_id, "act", ruled.evidence, [])
        if ruled.outcome == "abstain":
            return ActionDecision(decision.decision_id, "abstain", [], [])
        # Confirmed locally but not yet acted on by the service: ask again, never a dead end.
        pending = ruled.pending_ids or [m.id for m in ruled.evidence]
        return ActionDecision(decision.decision_id, "ask", ruled.evidence, pending)

    async def report_execution(
        self,
        user_id: str,
        decision_id: str,
        action_name: str,
        status: ReceiptStatus,
        *,
        idempotency_key: str,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> ExecutionReceiptResponse:
        return await self._call(
            self._client.report_execution(
                user_id,
                decision_id,
                action_name,
                status,
                idempotency_key=idempotency_key,
                external_ref=external_ref,
                error_code=error_code,
            )
        )

    async def pending_confirmations(self, user_id: str) -> list[Memory]:
        return await self._call(self._client.pending_confirmations(user_id))

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory:
        return await self._call(
            self._client.confirm(user_id, memory_id, idempotency_key=idempotency_key)
        )

    async def forget(self, user_id: str, memory_id: str) -> int:
        """Delete one memory (a request consumed by the action it authorised)."""
        response = await self._call(self._client.forget(user_id, memory_id=memory_id))
        return int(getattr(response, "deleted", 0) or 0)

    async def erase_partition(self, user_id: str) -> dict[str, Any]:
        """ContextDB's verified erasure of one caller's whole partition (`forget` with
        `erase_partition`). The response as JSON. A fresh key per erasure: erasing is
        idempotent by itself, and an erasure weeks later (the caller came back) must not be
        answered with an earlier one's recorded response."""
        key = f"erase:{uuid.uuid4().hex}"
        response = await self._call(
            self._client.forget(
                user_id, erase_partition=True, confirmation=user_id, idempotency_key=key
            )
        )
        return dataclasses.asdict(response)

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]:
        return await self._call(
            self._client.remember_many(
                user_id, [f.as_item() for f in facts], idempotency_key=idempotency_key
            )
        )
