"""The call's LLM tools and the domain's gated actions, registered in one place.

Gated tools are closures over the authenticated caller; their actions close over the line's
business systems (`tools.systems.VisitSystems`). A new gated action is one entry in
`GATED_TOOLS` (README "Adding a gated action"); the tools, the confirmation tool and the
outbox's crash recovery follow from it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from livekit.agents.llm import FunctionTool

from contextdb_livekit.api import (
    FORGET_ACTION,
    CallerIdentity,
    GatedAction,
    GatedTool,
    IntentResolver,
    build_confirmation_tool,
    build_forget_tool,
    build_recall_tool,
    for_host,
    forget_action,
    forget_intent_resolver,
    intent_resolver,
    open_caller_data,
)
from tools.booking import BOOKING
from tools.cancellation import CANCELLATION
from tools.notes import build_note_tool
from tools.open_days import build_open_days_tool
from tools.review import build_review_tool
from tools.service_credit import SERVICE_CREDIT
from tools.systems import VisitHost, VisitSystems, close_systems, open_systems

__all__ = [
    "CONFIRM_TOOL",
    "GATED_TOOLS",
    "build_call_tools",
    "gated_actions",
    "host_intent_resolvers",
    "intent_resolvers",
    "open_intent_resolvers",
]

# Every consequential action: its tool, the confirmation it is read back through, and the
# outbox's crash recovery.
GATED_TOOLS: list[GatedTool[VisitSystems]] = [
    BOOKING,
    CANCELLATION,
    SERVICE_CREDIT,
]

CONFIRM_TOOL = "confirm_read_back"
_CONFIRM_DESCRIPTION = (
    "Call when the caller has answered the host's read-back of a request (a booking, a "
    "cancellation, ...). Takes no arguments: the host reads the caller's answer itself "
    "and, on a yes, carries out exactly what was read back. Never call it on your own question."
)


def gated_actions(systems: VisitSystems) -> list[GatedAction[Any]]:
    return [gated.action(systems) for gated in GATED_TOOLS]


def intent_resolvers(systems: VisitSystems) -> dict[str, IntentResolver]:
    """The outbox's crash recovery, by action name (for the flusher and the drain)."""
    return {action.name: intent_resolver(action) for action in gated_actions(systems)}


def host_intent_resolvers(host: VisitHost) -> dict[str, IntentResolver]:
    """A call's crash recovery: the booking system's actions and the forget (its stores
    looked up only when an interrupted forget is found)."""

    async def forget(payload: dict[str, Any]) -> dict[str, Any]:
        return await forget_intent_resolver(for_host(host))(payload)

    return {**intent_resolvers(host.line), FORGET_ACTION: forget}


def _forget_on_demand() -> IntentResolver:
    """The forget's recovery for the drain, opening the caller-data stores only when an
    interrupted forget is found (an idle drain keeps no memory backend open)."""

    async def resolve(payload: dict[str, Any]) -> dict[str, Any]:
        opened = await open_caller_data()
        try:
            return await forget_intent_resolver(opened.stores)(payload)
        finally:
            await opened.close()

    return resolve


@contextlib.asynccontextmanager
async def open_intent_resolvers() -> AsyncIterator[dict[str, IntentResolver]]:
    """The crash recovery of a process without calls (the drain): the business systems'
    clients from the environment, closed when the process is done, and the forget's."""
    systems = open_systems()
    try:
        yield {**intent_resolvers(systems), FORGET_ACTION: _forget_on_demand()}
    finally:
        with contextlib.suppress(Exception):
            await close_systems(systems)


def build_call_tools(
    identity: CallerIdentity | None,
    systems: VisitSystems,
    *,
    realtime: bool = False,
    host: VisitHost | None = None,
) -> list[FunctionTool]:
    """All tools for a verified caller; only ungated ones when nobody was authenticated.
    A realtime model, which gets no per-turn recall, also gets a read-only recall tool.
    With the call's `host`, the caller can also ask to be forgotten (`caller_data.forget`)."""
    ungated = [build_open_days_tool()]
    if identity is None:
        return ungated
    actions = [(gated, gated.action(systems)) for gated in GATED_TOOLS]
    gated_tools = [gated.tool(action, identity) for gated, action in actions]
    confirmable = [action for _, action in actions]
    if host is not None:
        forget = forget_action(host)
        gated_tools.append(build_forget_tool(forget, identity))
        confirmable.append(forget)
    return [
        *ungated,
        *([build_recall_tool()] if realtime else []),
        *gated_tools,
        build_confirmation_tool(
            identity,
            confirmable,
            name=CONFIRM_TOOL,
            description=_CONFIRM_DESCRIPTION,
        ),
        build_note_tool(),
        build_review_tool(identity),
    ]
