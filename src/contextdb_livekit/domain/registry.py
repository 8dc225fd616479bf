"""The call's LLM tools. Gated ones are closures over the authenticated caller and read
everything else from the call's context (`RunContext[CallContext]`)."""

from __future__ import annotations

from livekit.agents.llm import FunctionTool

from contextdb_livekit.domain.booking import BOOK_VISIT, build_booking_tool
from contextdb_livekit.domain.cancellation import CANCEL_VISIT, build_cancellation_tool
from contextdb_livekit.domain.notes import build_note_tool
from contextdb_livekit.domain.open_days import build_open_days_tool
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.actions import GatedAction
from contextdb_livekit.kit.confirmation import build_confirmation_tool
from contextdb_livekit.kit.recall import build_recall_tool

__all__ = ["GATED_ACTIONS", "build_call_tools"]

# Every consequential action, for the tools and for the outbox's crash recovery.
GATED_ACTIONS: list[GatedAction] = [BOOK_VISIT, CANCEL_VISIT]


def build_call_tools(
    identity: CallerIdentity | None, *, realtime: bool = False
) -> list[FunctionTool]:
    """All tools for a verified caller; only ungated ones when nobody was authenticated.
    A realtime model, which gets no per-turn recall, also gets a read-only recall tool."""
    ungated = [build_open_days_tool()]
    if identity is None:
        return ungated
    return [
        *ungated,
        *([build_recall_tool()] if realtime else []),
        build_booking_tool(identity),
        build_cancellation_tool(identity),
        build_confirmation_tool(identity, GATED_ACTIONS),
        build_note_tool(),
    ]
