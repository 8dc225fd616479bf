"""The gated-action kit: declare a consequential action once, get the whole safe loop.

A `GatedAction` says what the action is (its name and the phrase read back to the caller),
how to check the host's current state first, how to run the side effect under an
idempotency key, and how to find out after a crash what that key did. `run_gated_action`
does everything else, the same way for every action:

    parse the day → serialise per caller → host pre-check (already booked? nothing to
    cancel?) → host authorization → ContextDB decision on this call's request slot →
    abstain: record the request, decide again → ask: remember the offer, read it back →
    act: no interruptions, durable intent, side effect, outcome (unknown → resolve by key)
    → exactly one receipt (the gate) → consume the request.

See README "Adding a gated action" for how `cancel_visit` was added with it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from livekit.agents import RunContext, ToolError
from livekit.agents.llm import ToolResult

from contextdb_livekit.domain.calendar import (
    CalendarClient,
    CalendarOutcomeUnknown,
    CalendarUnavailable,
    InvalidDay,
    parse_visit_day,
)
from contextdb_livekit.domain.facts import conflict_reason
from contextdb_livekit.domain.replies import ActionWords
from contextdb_livekit.domain.write_policy import action_request, action_request_slot
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import refusal_reason
from contextdb_livekit.kit.context import CallContext, Offer
from contextdb_livekit.kit.readback import read_back
from contextdb_livekit.memory.errors import MemoryLayerError
from contextdb_livekit.memory.gate import GateDecision
from contextdb_livekit.stores.outbox import IntentResolver

log = logging.getLogger("contextdb_livekit.kit.actions")

FAIL_CLOSED = (
    "I couldn't check the caller's records just now, so I have not done anything. "
    "Apologise and offer to try again in a moment."
)
NOT_THE_CALLER = "This call is no longer verified. Do not act on the account."
REFUSALS = {
    "assurance_too_low": (
        "I can't change visits on this line because the caller could not be verified. "
        "Offer to have the team call back, or suggest using the app."
    ),
    "not_authorized": (
        "This account can't change visits right now. Tell the caller a team member will follow up."
    ),
}
CALENDAR_DOWN = "The booking system is not answering. Apologise and offer to try again."
# The host has just read the request back itself (kit.readback); the model says nothing
# more, so nothing the model writes can stand between the read-back and the caller's answer.
AWAITING_ANSWER = ToolResult(
    "Not done yet: I have read the request back to the caller myself. Say nothing now. "
    "When the caller answers, call confirm_visit_details; it reads their answer.",
    reply_required=False,
)


@dataclass(frozen=True)
class Outcome:
    """What the side effect did, as the receipt and the model should hear it."""

    status: Literal["succeeded", "failed"]
    message: str
    external_ref: str | None = None
    error_code: str | None = None


@dataclass(frozen=True)
class Attempt:
    """One execution of an action: who, which day, under which host idempotency key."""

    identity: CallerIdentity
    day: date
    host_key: str
    call: CallContext


@dataclass(frozen=True)
class GatedAction:
    name: str
    # Read back to the caller: "a service visit on Thursday 10 December?"
    phrase: str
    # How a reply names this action ("cancel it", "book me in"): domain.replies reads the
    # caller's answer to the read-back with them.
    words: ActionWords = field(default=ActionWords(), kw_only=True)
    # Host state first: a message to return instead of deciding (e.g. "already booked").
    precheck: Callable[[CallContext, CallerIdentity, date], Awaitable[str | None]]
    # The side effect; raises CalendarOutcomeUnknown when it may or may not have happened.
    execute: Callable[[Attempt], Awaitable[Outcome]]
    # After a crash or an unknown outcome: what did this host key do? (by key, never by day)
    resolve: Callable[[CalendarClient, dict[str, Any]], Awaitable[dict[str, Any]]]
    # What the call remembers on success (e.g. the booking for the end-of-call write).
    on_success: Callable[[Attempt, Outcome], None]


def intent_resolvers(
    actions: list[GatedAction], calendar: CalendarClient
) -> dict[str, IntentResolver]:
    """The outbox flusher's crash-recovery map, derived from the declared actions."""

    def bind(action: GatedAction) -> IntentResolver:
        async def resolve(payload: dict[str, Any]) -> dict[str, Any]:
            return await action.resolve(calendar, payload)

        return resolve

    return {action.name: bind(action) for action in actions}


def attempt_key(payload: dict[str, Any]) -> str:
    """The host idempotency key an intent was executed under. Intents written before the
    key was recorded were booked under the receipt key, which the flusher passes along."""
    return str(payload.get("host_key") or payload.get("booking_key") or payload["idempotency_key"])


def host_key(action: str, customer_id: str, day: date, evidence_ids: list[str]) -> str:
    """One key per confirmed request: every retry of the same yes reuses it."""
    material = "|".join([action, customer_id, day.isoformat(), *sorted(evidence_ids)])
    return f"{action}:{hashlib.sha256(material.encode()).hexdigest()[:32]}"


async def run_gated_action(
    action: GatedAction, context: RunContext[CallContext], identity: CallerIdentity, day_text: str
) -> str | ToolResult:
    """The tool body of a gated action: the model supplies only `day_text`."""
    call = context.userdata
    if not call.is_caller(identity):
        return NOT_THE_CALLER
    try:
        day = parse_visit_day(day_text, today=call.today(), horizon_days=call.host.horizon_days)
    except InvalidDay as exc:
        raise ToolError(str(exc)) from None
    return await run_for_day(action, context, identity, day)


async def run_for_day(
    action: GatedAction, context: RunContext[CallContext], identity: CallerIdentity, day: date
) -> str | ToolResult:
    """Host state, host authorization, then the decision and what it allows. Also what a
    confirmed yes runs (kit.confirmation), so the caller's yes goes straight to the result."""
    call = context.userdata
    async with call.action_lock:
        try:
            early = await action.precheck(call, identity, day)
            if early is not None:
                return early
            refusal = await refusal_reason(identity, day, call.host.calendar, call.host.policy)
        except CalendarUnavailable:
            return CALENDAR_DOWN
        if refusal is not None:
            log.info("%s refused for caller %s: %s", action.name, identity.log_id, refusal)
            return REFUSALS[refusal]
        return await _decide_and_run(action, context, identity, day)


async def _decide_and_run(
    action: GatedAction, context: RunContext[CallContext], identity: CallerIdentity, day: date
) -> str | ToolResult:
    call = context.userdata
    memory = call.memory
    assert memory is not None  # is_caller() checked it
    slot = action_request_slot(action.name, day, call.call_id)
    query = f"{action.name} {day.strftime('%A')} {day.isoformat()}"
    for attempt in range(2):
        async with memory.gate.evaluate(identity.customer_id, action.name, query, slot) as decision:
            call.metrics.record_decision(
                "unavailable" if decision.unavailable_reason is not None else decision.outcome
            )
            if decision.unavailable_reason is not None:
                return FAIL_CLOSED
            if decision.outcome == "act":
                return await _execute(action, context, identity, day, decision)
            decision.skipped()
            if decision.outcome == "ask":
                return await _ask(action, context, day, decision)
        # abstain: nothing in this call's request slot yet. Record the request; the next
        # decision then asks the caller to confirm it out loud.
        if attempt == 0 and not await _record_request(action, call, day):
            return FAIL_CLOSED
    return FAIL_CLOSED


async def _ask(
    action: GatedAction, context: RunContext[CallContext], day: date, decision: GateDecision
) -> str | ToolResult:
    call = context.userdata
    pending = tuple(decision.pending_confirmation_ids)
    if not pending:  # the slot rule never asks without something confirmable; be safe anyway
        return FAIL_CLOSED
    reason = conflict_reason(_known_facts(call), day)
    readback = read_back(context.session, action.phrase, day, reason)
    call.offer = Offer(action.name, day, pending, readback=readback, reason=reason)
    return AWAITING_ANSWER


def _known_facts(call: CallContext) -> list:  # type: ignore[type-arg]
    snapshot = call.snapshot
    return list(snapshot.memories) if snapshot is not None else []


async def _record_request(action: GatedAction, call: CallContext, day: date) -> bool:
    memory = call.memory
    assert memory is not None
    fact = action_request(action.name, action.phrase, day, call.call_id, today=call.today())
    try:
        # A fresh key per request: after a request was used up, asking again is a new one.
        await memory.write_now([fact], idempotency_key=f"request:{uuid.uuid4().hex}")
    except MemoryLayerError as exc:
        log.warning("could not record %s request: %s", action.name, exc)
        return False
    return True


async def _execute(
    action: GatedAction,
    context: RunContext[CallContext],
    identity: CallerIdentity,
    day: date,
    decision: GateDecision,
) -> str:
    call = context.userdata
    evidence = [m.id for m in decision.decision.memories] if decision.decision else []
    attempt = Attempt(
        identity, day, host_key(action.name, identity.customer_id, day, evidence), call
    )
    # From here the side effect runs to its end: a barge-in must not cancel it halfway.
    context.disallow_interruptions()
    await decision.before_execution(
        {"customer_id": identity.customer_id, "day": day.isoformat(), "host_key": attempt.host_key}
    )
    # Shielded as well: a cancelled tool (hang-up) still lets the booking system answer, so
    # the receipt says what happened.
    outcome = await asyncio.shield(_outcome(action, attempt, call))
    if outcome is None:
        decision.defer_to_recovery()
        return (
            "The booking system did not answer, so I can't tell yet whether that went "
            "through. Do not try again now; tell the caller we will confirm by message."
        )
    if outcome.status == "succeeded":
        decision.succeeded(external_ref=outcome.external_ref)
        action.on_success(attempt, outcome)
        call.offer = None
        await _consume(call, evidence)
    else:
        decision.failed(outcome.error_code or "failed")
    return outcome.message


async def _outcome(action: GatedAction, attempt: Attempt, call: CallContext) -> Outcome | None:
    """The side effect's outcome; an unknown one is resolved by its key before answering."""
    try:
        return await action.execute(attempt)
    except CalendarUnavailable as exc:
        if not isinstance(exc, CalendarOutcomeUnknown):
            return Outcome("failed", CALENDAR_DOWN, error_code="calendar_unavailable")
        log.warning("%s outcome unknown: %s; resolving by key", action.name, exc)
    payload = {
        "customer_id": attempt.identity.customer_id,
        "day": attempt.day.isoformat(),
        "host_key": attempt.host_key,
    }
    try:
        resolved = await action.resolve(call.host.calendar, payload)
    except CalendarUnavailable:
        return None  # the outbox intent resolves it later, by the same key
    if resolved.get("status") != "succeeded":
        return Outcome(
            "failed",
            "That did not go through. Offer to try again.",
            error_code=resolved.get("error_code", "failed"),
        )
    # The request landed although its answer was lost: redo it under the same key, which
    # the booking system answers with the original result instead of acting twice.
    try:
        return await action.execute(attempt)
    except CalendarUnavailable:
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
            # Still safe: the request slot belongs to this call and this day only.
            log.warning("could not consume request %s: %s", memory_id, exc)
