"""The gated-action kit: declare a consequential action once, get the whole safe loop.

A `GatedAction[T]` says what the action is (its name, the phrase read back to the caller and
the kind of target it is about: a day, an amount, an address), how to check the host's
current state first, who may do it, how to run the side effect under an idempotency key, how
to find out after a crash what that key did, and what the call keeps of a success.
`run_gated_action` does everything else, the same way for every action:

    parse the target → serialise per caller → host pre-check (already booked? nothing to
    cancel?) → host authorization → ContextDB decision on this call's request slot →
    abstain: record the request, decide again → ask: remember the offer, read it back →
    act: no interruptions, durable intent, side effect, outcome (unknown → resolve by key)
    → exactly one receipt (the gate) → consume the request.

The kit knows no domain: the target's parsing, wording and keys come from its `TargetKind`
(`kit.target`), the side effects close over the domain's own clients. See README "Adding a
gated action".
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Generic, Literal, TypeVar

from livekit.agents import RunContext, ToolError
from livekit.agents.llm import ToolResult

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import refusal_reason
from contextdb_livekit.kit.context import CallContext, HostRecord, Offer
from contextdb_livekit.kit.errors import HostSystemUnavailable, OutcomeUnknown
from contextdb_livekit.kit.gate import GateDecision
from contextdb_livekit.kit.readback import read_back
from contextdb_livekit.kit.replies import ActionWords
from contextdb_livekit.kit.request_slots import request_fact, request_slot
from contextdb_livekit.kit.target import InvalidTarget, TargetKind
from contextdb_livekit.memory.errors import MemoryLayerError
from contextdb_livekit.memory.models import Memory
from contextdb_livekit.stores.outbox import IntentResolver

log = logging.getLogger("contextdb_livekit.kit.actions")

T = TypeVar("T")
# What a host system's lookup by key finds (a booking, a credit).
R = TypeVar("R")

FAIL_CLOSED = (
    "I couldn't check the caller's records just now, so I have not done anything. "
    "Apologise and offer to try again in a moment."
)
NOT_THE_CALLER = "This call is no longer verified. Do not act on the account."
REFUSALS = {
    "assurance_too_low": (
        "I can't make changes on this line because the caller could not be verified. "
        "Offer to have the team call back, or suggest using the app."
    ),
    "not_authorized": (
        "This account can't make that change right now. Tell the caller a team member will "
        "follow up."
    ),
}
SYSTEM_DOWN = "The system that does this is not answering. Apologise and offer to try again."
OUTCOME_PENDING = (
    "The system did not answer, so I can't tell yet whether that went through. Do not try "
    "again now; tell the caller we will confirm by message."
)


@dataclass(frozen=True)
class Outcome:
    """What the side effect did, as the receipt and the model should hear it."""

    status: Literal["succeeded", "failed"]
    message: str
    external_ref: str | None = None
    error_code: str | None = None


@dataclass(frozen=True)
class Resolution:
    """What an attempt's idempotency key did, asked after a crash or a lost answer."""

    succeeded: bool
    external_ref: str | None = None
    error_code: str | None = None

    @classmethod
    def of(cls, external_ref: str | None, *, otherwise: str) -> Resolution:
        """What a lookup by key found: the host's reference of what the key did, else
        nothing happened under it (`otherwise`, the receipt's error code)."""
        if external_ref is not None:
            return cls(True, external_ref=external_ref)
        return cls(False, error_code=otherwise)

    @staticmethod
    def by_key(
        lookup: Callable[[str], Awaitable[R | None]],
        ref: Callable[[R], str],
        *,
        otherwise: str,
    ) -> Callable[[str], Awaitable[Resolution]]:
        """An action's `resolve` from the host's lookup by idempotency key (`lookup`): the
        `ref` of what the key did, else `otherwise`. By key, never by target: an earlier,
        unrelated action on the same target is not this attempt."""

        async def resolve(host_key: str) -> Resolution:
            found = await lookup(host_key)
            return Resolution.of(ref(found) if found is not None else None, otherwise=otherwise)

        return resolve

    def receipt(self) -> dict[str, Any]:
        if self.succeeded:
            return {"status": "succeeded", "external_ref": self.external_ref}
        return {"status": "failed", "error_code": self.error_code or "failed"}


@dataclass(frozen=True)
class Attempt(Generic[T]):
    """One execution of an action: who, on what, under which host idempotency key."""

    identity: CallerIdentity
    target: T
    host_key: str
    # The call's date (in the host's zone): when the host's record says it happened.
    today: date
    # The call it runs in (an action about the call itself, like "keep nothing from this
    # call", needs it); empty in crash recovery.
    call_id: str = ""


@dataclass(frozen=True)
class ToolText:
    """What the model is told about an action's tool (`kit.action_tool`): what it does, and
    its one argument, the target in words."""

    description: str
    # The argument's name ("day") and what the model may put in it; a line break in either
    # text is kept in what the model sees.
    argument: str
    argument_description: str


def _no_caution(memories: list[Memory], target: Any) -> str | None:
    return None


@dataclass(frozen=True)
class GatedAction(Generic[T]):
    name: str
    # Read back with the target: "shall I {phrase} {target.spoken(...)}?"
    phrase: str
    target: TargetKind[T]
    # Host state first: a message to return instead of deciding (e.g. "already booked").
    precheck: Callable[[CallerIdentity, T], Awaitable[str | None]]
    # Host authorization: may this actor do this for this customer, on this target?
    authorize: Callable[[CallerIdentity, T], Awaitable[bool]]
    # The side effect; raises `OutcomeUnknown` when it may or may not have happened, any
    # other `HostSystemUnavailable` when it surely did not.
    execute: Callable[[Attempt[T]], Awaitable[Outcome]]
    # After a crash or an unknown outcome: what did this host key do? (by key, never by
    # target: an earlier, unrelated action on the same target is not this attempt)
    resolve: Callable[[str], Awaitable[Resolution]]
    # What the call keeps of a success (e.g. "visit booked, reference …").
    remember: Callable[[Attempt[T], Outcome], HostRecord]
    # The LLM tool that asks for the action, as the model sees it.
    tool: ToolText
    # How a reply names this action ("cancel it", "book me in"): read with the kit's grammar.
    words: ActionWords = field(default=ActionWords())
    # A caution the read-back speaks first, from what the caller told us before.
    caution: Callable[[list[Memory], T], str | None] = _no_caution

    def request(self, target: T) -> str:
        """The request in words: "book a service visit on Thursday 10 December"."""
        return f"{self.phrase} {self.target.spoken(target)}"


def intent_resolver(action: GatedAction[Any]) -> IntentResolver:
    """The outbox flusher's crash recovery for one action: its intent's host key, resolved."""

    async def resolve(payload: dict[str, Any]) -> dict[str, Any]:
        return (await action.resolve(str(payload["host_key"]))).receipt()

    return resolve


def host_key(action: str, customer_id: str, target_key: str, evidence_ids: list[str]) -> str:
    """One key per confirmed request: every retry of the same yes reuses it."""
    material = "|".join([action, customer_id, target_key, *sorted(evidence_ids)])
    return f"{action}:{hashlib.sha256(material.encode()).hexdigest()[:32]}"


async def run_gated_action(
    action: GatedAction[T],
    context: RunContext[CallContext],
    identity: CallerIdentity,
    target_text: str,
) -> str | ToolResult:
    """The tool body of a gated action: the model supplies only `target_text`."""
    call = context.userdata
    if not call.is_caller(identity):
        return NOT_THE_CALLER
    try:
        target = action.target.parse(target_text, today=call.today())
    except InvalidTarget as exc:
        raise ToolError(str(exc)) from None
    return await run_for_target(action, context, identity, target)


async def run_for_target(
    action: GatedAction[T], context: RunContext[CallContext], identity: CallerIdentity, target: T
) -> str | ToolResult:
    """Host state, host authorization, then the decision and what it allows. Also what a
    confirmed yes runs (kit.confirmation), so the caller's yes goes straight to the result."""
    call = context.userdata
    async with call.action_lock:
        try:
            early = await action.precheck(identity, target)
            if early is not None:
                return early
            refusal = refusal_reason(identity, call.host.policy)
            if refusal is None and not await action.authorize(identity, target):
                refusal = "not_authorized"
        except HostSystemUnavailable:
            return SYSTEM_DOWN
        if refusal is not None:
            log.info("%s refused for caller %s: %s", action.name, identity.log_id, refusal)
            return REFUSALS[refusal]
        return await _decide_and_run(action, context, identity, target)


async def _decide_and_run(
    action: GatedAction[T], context: RunContext[CallContext], identity: CallerIdentity, target: T
) -> str | ToolResult:
    call = context.userdata
    memory = call.memory
    assert memory is not None  # is_caller() checked it
    slot = request_slot(action.name, action.target.key(target), call.call_id)
    for attempt in range(2):
        async with memory.gate.evaluate(
            identity.customer_id, action.name, action.request(target), slot
        ) as decision:
            call.metrics.record_decision(
                "unavailable" if decision.unavailable_reason is not None else decision.outcome
            )
            if decision.unavailable_reason is not None:
                return FAIL_CLOSED
            if decision.outcome == "act":
                return await _execute(action, context, identity, target, decision)
            decision.skipped()
            if decision.outcome == "ask":
                return _ask(action, context, target, decision)
        # abstain: nothing in this call's request slot yet. Record the request; the next
        # decision then asks the caller to confirm it out loud.
        if attempt == 0 and not await _record_request(action, call, target):
            return FAIL_CLOSED
    return FAIL_CLOSED


def awaiting_answer(confirm_tool: str) -> ToolResult:
    # The host has just read the request back itself (kit.readback); the model says nothing
    # more, so nothing the model writes can stand between the read-back and the answer.
    return ToolResult(
        "Not done yet: I have read the request back to the caller myself. Say nothing now. "
        f"When the caller answers, call {confirm_tool}; it reads their answer.",
        reply_required=False,
    )


def _ask(
    action: GatedAction[T], context: RunContext[CallContext], target: T, decision: GateDecision
) -> str | ToolResult:
    call = context.userdata
    pending = tuple(decision.pending_confirmation_ids)
    if not pending:  # the slot rule never asks without something confirmable; be safe anyway
        return FAIL_CLOSED
    snapshot = call.snapshot
    reason = action.caution(list(snapshot.memories) if snapshot is not None else [], target)
    readback = read_back(context.session, action.request(target), reason)
    call.offer = Offer(action.name, target, pending, readback=readback, reason=reason)
    return awaiting_answer(call.confirm_tool)


async def _record_request(action: GatedAction[T], call: CallContext, target: T) -> bool:
    memory = call.memory
    assert memory is not None
    fact = request_fact(
        action.name,
        action.request(target),
        action.target.key(target),
        call.call_id,
        today=call.today(),
    )
    try:
        # A fresh key per request: after a request was used up, asking again is a new one.
        await memory.write_now([fact], idempotency_key=f"request:{uuid.uuid4().hex}")
    except MemoryLayerError as exc:
        log.warning("could not record %s request: %s", action.name, exc)
        return False
    return True


async def _execute(
    action: GatedAction[T],
    context: RunContext[CallContext],
    identity: CallerIdentity,
    target: T,
    decision: GateDecision,
) -> str:
    call = context.userdata
    evidence = [m.id for m in decision.decision.memories] if decision.decision else []
    target_key = action.target.key(target)
    attempt = Attempt(
        identity,
        target,
        host_key(action.name, identity.customer_id, target_key, evidence),
        today=call.today(),
        call_id=call.call_id,
    )
    # From here the side effect runs to its end: a barge-in must not cancel it halfway.
    try:
        context.disallow_interruptions()
    except RuntimeError:
        # LiveKit: "SpeechHandle is already interrupted" — the caller spoke after their yes,
        # before the side effect started. The yes stands: the action still runs to its end
        # (shielded below) and its receipt says what happened.
        log.info("%s: caller spoke before the side effect started; it runs anyway", action.name)
    await decision.before_execution(
        {"customer_id": identity.customer_id, "target": target_key, "host_key": attempt.host_key}
    )
    # Shielded as well: a cancelled tool (hang-up) still lets the host system answer, so
    # the receipt says what happened.
    outcome = await asyncio.shield(_outcome(action, attempt))
    if outcome is None:
        decision.defer_to_recovery()
        return OUTCOME_PENDING
    if outcome.status == "succeeded":
        decision.succeeded(external_ref=outcome.external_ref)
        call.records.append(action.remember(attempt, outcome))
        call.offer = None
        await _consume(call, evidence)
    else:
        decision.failed(outcome.error_code or "failed")
    return outcome.message


async def _outcome(action: GatedAction[T], attempt: Attempt[T]) -> Outcome | None:
    """The side effect's outcome; an unknown one is resolved by its key before answering."""
    try:
        return await action.execute(attempt)
    except HostSystemUnavailable as exc:
        if not isinstance(exc, OutcomeUnknown):
            return Outcome("failed", SYSTEM_DOWN, error_code="host_system_unavailable")
        log.warning("%s outcome unknown: %s; resolving by key", action.name, exc)
    try:
        resolved = await action.resolve(attempt.host_key)
    except HostSystemUnavailable:
        return None  # the outbox intent resolves it later, by the same key
    if not resolved.succeeded:
        return Outcome(
            "failed",
            "That did not go through. Offer to try again.",
            error_code=resolved.error_code or "failed",
        )
    # The request landed although its answer was lost: redo it under the same key, which
    # the host system answers with the original result instead of acting twice.
    try:
        return await action.execute(attempt)
    except HostSystemUnavailable:
        return None


async def _consume(call: CallContext, evidence: list[str]) -> None:
    """One yes authorises one action: the confirmed request is used up."""
    memory = call.memory
    if memory is None:
        return
    for memory_id in evidence:
        try:
            await memory.backend.forget(memory.user_id, memory_id)
        except MemoryLayerError as exc:
            # Still safe: the request slot belongs to this call and this target only.
            log.warning("could not consume request %s: %s", memory_id, exc)
