"""The call's LLM tools and the domain's gated actions, registered in one place.

Gated tools are closures over the authenticated caller; their actions close over the line's
business systems (`tools.systems.VisitSystems`). A new gated action is one entry in
`GATED_TOOLS` (README "Adding a gated action"); the tools, the confirmation tool and the
outbox's crash recovery follow from it (the library's `LineActions`, which adds the forget).
"""

from __future__ import annotations

from functools import partial

from contextdb_livekit.api import GatedTool, LineActions
from tools.booking import BOOKING
from tools.cancellation import CANCELLATION
from tools.open_days import build_open_days_tool
from tools.review import REVIEWED_FACTS
from tools.service_credit import SERVICE_CREDIT
from tools.systems import VisitSystems, close_systems, open_systems

# Every consequential action: its tool, the confirmation it is read back through, and the
# outbox's crash recovery.
GATED_TOOLS: list[GatedTool[VisitSystems]] = [
    BOOKING,
    CANCELLATION,
    SERVICE_CREDIT,
]

CONFIRM_TOOL = "confirm_read_back"
LINE_ACTIONS = LineActions(
    GATED_TOOLS,
    confirm_tool=CONFIRM_TOOL,
    confirm_description=(
        "Call when the caller has answered the host's read-back of a request (a booking, a "
        "cancellation, ...). Takes no arguments: the host reads the caller's answer itself "
        "and, on a yes, carries out exactly what was read back. Never call it on your own "
        "question."
    ),
    # What the model may note for the end-of-call write (memory.extract types the notes and
    # stores them as agent_inferred).
    note_description=(
        "Note one lasting detail about the caller worth remembering next time\n"
        "(equipment, access instructions, availability). Not for booking requests."
    ),
    review_changes=REVIEWED_FACTS.read_back,
    # The only tool an unverified caller gets.
    ungated=[build_open_days_tool],
)

# The drain's crash recovery: the business systems' clients from the environment, closed
# when the process is done, and the forget's (a call's is `LINE_ACTIONS.call_resolvers`).
open_intent_resolvers = partial(LINE_ACTIONS.drain_resolvers, open_systems, close_systems)
