"""This line's profile: everything the generic worker needs to know about service visits.

agent.py hands `LINE` to the worker (contextdb_livekit.worker.profile explains the seam).
A fork that retargets the starter writes its own module like this one.
"""

from __future__ import annotations

from billing_client import BillingSettings
from calendar_client import CalendarSettings
from contextdb_livekit.api import HostParts, LineProfile, local_data_paths
from memory.facts import CALLER_FACTS, SNAPSHOT_QUERY
from tools.prompt import build_instructions
from tools.registry import CONFIRM_TOOL, LINE_ACTIONS
from tools.review import REVIEWED_FACTS
from tools.systems import VisitHost, VisitSystems, close_systems, open_systems


async def open_host(parts: HostParts) -> VisitHost:
    timezone = CalendarSettings().caller_timezone
    return parts.services(open_systems(), timezone=timezone)


async def close_host(host: VisitHost) -> None:
    await close_systems(host.line)


LINE: LineProfile[VisitSystems] = LineProfile(
    instructions=build_instructions,
    tools=LINE_ACTIONS.for_call,
    confirm_tool=CONFIRM_TOOL,
    intent_resolvers=LINE_ACTIONS.call_resolvers,
    facts=CALLER_FACTS,
    snapshot_query=SNAPSHOT_QUERY,
    # The rules after every caller turn, the model (when configured) at the end; both settled
    # by the caller's answer to the review read-back.
    facts_so_far=REVIEWED_FACTS.so_far,
    facts_at_end=REVIEWED_FACTS.at_end,
    open_host=open_host,
    close_host=close_host,
    settings=(CalendarSettings, BillingSettings),
    # The local business systems' files, for those with no HTTP system configured.
    data_paths=local_data_paths,
)
