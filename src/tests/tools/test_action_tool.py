"""`kit.action_tool`: a gated action's LLM tool is built from the action: its name, what its
`ToolText` says, one `str` argument under the name the model sees, and `run_gated_action` as
the body (closing over the verified caller)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from livekit.agents import RunContext
from livekit.agents.llm.utils import (
    build_legacy_openai_schema,
    build_strict_openai_schema,
    prepare_function_arguments,
)

from contextdb_livekit.caller_data.line_actions import LineActions
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.action_tool import GatedTool, build_action_tool
from contextdb_livekit.kit.actions import NOT_THE_CALLER, GatedAction, Resolution, ToolText
from contextdb_livekit.kit.days import CalendarDays

TEXT = ToolText(
    "Book a service visit for the caller on one day.",
    argument="day",
    argument_description='The day the caller wants, as a weekday name (e.g. "thursday"),\n'
    "or an ISO date (YYYY-MM-DD). Nothing else.",
)


async def _never(*_: Any) -> Any:
    raise AssertionError("the tool ran the action for a caller who is not on the call")


ACTION: GatedAction[Any] = GatedAction(
    name="book_visit",
    phrase="book a visit",
    target=CalendarDays(horizon_days=60),
    precheck=_never,
    authorize=_never,
    execute=_never,
    resolve=lambda key: _never(key),
    remember=lambda attempt, outcome: _never(attempt),
    tool=TEXT,
)
CALLER = CallerIdentity(
    customer_id="c1",
    actor_id="a1",
    channel="web",
    assurance="verified",
    room_name="r",
    participant_identity="p",
)


def test_the_model_sees_the_actions_name_description_and_one_named_argument() -> None:
    tool = build_action_tool(ACTION, CALLER)
    function = build_legacy_openai_schema(tool)["function"]
    assert function["name"] == "book_visit"
    assert function["description"].strip() == TEXT.description
    parameters = function["parameters"]
    assert parameters["title"] == "BookVisitArgs"
    assert parameters["required"] == ["day"]
    assert parameters["properties"] == {
        "day": {"description": TEXT.argument_description, "title": "Day", "type": "string"}
    }
    strict = build_strict_openai_schema(tool)["function"]["parameters"]
    assert set(strict["properties"]) == {"day"} and strict["additionalProperties"] is False


@dataclass
class _Call:
    def is_caller(self, identity: CallerIdentity) -> bool:
        return False  # the room's caller changed: the tool must not act


class _Context(RunContext[Any]):
    """The tool's `RunContext`, as LiveKit injects it: only the call (`userdata`) is read."""

    def __init__(self, call: _Call) -> None:
        self.call = call

    @property
    def userdata(self) -> Any:
        return self.call


async def test_the_models_argument_reaches_the_gated_action_as_the_target_text() -> None:
    tool = build_action_tool(ACTION, CALLER)
    context = _Context(_Call())
    args, kwargs = prepare_function_arguments(
        fnc=tool, json_arguments=json.dumps({"day": "x"}), call_ctx=context
    )
    assert (args, kwargs) == ((context, "x"), {})  # bound as LiveKit calls the tool
    assert await tool(*args, **kwargs) == NOT_THE_CALLER


def test_a_gated_tool_defaults_to_the_actions_own_tool() -> None:
    registered: GatedTool[None] = GatedTool(lambda systems: ACTION)
    assert registered.tool is build_action_tool


async def test_a_resolution_by_key_is_what_the_hosts_lookup_found_under_that_key() -> None:
    done = {"book_visit:k1": ("B-1",)}

    async def lookup(host_key: str) -> tuple[str] | None:
        return done.get(host_key)

    resolve = Resolution.by_key(lookup, lambda found: found[0], otherwise="interrupted")
    assert (await resolve("book_visit:k1")).receipt() == {
        "status": "succeeded",
        "external_ref": "B-1",
    }
    assert (await resolve("book_visit:k2")).receipt() == {
        "status": "failed",
        "error_code": "interrupted",
    }


def _names(tools: list[Any]) -> list[str]:
    return [tool.info.name for tool in tools]


def test_a_calls_tools_are_the_lines_own_the_gated_ones_and_the_kits() -> None:
    actions: LineActions[None] = LineActions(
        [GatedTool(lambda systems: ACTION)],
        confirm_tool="confirm_read_back",
        confirm_description="Call when the caller answers.",
        note_description="Note one lasting detail.",
        review_changes=lambda context: [],
    )
    ungated = [build_action_tool(dataclasses.replace(ACTION, name="list_open_days"), CALLER)]
    # Nobody authenticated: only the line's ungated tools.
    assert _names(actions.call_tools(None, None, ungated)) == ["list_open_days"]
    assert _names(actions.call_tools(CALLER, None, ungated)) == [
        "list_open_days",
        "book_visit",
        "confirm_read_back",
        "note_caller_detail",
        "review_caller_details",
    ]
    # A realtime model gets no per-turn recall: it may ask for it.
    assert "recall_caller_memory" in _names(
        actions.call_tools(CALLER, None, ungated, realtime=True)
    )
    # A line without a note or a review has neither tool.
    bare = dataclasses.replace(actions, note_description="", review_changes=None)
    assert _names(bare.call_tools(CALLER, None, ungated)) == [
        "list_open_days",
        "book_visit",
        "confirm_read_back",
    ]


def test_a_calls_tools_on_its_host_build_the_lines_ungated_tools_and_offer_the_forget() -> None:
    built: list[str] = []

    def open_days() -> Any:
        built.append("list_open_days")
        return build_action_tool(dataclasses.replace(ACTION, name="list_open_days"), CALLER)

    actions: LineActions[str] = LineActions(
        [GatedTool(lambda systems: dataclasses.replace(ACTION, name=f"book_on_{systems}"))],
        confirm_tool="confirm_read_back",
        confirm_description="Call when the caller answers.",
        ungated=[open_days],
    )
    host: Any = SimpleNamespace(line="calendar")
    assert _names(actions.for_call(None, host, realtime=False)) == ["list_open_days"]
    # Built afresh for every call, never shared between calls.
    assert _names(actions.for_call(CALLER, host, realtime=True)) == [
        "list_open_days",
        "recall_caller_memory",
        "book_on_calendar",  # the action built from the host's own systems
        "forget_caller_details",  # on the call's host
        "confirm_read_back",
    ]
    assert built == ["list_open_days", "list_open_days"]
