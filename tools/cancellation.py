"""`cancel_visit`: the second gated action, added with the kit (README "Adding a gated action").

Same guarantees as booking: the model names only the day, the caller confirms out loud,
one yes cancels one visit, exactly one receipt, and a crash or lost answer is resolved by the
cancellation's own idempotency key.
"""

from __future__ import annotations

from datetime import date

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool, ToolResult

from calendar_client import CalendarClient, SlotUnavailable
from contextdb_livekit.api import (
    ActionWords,
    Attempt,
    CallerIdentity,
    GatedAction,
    GatedTool,
    Outcome,
    Resolution,
    run_gated_action,
    spoken_day,
)
from memory.cautions import conflict_reason
from tools.booking import booking_on, may_change_visits, visit_record
from tools.systems import VisitCall, VisitSystems
from tools.visit_day import VISIT_DAY

# How a caller names cancelling in the answer to the read-back (kit.replies): "scrap it",
# "we don't need it anymore" agree; "keep it", "still need it" refuse; "don't cancel it" is
# a negated action, so no.
CANCELLING_WORDS = ActionWords(
    agree=(
        # "cancel", "cancel it", "cancel that", "scrap it" are refusals of a booking
        # read-back; declared here, they agree.
        "cancel",
        "cancel it",
        "cancel that",
        "cancel away",
        "cancellation",
        "cancelling",
        "get it cancelled",
        "have it cancelled",
        "want it cancelled",
        "need it cancelled",
        "like it cancelled",
        "still want it cancelled",
        "still need it cancelled",
        "scrap",
        "scrap it",
        "scrap that",
        "scratch it",
        "bin it",
        "ditch it",
        "drop it",
        "dump it",
        "axe it",
        "kill it",
        "wipe it",
        "remove it",
        "delete it",
        "knock it on the head",
        "call it off",
        "get rid",
        "get rid of",
        "get rid of it",
        "take it off",
        "take it out",
        "take me off",
        "take us off",
        "take it off the list",
        "take me off the list",
        "take us off the list",
        "strike it off",
        "cross it off",
        # Agreeing by saying the visit is not needed.
        "don't need it",
        "don't need anyone",
        "don't need anybody",
        "no longer need it",
        "won't need it",
        "won't be needing it",
        "don't want it",
        "no longer want it",
        "not needed",
        "no longer needed",
        "not required",
        "no longer required",
        "no need for it",
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
        # Spanish, French, German (accents are stripped before matching).
        "cancelar",
        "cancela",
        "cancelalo",
        "annuler",
        "annulez",
        "stornieren",
        "absagen",
    ),
    refuse=(
        "keep",
        "keep it",
        "leave it",
        "hang on to it",
        "hold on to it",
        "hold onto it",
        "hang onto it",
        "stick with it",
        "still need",
        "still want",
        "still needed",
        "need it",
        "want it",
        "need someone",
        "go ahead with the visit",
        "go ahead with the appointment",
        "go ahead with the booking",
        "still go ahead",
    ),
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

    async def resolve(host_key: str) -> Resolution:
        cancelled = await calendar.cancellation_for_key(host_key)
        return Resolution.of(
            cancelled.booking_id if cancelled else None, otherwise="interrupted_before_cancelling"
        )

    return GatedAction(
        name="cancel_visit",
        phrase="cancel the service visit",
        target=VISIT_DAY,
        words=CANCELLING_WORDS,
        precheck=precheck,
        authorize=may_change_visits(calendar),
        execute=execute,
        resolve=resolve,
        remember=lambda attempt, outcome: visit_record("visit_cancelled", attempt, outcome),
        caution=conflict_reason,
    )


def build_cancellation_tool(action: GatedAction[date], identity: CallerIdentity) -> FunctionTool:
    async def cancel_visit(context: RunContext[VisitCall], day: str) -> str | ToolResult:
        """Cancel the caller's booked service visit on one day.

        Args:
            day: The day of the visit to cancel, as a weekday name, "tomorrow", or an ISO
                date (YYYY-MM-DD). Nothing else.
        """
        return await run_gated_action(action, context, identity, day)

    return function_tool(cancel_visit, name="cancel_visit")


# Built from the line's systems: this action's side effects are the booking system's.
CANCELLATION: GatedTool[VisitSystems] = GatedTool(
    lambda line: cancel_visit_action(line.calendar), build_cancellation_tool
)
