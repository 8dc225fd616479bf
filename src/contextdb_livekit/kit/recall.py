"""`recall_caller_memory`: read-only memory for a realtime (speech-to-speech) model.

A realtime model has no `llm_node`, so it cannot be given per-turn recall; it gets this tool
instead. Caller-scoped (the call's own memory), bounded by MEMORY_TURN_RECALL_BUDGET_MS,
ungated (it changes nothing), and its answer is the same quoted-data block the snapshot uses.
"""

from __future__ import annotations

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool

from contextdb_livekit.kit.context import CallContext

MAX_QUESTION_CHARS = 200


def build_recall_tool() -> FunctionTool:
    async def recall_caller_memory(context: RunContext[CallContext], question: str) -> str:
        """Look up what we know about this caller from past calls (equipment, access,
        days that do or don't work, past visits). Read-only.

        Args:
            question: What you want to know, in a few words.
        """
        memory = context.userdata.memory
        if memory is None:
            return "No caller memory is available on this call."
        recalled = await memory.recall_for_turn(" ".join(question.split())[:MAX_QUESTION_CHARS])
        if not recalled.available:
            return "Caller memory is not answering right now; carry on without it."
        return recalled.context or "Nothing on file about that."

    return function_tool(recall_caller_memory, name="recall_caller_memory")
