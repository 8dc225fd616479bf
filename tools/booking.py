"""`book_visit`: the consequential tool, declared through the gated-action kit.

The model supplies only the day. The tool is a closure over the authenticated caller, so no
argument can name another customer; the action closes over the host's booking system.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Literal

from calendar_client import Booking, CalendarClient, SlotChanged, SlotUnavailable
from contextdb_livekit.api import (
    BOOK_WORDS,
    Attempt,
    CallerIdentity,
    GatedAction,
    GatedTool,
    Outcome,
    Resolution,
    ToolText,
    spoken_day,
)
from memory.cautions import conflict_reason
from memory.facts import HOST_CONFIDENCE, CallerFact
from tools.systems import VisitSystems
from tools.visit_day import VISIT_DAY

# How a caller names booking a visit in the answer to the read-back (kit.replies): the
# library's words for booking anything ("book me in", "we'll manage") are all this line needs.
BOOKING_WORDS = BOOK_WORDS


def visit_record(
    kind: Literal["visit_booked", "visit_cancelled"], attempt: Attempt[date], outcome: Outcome
) -> CallerFact:
    """The host's record of a visit change, kept by the end-of-call write."""
    return CallerFact(
        kind=kind,
        value=outcome.external_ref or "",
        source="third_party",
        confidence=HOST_CONFIDENCE,
        observed_on=attempt.today,
        key=attempt.target.isoformat(),
    )


async def booking_on(calendar: CalendarClient, customer_id: str, day: date) -> Booking | None:
    """The customer's booked visit on `day`, if any."""
    bookings = await calendar.bookings_for(customer_id)
    return next((booking for booking in bookings if booking.day == day), None)


async def may_change_visits(calendar: CalendarClient, identity: CallerIdentity, day: date) -> bool:
    """The booking system's rule for booking or cancelling a visit on a day (`authorize`,
    with the calendar bound)."""
    slot = await calendar.get_slot(day)
    return await calendar.can_book(identity.actor_id, identity.customer_id, slot)


def book_visit_action(calendar: CalendarClient) -> GatedAction[date]:
    async def precheck(identity: CallerIdentity, day: date) -> str | None:
        booking = await booking_on(calendar, identity.customer_id, day)
        if booking is not None:
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

    async def execute(attempt: Attempt[date]) -> Outcome:
        day = attempt.target
        try:
            slot = await calendar.get_slot(day)
            booking = await calendar.book(
                attempt.identity.customer_id, day, slot.version, idempotency_key=attempt.host_key
            )
        except SlotChanged:
            return Outcome(
                "failed",
                f"{spoken_day(day)} changed while I was booking it. Check open days and "
                "offer another.",
                error_code="current_state_changed",
            )
        except SlotUnavailable:
            return Outcome(
                "failed",
                f"{spoken_day(day)} just filled up. Offer another day.",
                error_code="slot_unavailable",
            )
        return Outcome(
            "succeeded",
            f"Booked a service visit on {spoken_day(day)}. Reference {booking.booking_id}.",
            external_ref=booking.booking_id,
        )

    return GatedAction(
        name="book_visit",
        phrase="book a service visit",
        target=VISIT_DAY,
        words=BOOKING_WORDS,
        precheck=precheck,
        authorize=partial(may_change_visits, calendar),
        execute=execute,
        # What did this attempt's key do? Never "any booking that day" (an earlier one).
        resolve=Resolution.by_key(
            calendar.booking_for_key, lambda b: b.booking_id, otherwise="interrupted_before_booking"
        ),
        remember=lambda attempt, outcome: visit_record("visit_booked", attempt, outcome),
        caution=conflict_reason,
        tool=ToolText(
            "Book a service visit for the caller on one day.",
            argument="day",
            argument_description='The day the caller wants, as a weekday name (e.g. "thursday"), '
            '"tomorrow",\nor an ISO date (YYYY-MM-DD). Nothing else.',
        ),
    )


# Built from the line's systems: this action's side effects are the booking system's.
BOOKING: GatedTool[VisitSystems] = GatedTool(lambda line: book_visit_action(line.calendar))
