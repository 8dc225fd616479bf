"""A call on a realtime model: the real `AgentSession`, the real OpenAI realtime plugin client,
pointed at the loopback Realtime API (`testkit.realtime_server`). Set up the way agent.py sets a
realtime call up (`Call.open(..., realtime=True)` → session → `call.start`), with a record of
what the agent said and what each tool answered, in the order they happened (the final chat
history files a late transcript where the caller started speaking, which hides the race).
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field

from livekit.agents import AgentSession, ConversationItemAddedEvent, FunctionToolsExecutedEvent
from livekit.agents import llm as lk_llm
from livekit.plugins import openai

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.realtime_server import LoopbackRealtime


@dataclass
class Happened:
    """Live record of the call: ("agent", text) as each agent message lands, ("tool", name,
    output) as each tool answers, ("caller", text) as the test makes the caller speak."""

    events: list[tuple[str, ...]] = field(default_factory=list)

    def since(self, mark: int) -> list[tuple[str, ...]]:
        return self.events[mark:]


@dataclass
class RealtimeCall:
    call: Call
    session: AgentSession[CallContext]
    server: LoopbackRealtime
    model: openai.realtime.RealtimeModel
    happened: Happened

    @property
    def context(self) -> CallContext:
        return self.call.context

    async def say(self, text: str) -> list[tuple[str, ...]]:
        """The caller speaks; returns what happened after it, once the call settled."""
        mark = len(self.happened.events)
        self.happened.events.append(("caller", text))
        await self.server.caller_says(text)
        await self.settled()
        return self.happened.since(mark + 1)

    async def settled(self, *, timeout_s: float = 30.0) -> None:
        """Until the server and the worker are both quiet. The server's quiet alone is not
        enough: the worker files a reply (and says a read-back) only once its own playout
        ends, which on a busy machine can come well after the server went quiet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            await self.server.settled(timeout_s=max(deadline - loop.time(), 0.1))
            if self._worker_idle():
                await asyncio.sleep(0.05)  # a queued speech starts right after the last one
                if self._worker_idle() and self.server.quiet(0.05):
                    return
            if loop.time() > deadline:
                raise TimeoutError(f"the worker never went quiet: {self.session.agent_state}")
            await asyncio.sleep(0.05)

    def _worker_idle(self) -> bool:
        speech = self.session.current_speech
        return (speech is None or speech.done()) and self.session.agent_state == "listening"

    async def close(self) -> None:
        await self.session.aclose()
        await self.model.aclose()


async def start_realtime_call(
    host: HostServices,
    identity: CallerIdentity,
    server: LoopbackRealtime,
    base_url: str,
    *,
    transcript_wait_s: float,
) -> RealtimeCall:
    call = Call.open(
        host,
        LINE,
        identity=identity,
        auth_error=None,
        call_id=uuid.uuid4().hex,
        realtime=True,
        transcript_wait_s=transcript_wait_s,
    )
    model = openai.realtime.RealtimeModel(base_url=base_url, api_key="loopback")
    session = AgentSession[CallContext](userdata=call.context, llm=model)
    happened = Happened()

    def on_item(event: ConversationItemAddedEvent) -> None:
        item = event.item
        if isinstance(item, lk_llm.ChatMessage) and item.role == "assistant":
            happened.events.append(("agent", item.text_content or ""))

    def on_tools(event: FunctionToolsExecutedEvent) -> None:
        for output in event.function_call_outputs:
            if output is not None:
                happened.events.append(("tool", output.name, output.output))

    session.on("conversation_item_added", on_item)
    session.on("function_tools_executed", on_tools)
    await call.start(session)
    realtime_call = RealtimeCall(call, session, server, model, happened)
    await realtime_call.settled()
    return realtime_call
