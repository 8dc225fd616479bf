"""This line's profile: everything the generic worker needs to know about service visits.

agent.py hands `LINE` to the worker (contextdb_livekit.worker.profile explains the seam).
A fork that retargets the starter writes its own module like this one.
"""

from __future__ import annotations

from functools import partial

from livekit.agents.llm import FunctionTool

from billing_client import BillingSettings
from calendar_client import CalendarSettings
from contextdb_livekit.api import (
    CallerIdentity,
    FactToRemember,
    HostParts,
    LineProfile,
    Turn,
    local_data_paths,
)
from memory.extract import extract_call_facts
from memory.facts import CALLER_FACTS, SNAPSHOT_QUERY
from memory.llm_extract import extract_with_model
from tools.prompt import build_instructions
from tools.registry import CONFIRM_TOOL, LINE_ACTIONS, build_call_tools
from tools.review import CHANGES
from tools.systems import (
    Extractor,
    VisitCall,
    VisitHost,
    VisitSystems,
    close_systems,
    open_systems,
    rule_based_extractor,
)


def facts_so_far(call: VisitCall, turns: list[Turn]) -> list[FactToRemember]:
    """Rule-based only: cheap enough for every caller turn. Nothing is confirmed yet, so a
    change is kept as the caller's words (`tools.review.CHANGES`)."""
    facts = extract_call_facts(turns, list(call.notes), today=call.today(), call_id=call.call_id)
    return [fact.to_write() for fact in CHANGES.settle(call, facts)]


async def facts_at_end(call: VisitCall, turns: list[Turn]) -> list[FactToRemember]:
    """The host's extractor (a model with an API key, else the rules), settled by the
    caller's answer to the review read-back."""
    facts = await call.host.line.extract(
        turns, list(call.notes), today=call.today(), call_id=call.call_id
    )
    return [fact.to_write() for fact in CHANGES.settle(call, facts)]


def model_extractor(parts: HostParts) -> Extractor:
    """The structured-output extractor when the settings ask for one, bounded: never longer
    than the write that follows it, so extraction + write stay well inside the worker's 10 s
    shutdown. Without a model: the rules."""
    worker, memory = parts.worker, parts.memory_settings
    key = worker.openai_api_key
    if key is None or memory.extraction_mode(True) != "llm":
        return rule_based_extractor
    return partial(
        extract_with_model,
        base_url=worker.openai_base_url or "https://api.openai.com/v1",
        api_key=key.get_secret_value(),
        model=worker.llm_model,
        timeout_s=min(memory.extraction_timeout_s, memory.shutdown_write_budget_ms / 1000),
    )


async def open_host(parts: HostParts) -> VisitHost:
    timezone = CalendarSettings().caller_timezone
    return parts.services(open_systems(model_extractor(parts)), timezone=timezone)


async def close_host(host: VisitHost) -> None:
    await close_systems(host.line)


def tools(
    identity: CallerIdentity | None, host: VisitHost, *, realtime: bool
) -> list[FunctionTool]:
    return build_call_tools(identity, host.line, realtime=realtime, host=host)


LINE: LineProfile[VisitSystems] = LineProfile(
    instructions=build_instructions,
    tools=tools,
    confirm_tool=CONFIRM_TOOL,
    intent_resolvers=LINE_ACTIONS.call_resolvers,
    facts=CALLER_FACTS,
    snapshot_query=SNAPSHOT_QUERY,
    facts_so_far=facts_so_far,
    facts_at_end=facts_at_end,
    open_host=open_host,
    close_host=close_host,
    settings=(CalendarSettings, BillingSettings),
    # The local business systems' files, for those with no HTTP system configured.
    data_paths=local_data_paths,
)
