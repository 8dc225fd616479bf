"""The action gate: no consequential action without a decision, no decision without a receipt.

    async with gate.evaluate(user_id, "book_visit", query, slot) as decision:
        if decision.outcome == "act":
            await decision.before_execution({...})   # durable intent, then the side effect
            ...
            decision.succeeded(external_ref=booking_id)

Whatever happens inside the block — an explicit status, an early return, an exception, a
cancelled task — exactly one `report_execution` closes the decision, with an idempotency key
derived from the decision id. When ContextDB cannot be reached the gate fails closed: the
outcome is `abstain`, `unavailable_reason` says why, and there is no decision to report on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from memory.backend import MemoryBackend
from memory.errors import MemoryLayerError, MemoryUnavailable
from memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    ReceiptStatus,
    receipt_idempotency_key,
)
from memory.outbox import Outbox

log = logging.getLogger("memory.gate")


@dataclass
class GateDecision:
    """The decision handed to the tool, plus the receipt it must end with."""

    user_id: str
    action_name: str
    decision: ActionDecision | None
    unavailable_reason: str | None = None
    status: ReceiptStatus | None = None
    external_ref: str | None = None
    error_code: str | None = None
    receipt: ExecutionReceiptResponse | None = None
    receipt_queued: bool = False
    _outbox: Outbox | None = field(default=None, repr=False)
    _intent_recorded: bool = field(default=False, repr=False)

    @property
    def outcome(self) -> str:
        return self.decision.outcome if self.decision is not None else "abstain"

    @property
    def decision_id(self) -> str | None:
        return self.decision.decision_id if self.decision is not None else None

    @property
    def pending_confirmation_ids(self) -> list[str]:
        return list(self.decision.pending_confirmation_ids) if self.decision else []

    @property
    def idempotency_key(self) -> str:
        if self.decision is None:
            raise RuntimeError("no decision: the gate failed closed")
        return receipt_idempotency_key(self.decision.decision_id)

    def succeeded(self, external_ref: str | None = None) -> None:
        self._set("succeeded", external_ref=external_ref)

    def failed(self, error_code: str) -> None:
        self._set("failed", error_code=error_code)

    def skipped(self) -> None:
        self._set("skipped")

    def _set(
        self,
        status: ReceiptStatus,
        *,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> None:
        if self.status is not None:
            raise RuntimeError(f"receipt already set to {self.status}")
        self.status, self.external_ref, self.error_code = status, external_ref, error_code

    async def before_execution(self, context: dict[str, Any]) -> None:
        """Record the intent durably before the side effect; a crash after it is recoverable."""
        if self.outcome != "act":
            raise RuntimeError(f"refusing to execute on a {self.outcome!r} decision")
        if self._outbox is not None:
            await self._outbox.record_intent(
                self.idempotency_key, "receipt", self.user_id, self._payload(context)
            )
            self._intent_recorded = True

    def _payload(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.decision is not None
        return {
            **(extra or {}),
            "decision_id": self.decision.decision_id,
            "action_name": self.action_name,
            "status": self.status,
            "external_ref": self.external_ref,
            "error_code": self.error_code,
        }


class ActionGate:
    def __init__(
        self,
        backend: MemoryBackend,
        outbox: Outbox | None,
        *,
        evaluate_timeout_s: float = 1.5,
        report_timeout_s: float = 1.5,
    ) -> None:
        self._backend = backend
        self._outbox = outbox
        self._evaluate_timeout_s = evaluate_timeout_s
        self._report_timeout_s = report_timeout_s

    @contextlib.asynccontextmanager
    async def evaluate(
        self, user_id: str, action_name: str, query: str, slot: ActionSlot | None
    ) -> AsyncIterator[GateDecision]:
        gate = GateDecision(user_id, action_name, None, _outbox=self._outbox)
        try:
            gate.decision = await asyncio.wait_for(
                self._backend.evaluate_action(user_id, query, slot=slot),
                timeout=self._evaluate_timeout_s,
            )
        except (MemoryLayerError, TimeoutError) as exc:
            gate.unavailable_reason = _describe(exc)
            log.warning("gate failed closed for %s: %s", action_name, gate.unavailable_reason)
            yield gate
            return
        log.info("decision %s %s -> %s", gate.decision_id, action_name, gate.outcome)
        try:
            yield gate
        except asyncio.CancelledError:
            _default_status(gate, "cancelled")
            await asyncio.shield(self._close(gate))
            raise
        except BaseException as exc:
            _default_status(gate, getattr(exc, "error_code", "unhandled_exception"))
            await self._close(gate)
            raise
        else:
            if gate.status is None:
                if gate.outcome == "act":
                    gate.failed("outcome_not_reported")
                else:
                    gate.skipped()
            await self._close(gate)

    async def _close(self, gate: GateDecision) -> None:
        """Send the one receipt; if ContextDB cannot take it now, the outbox will."""
        key = gate.idempotency_key
        payload = gate._payload()
        if gate._intent_recorded and self._outbox is not None:
            await self._outbox.put(key, "receipt", gate.user_id, payload)
        try:
            gate.receipt = await asyncio.wait_for(
                self._backend.report_execution(
                    gate.user_id,
                    payload["decision_id"],
                    gate.action_name,
                    payload["status"],
                    idempotency_key=key,
                    external_ref=gate.external_ref,
                    error_code=gate.error_code,
                ),
                timeout=self._report_timeout_s,
            )
        except (MemoryUnavailable, TimeoutError) as exc:
            log.warning("receipt for %s queued: %s", gate.decision_id, _describe(exc))
            if self._outbox is None:
                raise
            # Released to any flusher now (the direct send is over).
            await self._outbox.put(key, "receipt", gate.user_id, payload, hold=False)
            gate.receipt_queued = True
            return
        if gate._intent_recorded and self._outbox is not None:
            await self._outbox.mark_done(key)
        log.info(
            "receipt %s %s %s",
            gate.decision_id,
            gate.receipt.receipt.status,
            gate.receipt.receipt.policy_alignment,
        )


def _default_status(gate: GateDecision, error_code: str) -> None:
    # An outcome the block already set stands: it describes the side effect that happened.
    if gate.status is None:
        gate.failed(error_code)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "memory backend timed out"
    return f"{type(exc).__name__}: {exc}"
