"""The LLM tool of a gated action, built from the action itself: its name, its `ToolText` (what
it does, its one argument) and `run_gated_action` as the body. The model supplies only the
target in words; the tool closes over the authenticated caller, so no argument can name
another customer.

The schema the model sees is what `function_tool` reads from a hand-written closure with that
docstring and one `str` argument: the same name, description and parameter.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool, ToolResult

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.actions import GatedAction, ToolText, run_gated_action
from contextdb_livekit.kit.context import CallContext


def tool_docstring(text: ToolText) -> str:
    """The docstring `function_tool` reads the description and the argument's from."""
    about = text.argument_description.replace("\n", "\n        ")
    return f"{text.description}\n\nArgs:\n    {text.argument}: {about}\n"


def build_action_tool(action: GatedAction[Any], identity: CallerIdentity) -> FunctionTool:
    """`action`'s tool for the verified caller `identity`: one `str` argument named by its
    `ToolText`, passed to `run_gated_action` as the target's words."""
    text = action.tool

    async def tool(context: RunContext[CallContext], target: str) -> str | ToolResult:
        return await run_gated_action(action, context, identity, target)

    # Named as the model sees it: LiveKit binds the model's arguments by this signature
    # (positionally, so the closure's own parameter name does not matter).
    context, target = inspect.signature(tool).parameters.values()
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # read by inspect
        [
            context.replace(annotation=RunContext[CallContext]),
            target.replace(name=text.argument, annotation=str),
        ],
        return_annotation=str | ToolResult,
    )
    tool.__annotations__ = {
        "context": RunContext[CallContext],
        text.argument: str,
        "return": str | ToolResult,
    }
    tool.__name__ = tool.__qualname__ = action.name
    tool.__doc__ = tool_docstring(text)
    return function_tool(tool, name=action.name)


# The line's business systems, which its actions are built from.
S = TypeVar("S")


@dataclass(frozen=True)
class GatedTool(Generic[S]):
    """How a domain registers a gated action: built from the host's systems `S` (so its side
    effects close over the domain's own clients), and the LLM tool that asks for it (by
    default the one its `ToolText` describes)."""

    action: Callable[[S], GatedAction[Any]]
    tool: Callable[[GatedAction[Any], CallerIdentity], FunctionTool] = build_action_tool
