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

A decision recorded but never heard of is closed too. Each evaluation carries a request key
of the host's: when the answer is lost (a reset, an engine killed after recording), the gate
asks once more with the same key and the backend returns the decision it recorded, not a new
one. An answer that arrives after the gate gave up (its budget, or the tool was cancelled)
is still heard in the background and closed at once (`failed` on an `act`, else `skipped`:
nothing ran on it). What even that misses, the ledger's sweeper closes (`stores.ledger`); it
leaves alone a decision whose intent or receipt is in the outbox.

The gate keeps to its budgets whatever the backend or the outbox does: the evaluation within
`evaluate_timeout_s`, each outbox step within `outbox_timeout_s`, the receipt within
`report_timeout_s`. A step past its bound is left running in the background (a late
decision is closed, a late outbox row is delivered under its key), never waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import (
    MemoryConflict,
    MemoryLayerError,
    MemoryRejected,
    MemoryUnavailable,
)
from contextdb_livekit.memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    ReceiptStatus,
    receipt_idempotency_key,
)
from contextdb_livekit.stores.outbox import Outbox

log = logging.getLogger("contextdb_livekit.kit.gate")
_T = TypeVar("_T")
# Pause before asking again (same request key) after an answer was lost.
RETRY_PAUSE_S = 0.05
OUTBOX_TIMEOUT_S = 0.5


async def within(awaitable: Awaitable[_T], timeout_s: float, *, cancel: bool = True) -> _T:
    """The result if it comes within `timeout_s`, else TimeoutError at once: the work is
    cancelled without being waited for (or, `cancel=False`, left running), so a call that
    ignores or delays its cancellation cannot hold the caller past the bound."""
    task = asyncio.ensure_future(awaitable)
    done, _ = await asyncio.wait({task}, timeout=timeout_s)
    if not done:
        if cancel:
            task.cancel()
        raise TimeoutError
    return task.result()


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
    # Set when the backend refused this receipt because another closed the decision.
    receipt_conflict: str | None = None
    deferred: bool = False
    _outbox: Outbox | None = field(default=None, repr=False)
    _intent_recorded: bool = field(default=False, repr=False)
    _outbox_timeout_s: float = field(default=OUTBOX_TIMEOUT_S, repr=False)

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
            await within(
                self._outbox.record_intent(
                    self.idempotency_key, "receipt", self.user_id, self._payload(context)
                ),
                self._outbox_timeout_s,
                cancel=False,
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
        outbox_timeout_s: float = OUTBOX_TIMEOUT_S,
    ) -> None:
        self._backend = backend
        self._outbox = outbox
        self._evaluate_timeout_s = evaluate_timeout_s
        self._report_timeout_s = report_timeout_s
        self._outbox_timeout_s = outbox_timeout_s
        # Late decisions being closed; kept so they are not garbage-collected mid-way.
        self._closing: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def evaluate(
        self, user_id: str, action_name: str, query: str, slot: ActionSlot
    ) -> AsyncIterator[GateDecision]:
        gate = GateDecision(
            user_id,
            action_name,
            None,
            _outbox=self._outbox,
            _outbox_timeout_s=self._outbox_timeout_s,
        )
        # Not cancelled with the caller, nor at the budget: a decision the service recorded
        # is heard even when nobody waits for it any more, and closed (`_close_when_heard`).
        evaluation = asyncio.ensure_future(
            self._decide(user_id, query, slot, request_key=f"gate:{uuid.uuid4().hex}")
        )
        deadline = asyncio.get_running_loop().time() + self._evaluate_timeout_s
        try:
            gate.decision = await within(evaluation, self._evaluate_timeout_s, cancel=False)
        except asyncio.CancelledError:
            # A caller barging in while ContextDB decides: the decision is waited for within
            # what is left of the budget and closed before the cancellation goes on.
            remaining = deadline - asyncio.get_running_loop().time()
            with contextlib.suppress(Exception):
                await within(evaluation, max(0.0, remaining), cancel=False)
            closing = self._close_when_heard(gate, evaluation, "cancelled")
            if evaluation.done():
                await asyncio.shield(closing)
            raise
        except (MemoryLayerError, TimeoutError) as exc:
            if isinstance(exc, TimeoutError):
                self._close_when_heard(gate, evaluation, "decision_too_late")
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

    async def _decide(
        self, user_id: str, query: str, slot: ActionSlot, *, request_key: str
    ) -> ActionDecision:
        try:
            return await self._backend.evaluate_action(
                user_id, query, slot=slot, request_key=request_key
            )
        except MemoryUnavailable as exc:
            # The answer may be what was lost, after the decision was recorded: the same key
            # brings that decision back instead of making a second one.
            log.warning("evaluation failed (%s); asking again under its request key", exc)
            await asyncio.sleep(RETRY_PAUSE_S)
            return await self._backend.evaluate_action(
                user_id, query, slot=slot, request_key=request_key
            )

    def _close_when_heard(
        self, gate: GateDecision, evaluation: asyncio.Future[ActionDecision], reason: str
    ) -> asyncio.Task[None]:
        """The caller stopped waiting; a decision that still arrives is closed at once."""

        async def close() -> None:
            try:
                decision = await evaluation
            except BaseException:
                return  # nothing recorded reached us: the ledger's sweeper closes the rest
            # Its own object: the tool that stopped waiting keeps the fail-closed one it got.
            unused = dataclasses.replace(gate, decision=decision)
            log.warning("decision %s arrived unused (%s); closing it", unused.decision_id, reason)
            # Nothing ran on it: failed with the reason on an act (aligned), else skipped.
            if unused.outcome == "act":
                unused.failed(reason)
            else:
                unused.skipped()
            await self._close(unused)

        task = asyncio.create_task(close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return task

    async def _close(self, gate: GateDecision) -> None:
        """Send the one receipt. Whatever the receipt call returns, it never raises: a
        booking that happened is never reported to the model as an internal error."""
        key = gate.idempotency_key
        payload = gate._payload()
        # Durable before the network call when a side effect ran (an intent exists).
        queued = gate._intent_recorded and await self._queue(gate, key, payload, hold=True)
        try:
            gate.receipt = await within(
                self._backend.report_execution(
                    gate.user_id,
                    payload["decision_id"],
                    gate.action_name,
                    payload["status"],
                    idempotency_key=key,
                    external_ref=gate.external_ref,
                    error_code=gate.error_code,
                ),
                self._report_timeout_s,
            )
        except MemoryConflict as exc:
            # Never "already recorded": an earlier send of this very receipt (same key, same
            # payload) is replayed, not refused. A 409 means the decision was closed with
            # another receipt (the sweeper's, a late close's): this one, which may say a
            # booking happened, is kept parked with the reason for a human, never dropped.
            gate.receipt_conflict = f"{exc.code}: {exc}"
            log.error(
                "receipt %s for %s refused, another is recorded (%s); kept in the outbox",
                gate.status, gate.decision_id, gate.receipt_conflict,
            )  # fmt: skip
            if queued or await self._queue(gate, key, payload, hold=True):
                await self._park(key, f"receipt_conflict: {gate.receipt_conflict}")
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
        receipt = gate.receipt.receipt if gate.receipt is not None else None
        log.info(
            "receipt %s %s %s",
            gate.decision_id,
            receipt.status if receipt else "-",
            receipt.policy_alignment if receipt else "-",
        )

    async def _queue(
        self, gate: GateDecision, key: str, payload: dict[str, Any], *, hold: bool
    ) -> bool:
        """Best effort: the outbox is a fallback, never a gate on direct delivery. `hold`
        keeps the row leased to this sender while it sends directly."""
        if self._outbox is None:
            return False
        try:
            await within(
                self._outbox.put(key, "receipt", gate.user_id, payload, hold=hold),
                self._outbox_timeout_s,
                cancel=False,
            )
        except Exception as exc:
            log.error("outbox unavailable for receipt %s: %s", gate.decision_id, exc)
            return False
        return True

    async def _settle(self, key: str, queued: bool) -> None:
        if queued and self._outbox is not None:
            try:
                await within(self._outbox.mark_done(key), self._outbox_timeout_s, cancel=False)
            except Exception as exc:
                # The row replays later under the same key, which the backend dedupes.
                log.error("outbox could not mark %s delivered: %s", key, exc)

    async def _park(self, key: str, reason: str) -> None:
        if self._outbox is not None:
            try:
                await within(
                    self._outbox.mark_dead(key, reason), self._outbox_timeout_s, cancel=False
                )
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
