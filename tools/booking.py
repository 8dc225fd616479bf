"""`book_visit`: the consequential tool. The model supplies only the day.

The tool is a closure over the authenticated caller: there is no parameter through which
the model could name another customer. Order: parse the day → read the slot → host
authorization → ContextDB decision for the visit-day slot → act / ask / abstain → book with
the slot's version → one receipt on every path (the gate guarantees it).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import date

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import FunctionTool

from calendar_client import (
    CalendarUnavailable,
    InvalidDay,
    SlotChanged,
    SlotUnavailable,
    parse_visit_day,
)
from identity import CallerIdentity
from memory.errors import MemoryLayerError
from memory.gate import GateDecision
from memory.write_policy import requested_visit_day, visit_day_slot
from tools.authorization import refusal_reason
from tools.deps import ToolDeps
from tools.speech import spoken_day

log = logging.getLogger("tools.booking")

ACTION_NAME = "book_visit"

_REFUSALS = {
    "assurance_too_low": (
        "I can't book visits on this line because the caller could not be verified. "
        "Offer to have the team call back, or suggest booking in the app."
    ),
    "not_authorized": (
        "This account can't book visits right now. Tell the caller a team member will follow up."
    ),
}
_CALENDAR_DOWN = "The booking system is not answering. Apologise and offer to try again."
_FAIL_CLOSED = (
    "I couldn't check the caller's records just now, so I have not booked anything. "
    "Apologise and offer to try again in a moment."
)


def build_booking_tool(identity: CallerIdentity, deps: ToolDeps) -> FunctionTool:
    async def book_visit(context: RunContext, day: str) -> str:
        """Book a service visit for the caller on one day.

        Args:
            day: The day the caller wants, as a weekday name (e.g. "thursday"), "tomorrow",
                or an ISO date (YYYY-MM-DD). Nothing else.
        """
        try:
            visit_day = parse_visit_day(day, today=deps.today(), horizon_days=deps.horizon_days)
        except InvalidDay as exc:
            raise ToolError(str(exc)) from None
        try:
            slot = await deps.calendar.get_slot(visit_day)
        except SlotUnavailable:
            return f"There are no visits on {spoken_day(visit_day)}. Offer another day."
        except CalendarUnavailable:
            return _CALENDAR_DOWN
        if not slot.is_open:
            return f"{spoken_day(visit_day)} is fully booked. Offer another day."
        try:
            refusal = await refusal_reason(identity, slot, deps.calendar, deps.policy)
        except CalendarUnavailable:
            return _CALENDAR_DOWN
        if refusal is not None:
            log.info("booking refused for caller %s: %s", identity.log_id, refusal)
            return _REFUSALS[refusal]

        iso = visit_day.isoformat()
        query = f"book a service visit on {visit_day.strftime('%A')} {iso}"
        for attempt in range(2):
            async with deps.caller_memory.gate.evaluate(
                identity.customer_id, ACTION_NAME, query, visit_day_slot(visit_day)
            ) as decision:
                if decision.unavailable_reason is not None:
                    return _FAIL_CLOSED
                if decision.outcome == "act":
                    return await _book(identity, deps, decision, visit_day, slot.version)
                decision.skipped()
                if decision.outcome == "ask":
                    return _ask(deps, decision, visit_day)
            # abstain: nothing on file for this day. Record the request as unconfirmed;
            # the next decision then asks the caller to confirm it out loud.
            if attempt == 0 and not await _record_request(identity, deps, visit_day):
                return _FAIL_CLOSED
        return _FAIL_CLOSED

    return function_tool(book_visit, name="book_visit")


async def _book(
    identity: CallerIdentity,
    deps: ToolDeps,
    decision: GateDecision,
    visit_day: date,
    expected_version: int,
) -> str:
    await decision.before_execution(
        {"customer_id": identity.customer_id, "day": visit_day.isoformat()}
    )
    try:
        booking = await deps.calendar.book(
            identity.customer_id,
            visit_day,
            expected_version,
            idempotency_key=decision.idempotency_key,
        )
    except SlotChanged:
        decision.failed("current_state_changed")
        return (
            f"{spoken_day(visit_day)} changed while I was booking it and is no longer "
            "available as it was. Check open days and offer another."
        )
    except SlotUnavailable:
        decision.failed("slot_unavailable")
        return f"{spoken_day(visit_day)} just filled up. Offer another day."
    except CalendarUnavailable:
        decision.failed("calendar_unavailable")
        return "The booking system is not answering, so nothing was booked. Offer to retry."
    decision.succeeded(external_ref=booking.booking_id)
    deps.state.bookings.append((visit_day, booking.booking_id))
    deps.state.pending_day = None
    return f"Booked a service visit on {spoken_day(visit_day)}. Reference {booking.booking_id}."


def _ask(deps: ToolDeps, decision: GateDecision, visit_day: date) -> str:
    deps.caller_memory.offer_for_confirmation(decision.pending_confirmation_ids)
    deps.state.pending_day = visit_day
    return (
        f"Not booked yet. Ask the caller to confirm out loud: a service visit on "
        f"{spoken_day(visit_day)}? When they say yes, call confirm_visit_details, then "
        "book_visit again."
    )


async def _record_request(identity: CallerIdentity, deps: ToolDeps, visit_day: date) -> bool:
    iso = visit_day.isoformat()
    # Per call and day: a later call asking for the same day writes a fresh request.
    digest = hashlib.sha256(f"{identity.customer_id}|{identity.room_name}|{iso}".encode())
    try:
        await deps.caller_memory.backend.remember_many(
            identity.customer_id,
            [requested_visit_day(visit_day)],
            idempotency_key=f"visit-request:{digest.hexdigest()[:40]}",
        )
    except MemoryLayerError as exc:
        log.warning("could not record visit request: %s", exc)
        return False
    return True
