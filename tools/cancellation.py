"""`cancel_visit`: the second gated action, added with the kit (README "Adding a gated action").

Same guarantees as booking: the model names only the day, the caller confirms out loud,
one yes cancels one visit, exactly one receipt, and a crash or lost answer is resolved by the
cancellation's own idempotency key.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool

from calendar_client import Booking, CalendarClient, SlotUnavailable
from identity import CallerIdentity
from tools.actions import Attempt, GatedAction, Outcome, attempt_key, run_gated_action
from tools.context import CallContext, CallOutcomeEntry
from tools.speech import spoken_day


async def _booking_on(call: CallContext, customer_id: str, day: date) -> Booking | None:
    for booking in await call.host.calendar.bookings_for(customer_id):
        if booking.day == day:
            return booking
    return None


async def _precheck(call: CallContext, identity: CallerIdentity, day: date) -> str | None:
    if await _booking_on(call, identity.customer_id, day) is None:
        return f"There is no visit booked on {spoken_day(day)}, so there is nothing to cancel."
    return None


async def _execute(attempt: Attempt) -> Outcome:
    calendar = attempt.call.host.calendar
    booking = await _booking_on(attempt.call, attempt.identity.customer_id, attempt.day)
    if booking is None:
        # Already gone: a replay of our own cancellation answers with the original result.
        replay = await calendar.cancellation_for_key(attempt.host_key)
        if replay is None:
            return Outcome(
                "failed",
                f"There is no visit on {spoken_day(attempt.day)} any more.",
                error_code="nothing_to_cancel",
            )
        booking = replay
    try:
        cancelled = await calendar.cancel(
            attempt.identity.customer_id, booking.booking_id, idempotency_key=attempt.host_key
        )
    except SlotUnavailable:
        return Outcome(
            "failed", "That visit could not be found to cancel.", error_code="nothing_to_cancel"
        )
    return Outcome(
        "succeeded",
        f"Cancelled the visit on {spoken_day(attempt.day)} (reference {cancelled.booking_id}).",
        external_ref=cancelled.booking_id,
    )


async def _resolve(calendar: CalendarClient, payload: dict[str, Any]) -> dict[str, Any]:
    cancelled = await calendar.cancellation_for_key(attempt_key(payload))
    if cancelled is not None:
        return {"status": "succeeded", "external_ref": cancelled.booking_id}
    return {"status": "failed", "error_code": "interrupted_before_cancelling"}


def _remember(attempt: Attempt, outcome: Outcome) -> None:
    attempt.call.cancelled.append(CallOutcomeEntry(attempt.day, outcome.external_ref or ""))


CANCEL_VISIT = GatedAction(
    name="cancel_visit",
    phrase="cancel the service visit",
    precheck=_precheck,
    execute=_execute,
    resolve=_resolve,
    on_success=_remember,
)


def build_cancellation_tool(identity: CallerIdentity) -> FunctionTool:
    async def cancel_visit(context: RunContext[CallContext], day: str) -> str:
        """Cancel the caller's booked service visit on one day.

        Args:
            day: The day of the visit to cancel, as a weekday name, "tomorrow", or an ISO
                date (YYYY-MM-DD). Nothing else.
        """
        return await run_gated_action(CANCEL_VISIT, context, identity, day)

    return function_tool(cancel_visit, name="cancel_visit")
