"""`note_caller_detail`: the model keeps a durable detail for the end-of-call write."""

from __future__ import annotations

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import FunctionTool

from contextdb_livekit.api import clean_caller_text
from tools.systems import VisitCall

MAX_NOTE_CHARS = 200


def build_note_tool() -> FunctionTool:
    async def note_caller_detail(context: RunContext[VisitCall], detail: str) -> str:
        """Note one lasting detail about the caller worth remembering next time
        (equipment, access instructions, availability). Not for booking requests.

        Args:
            detail: One short sentence in your own words.
        """
        # Whatever the model repeats from the caller: no control characters, and bounded.
        cleaned = " ".join(clean_caller_text(detail, 10 * MAX_NOTE_CHARS).split())
        if not cleaned:
            raise ToolError("The detail is empty.")
        if len(cleaned) > MAX_NOTE_CHARS:
            raise ToolError(f"Keep the detail under {MAX_NOTE_CHARS} characters.")
        # Typed and stored as agent_inferred at the end of the call (memory.extract).
        if not context.userdata.add_note(cleaned):
            return "Already noted, or too many notes this call."
        return "Noted."

    return function_tool(note_caller_detail, name="note_caller_detail")
