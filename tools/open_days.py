"""`list_open_days`: read-only, so it is not gated by ContextDB."""

from __future__ import annotations

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool

from calendar_client import CalendarUnavailable
from contextdb_livekit.api import spoken_day
from tools.systems import VisitCall

MAX_DAYS = 5


def build_open_days_tool() -> FunctionTool:
    async def list_open_days(context: RunContext[VisitCall]) -> str:
        """List the next days that still have a free service visit."""
        call = context.userdata
        try:
            slots = await call.host.line.calendar.open_days(call.today(), 14)
        except CalendarUnavailable:
            return "The booking system is not answering. Offer to try again."
        open_slots = [s for s in slots if s.is_open][:MAX_DAYS]
        if not open_slots:
            return "There are no open days in the next two weeks."
        return "Open days: " + ", ".join(spoken_day(s.day) for s in open_slots) + "."

    return function_tool(list_open_days, name="list_open_days")
