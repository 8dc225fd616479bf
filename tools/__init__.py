"""The call's LLM tools, each built as a closure over the authenticated caller."""

from __future__ import annotations

from livekit.agents.llm import FunctionTool

from identity import CallerIdentity
from tools.booking import build_booking_tool
from tools.confirmation import build_confirmation_tool
from tools.deps import ToolDeps
from tools.notes import build_note_tool
from tools.open_days import build_open_days_tool

__all__ = [
    "ToolDeps",
    "build_booking_tool",
    "build_call_tools",
    "build_confirmation_tool",
    "build_note_tool",
    "build_open_days_tool",
]


def build_call_tools(identity: CallerIdentity | None, deps: ToolDeps) -> list[FunctionTool]:
    """All tools for a verified caller; only ungated ones when nobody was authenticated."""
    ungated = [build_open_days_tool(deps)]
    if identity is None:
        return ungated
    return [
        *ungated,
        build_booking_tool(identity, deps),
        build_confirmation_tool(identity, deps),
        build_note_tool(deps),
    ]
