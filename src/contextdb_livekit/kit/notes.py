"""`note_caller_detail`: the model keeps a lasting detail about the caller for the end-of-call
write. The notes are the call's (`CallContext.notes`: bounded, no repeats); the line's own
extraction reads them with the conversation at the end of the call.
"""

from __future__ import annotations

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import FunctionTool

from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.caller_text import clean_caller_text

NOTE_TOOL = "note_caller_detail"
MAX_NOTE_CHARS = 200


def build_note_tool(description: str) -> FunctionTool:
    """The note tool; `description` is the model's view of it (what a lasting detail is on
    this line)."""

    async def note_caller_detail(context: RunContext[CallContext], detail: str) -> str:
        """Note one lasting detail about the caller (the line describes it).

        Args:
            detail: One short sentence in your own words.
        """
        # Whatever the model repeats from the caller: no control characters, and bounded.
        cleaned = " ".join(clean_caller_text(detail, 10 * MAX_NOTE_CHARS).split())
        if not cleaned:
            raise ToolError("The detail is empty.")
        if len(cleaned) > MAX_NOTE_CHARS:
            raise ToolError(f"Keep the detail under {MAX_NOTE_CHARS} characters.")
        if not context.userdata.add_note(cleaned):
            return "Already noted, or too many notes this call."
        return "Noted."

    return function_tool(note_caller_detail, name=NOTE_TOOL, description=description)
