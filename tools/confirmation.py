"""`confirm_visit_details`: the caller's spoken yes closes the ask → confirm → act loop.

The model cannot name what gets confirmed: only the memory ids the last `ask` offered this
caller are confirmable, and only when the caller's latest turn (from the session transcript,
not from the model) is an affirmative. The attestation is stored before ContextDB is told.
"""

from __future__ import annotations

import logging
import re

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import ChatMessage, FunctionTool

from identity import CallerIdentity
from memory.errors import MemoryLayerError
from memory.service import ConfirmationRefused
from tools.deps import ToolDeps
from tools.speech import spoken_day

log = logging.getLogger("tools.confirmation")

_YES = re.compile(
    r"\b(yes|yeah|yep|yup|correct|right|sure|confirm(ed)?|please do|go ahead|sounds good|"
    r"that works|perfect|ok(ay)?)\b",
    re.IGNORECASE,
)
_NO = re.compile(r"\b(no|nope|not|don't|do not|wrong|cancel|wait|actually)\b", re.IGNORECASE)


def is_affirmative(text: str) -> bool:
    return bool(_YES.search(text)) and not _NO.search(text)


def last_caller_turn(context: RunContext) -> ChatMessage | None:
    for item in reversed(context.session.history.items):
        if item.type == "message" and item.role == "user":
            return item
    return None


def build_confirmation_tool(identity: CallerIdentity, deps: ToolDeps) -> FunctionTool:
    async def confirm_visit_details(context: RunContext) -> str:
        """Record that the caller just said yes to the visit details you asked them to confirm.

        Call only right after the caller clearly agreed out loud.
        """
        memory = deps.caller_memory
        offered = sorted(memory.offered_for_confirmation)
        if not offered:
            raise ToolError("Nothing is waiting for confirmation. Call book_visit first.")
        turn = last_caller_turn(context)
        turn_text = (turn.text_content or "") if turn is not None else ""
        if turn is None or not is_affirmative(turn_text):
            return "The caller has not clearly said yes. Ask them again to confirm."
        attestation = await deps.attestations.record(
            customer_id=identity.customer_id,
            actor_id=identity.actor_id,
            channel=identity.channel,
            room_name=identity.room_name,
            memory_ids=offered,
            turn_id=turn.id,
            turn_text=turn_text,
        )
        try:
            for memory_id in offered:
                await memory.confirm(memory_id, attestation_id=attestation.attestation_id)
        except ConfirmationRefused:
            raise ToolError("That confirmation is no longer pending.") from None
        except MemoryLayerError as exc:
            log.warning("confirm failed for caller %s: %s", identity.log_id, exc)
            return "I couldn't save the confirmation just now. Apologise and try again shortly."
        day = deps.state.pending_day
        what = f"a visit on {spoken_day(day)}" if day else "the details"
        return f"Confirmed {what}. Now call book_visit again to book it."

    return function_tool(confirm_visit_details, name="confirm_visit_details")
