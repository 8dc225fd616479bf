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
from memory.errors import MemoryConflict, MemoryLayerError, MemoryRejected
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
    deferred: bool = False
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

    def defer_to_recovery(self) -> None:
        """The side effect's outcome is unknown right now. With a durable intent, the
        receipt is left to the outbox, which asks the host system by key; without one, the
        receipt says so now (failed, outcome unknown)."""
        if self._intent_recorded:
            self.deferred = True
        else:
            self.failed("execution_outcome_unknown")

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
        if self._outbox is None:
            return
        try:
            await self._outbox.record_intent(
                self.idempotency_key, "receipt", self.user_id, self._payload(context)
            )
        except Exception as exc:
            # The outbox is a fallback: without it the action still runs and the receipt is
            # delivered directly; only crash recovery for this one action is lost.
            log.error("intent for %s not recorded: %s", self.decision_id, exc)
            return
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
        # Shielded: a caller barging in while ContextDB decides must not leave a decision the
        # service recorded without its receipt. The evaluation finishes (bounded by its
        # timeout), its decision is closed as failed/cancelled, and the cancellation goes on.
        evaluation = asyncio.ensure_future(
            asyncio.wait_for(
                self._backend.evaluate_action(user_id, query, slot=slot),
                timeout=self._evaluate_timeout_s,
            )
        )
        try:
            gate.decision = await asyncio.shield(evaluation)
        except asyncio.CancelledError:
            await self._close_cancelled_evaluation(gate, evaluation)
            raise
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
            await asyncio.shield(self._close(gate))
            raise
        else:
            if gate.deferred:
                log.warning("receipt for %s left to intent recovery", gate.decision_id)
                return
            if gate.status is None:
                if gate.outcome == "act":
                    gate.failed("outcome_not_reported")
                else:
                    gate.skipped()
            await asyncio.shield(self._close(gate))

    async def _close_cancelled_evaluation(
        self, gate: GateDecision, evaluation: asyncio.Future[ActionDecision]
    ) -> None:
        with contextlib.suppress(BaseException):
            gate.decision = await evaluation
        if gate.decision is not None:
            gate.failed("cancelled")
            await asyncio.shield(self._close(gate))

    async def _close(self, gate: GateDecision) -> None:
        """Send the one receipt. Whatever the receipt call returns, it never raises: a
        booking that happened is never reported to the model as an internal error."""
        key = gate.idempotency_key
        payload = gate._payload()
        # Durable before the network call when a side effect ran (an intent exists).
        queued = gate._intent_recorded and await self._queue(gate, key, payload, hold=True)
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
        except MemoryConflict as exc:
            # A terminal receipt already exists for this decision (an earlier send landed).
            log.warning("receipt for %s already recorded: %s", gate.decision_id, exc)
            await self._settle(key, queued)
            return
        except MemoryRejected as exc:
            log.error("receipt for %s rejected: %s", gate.decision_id, exc)
            if queued or await self._queue(gate, key, payload, hold=True):
                await self._park(key, f"{exc.code}: {exc}")
            return
        except Exception as exc:  # unavailable, timeout, unreadable answer: retry later
            log.warning("receipt for %s queued: %s", gate.decision_id, _describe(exc))
            # Released to any flusher now: the direct send is over.
            gate.receipt_queued = await self._queue(gate, key, payload, hold=False)
            return
        await self._settle(key, queued)
        log.info(
            "receipt %s %s %s",
            gate.decision_id,
            gate.receipt.receipt.status,
            gate.receipt.receipt.policy_alignment,
        )

    async def _queue(
        self, gate: GateDecision, key: str, payload: dict[str, Any], *, hold: bool
    ) -> bool:
        """Best effort: the outbox is a fallback, never a gate on direct delivery. `hold`
        keeps the row leased to this sender while it sends directly."""
        if self._outbox is None:
            return False
        try:
            await self._outbox.put(key, "receipt", gate.user_id, payload, hold=hold)
        except Exception as exc:
            log.error("outbox unavailable for receipt %s: %s", gate.decision_id, exc)
            return False
        return True

    async def _settle(self, key: str, queued: bool) -> None:
        if queued and self._outbox is not None:
            try:
                await self._outbox.mark_done(key)
            except Exception as exc:
                # The row replays later under the same key, which the backend dedupes.
                log.error("outbox could not mark %s delivered: %s", key, exc)

    async def _park(self, key: str, reason: str) -> None:
        if self._outbox is not None:
            try:
                await self._outbox.mark_dead(key, reason)
            except Exception as exc:
                log.error("outbox could not park %s: %s", key, exc)


def _default_status(gate: GateDecision, error_code: str) -> None:
    # An outcome the block already set stands: it describes the side effect that happened.
    if gate.status is None:
        gate.failed(error_code)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "memory backend timed out"
    return f"{type(exc).__name__}: {exc}"
