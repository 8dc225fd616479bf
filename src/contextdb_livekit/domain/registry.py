"""The call's LLM tools and the domain's gated actions, registered in one place.

Gated tools are closures over the authenticated caller; their actions close over the host's
booking system. A new gated action is one entry in `GATED_TOOLS` (README "Adding a gated
action"); the tools, the confirmation tool and the outbox's crash recovery follow from it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from livekit.agents.llm import FunctionTool

from contextdb_livekit.domain.booking import BOOKING
from contextdb_livekit.domain.calendar import CalendarClient, CalendarSettings, build_calendar
from contextdb_livekit.domain.cancellation import CANCELLATION
from contextdb_livekit.domain.notes import build_note_tool
from contextdb_livekit.domain.open_days import build_open_days_tool
from contextdb_livekit.domain.review import build_review_tool
from contextdb_livekit.domain.service_credit import SERVICE_CREDIT
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.actions import GatedAction, GatedTool, intent_resolver
from contextdb_livekit.kit.confirmation import build_confirmation_tool
from contextdb_livekit.kit.recall import build_recall_tool
from contextdb_livekit.stores.outbox import IntentResolver

__all__ = [
    "CONFIRM_TOOL",
    "GATED_TOOLS",
    "build_call_tools",
    "gated_actions",
    "intent_resolvers",
    "open_intent_resolvers",
]

# Every consequential action: its tool, the confirmation it is read back through, and the
# outbox's crash recovery.
GATED_TOOLS: list[GatedTool[CalendarClient]] = [
    BOOKING,
    CANCELLATION,
    SERVICE_CREDIT,
]

CONFIRM_TOOL = "confirm_visit_details"
_CONFIRM_DESCRIPTION = (
    "Call when the caller has answered the host's read-back of a request (a booking, a "
    "cancellation, ...). Takes no arguments: the host reads the caller's answer itself "
    "and, on a yes, carries out exactly what was read back. Never call it on your own question."
)


def gated_actions(calendar: CalendarClient) -> list[GatedAction[Any]]:
    return [gated.action(calendar) for gated in GATED_TOOLS]


def intent_resolvers(calendar: CalendarClient) -> dict[str, IntentResolver]:
    """The outbox's crash recovery, by action name (for the flusher and the drain)."""
    return {action.name: intent_resolver(action) for action in gated_actions(calendar)}


@contextlib.asynccontextmanager
async def open_intent_resolvers() -> AsyncIterator[dict[str, IntentResolver]]:
    """The crash recovery of a process without calls (the drain): the booking system's
    client from the environment (`CalendarSettings`), closed when the process is done."""
    calendar = build_calendar(CalendarSettings())
    try:
        yield intent_resolvers(calendar)
    finally:
        with contextlib.suppress(Exception):
            await calendar.aclose()


def build_call_tools(
    identity: CallerIdentity | None, calendar: CalendarClient, *, realtime: bool = False
) -> list[FunctionTool]:
    """All tools for a verified caller; only ungated ones when nobody was authenticated.
    A realtime model, which gets no per-turn recall, also gets a read-only recall tool."""
    ungated = [build_open_days_tool()]
    if identity is None:
        return ungated
    actions = [(gated, gated.action(calendar)) for gated in GATED_TOOLS]
    return [
        *ungated,
        *([build_recall_tool()] if realtime else []),
        *(gated.tool(action, identity) for gated, action in actions),
        build_confirmation_tool(
            identity,
            [action for _, action in actions],
            name=CONFIRM_TOOL,
            description=_CONFIRM_DESCRIPTION,
        ),
        build_note_tool(),
        build_review_tool(identity),
    ]
