"""`cancel_visit`: the second gated action, added with the kit (README "Adding a gated action").

Same guarantees as booking: the model names only the day, the caller confirms out loud,
one yes cancels one visit, exactly one receipt, and a crash or lost answer is resolved by the
cancellation's own idempotency key.
"""

from __future__ import annotations

from datetime import date
from functools import partial

from calendar_client import CalendarClient, SlotUnavailable
from contextdb_livekit.api import (
    CANCEL_WORDS,
    ActionWords,
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
from tools.booking import booking_on, may_change_visits, visit_record
from tools.systems import VisitSystems
from tools.visit_day import VISIT_DAY

# How a caller names cancelling a visit in the answer to the read-back (kit.replies): the
# library's words for cancelling anything ("scrap it", "keep it"), and this line's own.
CANCELLING_WORDS = ActionWords(
    agree=(
        *CANCEL_WORDS.agree,
        # Agreeing by saying the repair is no longer needed.
        "fixed",
        "all fixed",
        "fixed itself",
        "got it fixed",
        "had it fixed",
        "it's fixed",
        "sorted",
        "all sorted",
        "sorted itself out",
        "sorted it",
        "got it sorted",
        "had it sorted",
        "it's sorted",
    ),
    refuse=(*CANCEL_WORDS.refuse, "need someone", "go ahead with the visit"),
)


def cancel_visit_action(calendar: CalendarClient) -> GatedAction[date]:
    async def precheck(identity: CallerIdentity, day: date) -> str | None:
        if await booking_on(calendar, identity.customer_id, day) is None:
            return f"There is no visit booked on {spoken_day(day)}, so there is nothing to cancel."
        return None

    async def execute(attempt: Attempt[date]) -> Outcome:
        booking = await booking_on(calendar, attempt.identity.customer_id, attempt.target)
        if booking is None:
            # Already gone: a replay of our own cancellation answers with the original result.
            replay = await calendar.cancellation_for_key(attempt.host_key)
            if replay is None:
                return Outcome(
                    "failed",
                    f"There is no visit on {spoken_day(attempt.target)} any more.",
                    error_code="nothing_to_cancel",
                )
            booking = replay
        try:
            cancelled = await calendar.cancel(
                attempt.identity.customer_id, booking.booking_id, idempotency_key=attempt.host_key
            )
        except SlotUnavailable:
            return Outcome(
                "failed",
                "That visit could not be found to cancel.",
                error_code="nothing_to_cancel",
            )
        return Outcome(
            "succeeded",
            f"Cancelled the visit on {spoken_day(attempt.target)} "
            f"(reference {cancelled.booking_id}).",
            external_ref=cancelled.booking_id,
        )

    return GatedAction(
        name="cancel_visit",
        phrase="cancel the service visit",
        target=VISIT_DAY,
        words=CANCELLING_WORDS,
        precheck=precheck,
        authorize=partial(may_change_visits, calendar),
        execute=execute,
        resolve=Resolution.by_key(
            calendar.cancellation_for_key,
            lambda b: b.booking_id,
            otherwise="interrupted_before_cancelling",
        ),
        remember=lambda attempt, outcome: visit_record("visit_cancelled", attempt, outcome),
        caution=conflict_reason,
        tool=ToolText(
            "Cancel the caller's booked service visit on one day.",
            argument="day",
            argument_description='The day of the visit to cancel, as a weekday name, "tomorrow", '
            "or an ISO\ndate (YYYY-MM-DD). Nothing else.",
        ),
    )


# Built from the line's systems: this action's side effects are the booking system's.
CANCELLATION: GatedTool[VisitSystems] = GatedTool(lambda line: cancel_visit_action(line.calendar))
