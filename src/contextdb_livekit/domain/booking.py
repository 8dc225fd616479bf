"""`book_visit`: the consequential tool, declared through the gated-action kit.

The model supplies only the day. The tool is a closure over the authenticated caller, so no
argument can name another customer; everything else comes from the call's context.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool

from contextdb_livekit.domain.calendar import CalendarClient, SlotChanged, SlotUnavailable
from contextdb_livekit.domain.replies import ActionWords
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.actions import (
    Attempt,
    GatedAction,
    Outcome,
    attempt_key,
    run_gated_action,
)
from contextdb_livekit.kit.context import CallContext, CallOutcomeEntry
from contextdb_livekit.kit.speech import spoken_day


async def _precheck(call: CallContext, identity: CallerIdentity, day: date) -> str | None:
    calendar = call.host.calendar
    for booking in await calendar.bookings_for(identity.customer_id):
        if booking.day == day:
            # Idempotent per (customer, date): a second request books nothing.
            return (
                f"The caller already has a visit booked on {spoken_day(day)}, reference "
                f"{booking.booking_id}. Nothing new was booked."
            )
    try:
        slot = await calendar.get_slot(day)
    except SlotUnavailable:
        return f"There are no visits on {spoken_day(day)}. Offer another day."
    if not slot.is_open:
        return f"{spoken_day(day)} is fully booked. Offer another day."
    return None


async def _execute(attempt: Attempt) -> Outcome:
    calendar = attempt.call.host.calendar
    day = attempt.day
    try:
        slot = await calendar.get_slot(day)
        booking = await calendar.book(
            attempt.identity.customer_id, day, slot.version, idempotency_key=attempt.host_key
        )
    except SlotChanged:
        return Outcome(
            "failed",
            f"{spoken_day(day)} changed while I was booking it. Check open days and offer another.",
            error_code="current_state_changed",
        )
    except SlotUnavailable:
        return Outcome(
            "failed", f"{spoken_day(day)} just filled up. Offer another day.",
            error_code="slot_unavailable",
        )  # fmt: skip
    return Outcome(
        "succeeded",
        f"Booked a service visit on {spoken_day(day)}. Reference {booking.booking_id}.",
        external_ref=booking.booking_id,
    )


async def _resolve(calendar: CalendarClient, payload: dict[str, Any]) -> dict[str, Any]:
    """After a crash or a lost answer: what did this attempt's key do? Never "any booking
    that day", which could be an earlier, unrelated one."""
    booking = await calendar.booking_for_key(attempt_key(payload))
    if booking is not None:
        return {"status": "succeeded", "external_ref": booking.booking_id}
    return {"status": "failed", "error_code": "interrupted_before_booking"}


def _remember(attempt: Attempt, outcome: Outcome) -> None:
    attempt.call.booked.append(CallOutcomeEntry(attempt.day, outcome.external_ref or ""))


BOOK_VISIT = GatedAction(
    name="book_visit",
    phrase="book a service visit",
    # How a caller names booking in the answer to the read-back (domain.replies): "book me
    # in" agrees; "we'll manage" refuses; "cancel that" and "don't book it" are generic no's.
    words=ActionWords(
        agree=(
            "book",
            "get it booked",
            "have it booked",
            "want it booked",
            "need it booked",
            "pencil it in",
            "pencil me in",
            "pencil us in",
            "put it in",
            "put me in",
            "put us in",
            "put me down",
            "put us down",
            "pop it in",
            "pop me in",
            "pop us in",
            "pop me down",
            "sign me up",
            "sign us up",
            "lock it in",
            "i'll take it",
            "we'll take it",
            "i'll have it",
            "we'll have it",
            "i'm free",
            "i'm available",
            "we're free",
            "we're available",
            "see you then",
        ),
        refuse=(
            "don't need it",
            "don't need one",
            "don't need anyone",
            "no longer need it",
            "not needed",
            "i'll manage",
            "we'll manage",
            "i'll sort it myself",
            "we'll sort it ourselves",
            "won't bother",
        ),
    ),
    precheck=_precheck,
    execute=_execute,
    resolve=_resolve,
    on_success=_remember,
)


def build_booking_tool(identity: CallerIdentity) -> FunctionTool:
    async def book_visit(context: RunContext[CallContext], day: str) -> str:
        """Book a service visit for the caller on one day.

        Args:
            day: The day the caller wants, as a weekday name (e.g. "thursday"), "tomorrow",
                or an ISO date (YYYY-MM-DD). Nothing else.
        """
        return await run_gated_action(BOOK_VISIT, context, identity, day)

    return function_tool(book_visit, name="book_visit")
