"""`ScriptedLLM`: a real `livekit.agents.llm.LLM` whose replies come from `next_move`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from livekit.agents import llm
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS, APIConnectOptions
from livekit.agents.utils import shortuuid

from testkit.scripted_model import CallTool, Entry, Say, next_move


def entries_from_chat(chat_ctx: llm.ChatContext) -> list[Entry]:
    entries: list[Entry] = []
    for item in chat_ctx.items:
        if item.type == "message":
            role = "system" if item.role in ("system", "developer") else item.role
            entries.append(Entry("message", role=role, text=item.text_content or ""))
        elif item.type == "function_call":
            entries.append(
                Entry("call", name=item.name, arguments=json.loads(item.arguments or "{}"))
            )
        elif item.type == "function_call_output":
            entries.append(Entry("output", name=item.name, text=item.output))
    return entries


Move = Say | CallTool | list[CallTool]


class ScriptedLLM(llm.LLM):
    """`script`: moves to make first, in order (a list of CallTool is one turn with parallel
    tool calls, as OpenAI models make by default); then the rules of `next_move`."""

    def __init__(
        self,
        script: list[Move] | None = None,
        policy: Callable[[list[Entry]], Move] = next_move,
    ) -> None:
        super().__init__()
        self.policy = policy
        # Every chat context the model was given, for tests to inspect.
        self.requests: list[llm.ChatContext] = []
        self.script: list[Move] = list(script or [])

    @property
    def model(self) -> str:
        return "scripted"

    def chat(
        self,
        *,
        chat_ctx: llm.ChatContext,
        tools: list[llm.Tool] | None = None,
        conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
        **_: Any,
    ) -> llm.LLMStream:
        self.requests.append(chat_ctx.copy())
        return _ScriptedStream(
            self, chat_ctx=chat_ctx, tools=tools or [], conn_options=conn_options
        )


class _ScriptedStream(llm.LLMStream):
    async def _run(self) -> None:
        scripted = self._llm.script  # type: ignore[attr-defined]
        policy = self._llm.policy  # type: ignore[attr-defined]
        move = scripted.pop(0) if scripted else policy(entries_from_chat(self._chat_ctx))
        request_id = shortuuid("scripted_")
        calls = move if isinstance(move, list) else [move] if isinstance(move, CallTool) else []
        if calls:
            delta = llm.ChoiceDelta(
                role="assistant",
                tool_calls=[
                    llm.FunctionToolCall(
                        name=call.name,
                        arguments=json.dumps(call.arguments),
                        call_id=shortuuid("call_"),
                    )
                    for call in calls
                ],
            )
        else:
            assert isinstance(move, Say)
            delta = llm.ChoiceDelta(role="assistant", content=move.text)
        self._event_ch.send_nowait(llm.ChatChunk(id=request_id, delta=delta))
