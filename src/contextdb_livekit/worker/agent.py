"""The memory-aware Agent: the recalled snapshot in its instructions (set by the call), turn-
local recall added to each generation, and every caller turn cleaned before the model sees
it. What the agent is for (its instructions and tools) comes from the line's profile."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable

from livekit import rtc
from livekit.agents import Agent, FlushSentinel, ModelSettings, llm, stt

from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.caller_text import clean_caller_text
from contextdb_livekit.memory.models import MemorySnapshot

log = logging.getLogger("contextdb_livekit.worker.agent")


class MemoryAgent(Agent):
    def __init__(
        self,
        *,
        call: CallContext,
        instructions: str,
        tools: list[llm.FunctionTool],
    ) -> None:
        super().__init__(instructions=instructions, tools=list(tools))
        self._call = call
        self.turn_recalls: list[MemorySnapshot] = []
        self._recalled_for: str | None = None
        self._turn_recall: MemorySnapshot | None = None

    async def llm_node(
        self,
        chat_ctx: llm.ChatContext,
        tools: list[llm.Tool],
        model_settings: ModelSettings,
    ) -> AsyncIterable[llm.ChatChunk | str | FlushSentinel]:
        """Add turn-local recall to this generation's context only, then run the model.

        `llm_node` runs on every path (voice turns and `session.run`), unlike
        `on_user_turn_completed`; the copy keeps recalled text out of the session history.
        """
        turn_ctx = await self._with_turn_recall(_with_clean_caller_turns(chat_ctx))
        async for chunk in Agent.default.llm_node(self, turn_ctx, tools, model_settings):
            yield chunk

    async def stt_node(
        self, audio: AsyncIterable[rtc.AudioFrame], model_settings: ModelSettings
    ) -> AsyncIterable[stt.SpeechEvent | str]:
        """Transcripts are cleaned and bounded before they become a caller turn."""
        async for event in Agent.default.stt_node(self, audio, model_settings):
            if isinstance(event, stt.SpeechEvent):
                for alternative in event.alternatives:
                    alternative.text = clean_caller_text(alternative.text)
            yield event

    async def _with_turn_recall(self, chat_ctx: llm.ChatContext) -> llm.ChatContext:
        memory = self._call.memory
        last_user = next(
            (
                item
                for item in reversed(chat_ctx.items)
                if item.type == "message" and item.role == "user"
            ),
            None,
        )
        if memory is None or last_user is None or not (last_user.text_content or "").strip():
            return chat_ctx
        # One recall per caller turn; tool-call follow-ups in the same turn reuse it.
        if self._recalled_for != last_user.id:
            self._recalled_for = last_user.id
            self._turn_recall = await memory.recall_for_turn(last_user.text_content or "")
            self.turn_recalls.append(self._turn_recall)
        recall = self._turn_recall
        if recall is None or not recall.available or not recall.context:
            return chat_ctx
        snapshot = self._call.snapshot
        known = {m.id for m in snapshot.memories} if snapshot is not None else set()
        if all(m.id in known for m in recall.memories):
            self._call.metrics.record_turn_recall(hit=False)
            return chat_ctx  # nothing the instructions do not already say
        self._call.metrics.record_turn_recall(hit=True)
        turn_ctx = chat_ctx.copy()
        turn_ctx.add_message(
            role="system", content="Possibly relevant to this turn:\n" + recall.context
        )
        return turn_ctx


def _with_clean_caller_turns(chat_ctx: llm.ChatContext) -> llm.ChatContext:
    """The model sees every caller turn cleaned and bounded (memory.caller_text), whatever
    path it came by (typed, transcribed, `session.run`); the session history is not changed.
    Returns `chat_ctx` itself when nothing needed cleaning."""
    replaced: dict[int, llm.ChatItem] = {}
    for index, item in enumerate(chat_ctx.items):
        if item.type != "message" or item.role != "user":
            continue
        content = [clean_caller_text(c) if isinstance(c, str) else c for c in item.content]
        if content != item.content:
            replaced[index] = item.model_copy(update={"content": content})
    if not replaced:
        return chat_ctx
    cleaned = chat_ctx.copy()
    cleaned.items[:] = [replaced.get(i, item) for i, item in enumerate(chat_ctx.items)]
    return cleaned
