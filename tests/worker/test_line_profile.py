"""A fork retargets the worker by writing a `LineProfile`: nothing under worker/ or memory/
names the scheduling line. A toy line (a lending library) runs the whole production flow —
Call.open → start → a caller turn → finish — and everything domain-specific comes from it."""

from __future__ import annotations

import uuid
from datetime import date
from pathlib import Path

from livekit.agents import AgentSession
from livekit.agents.llm import FunctionTool, function_tool

from contextdb_livekit.backends.factory import UnavailableBackend
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.memory.models import FactToRemember, Memory, MemorySnapshot, Turn
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from contextdb_livekit.worker.profile import LineProfile
from testkit.line_host import local_services
from testkit.scripted_llm import ScriptedLLM
from testkit.scripted_model import Say
from tests.conversation.conftest import caller


def library_instructions(snapshot: MemorySnapshot | None, *, verified: bool) -> str:
    if not verified:
        return "LIBRARY DESK, unverified."
    known = snapshot.context if snapshot is not None and snapshot.context else "nothing"
    return f"LIBRARY DESK. Known: {known}"


def library_tools(
    identity: CallerIdentity | None, host: HostServices, *, realtime: bool
) -> list[FunctionTool]:
    @function_tool
    async def renew_loan(title: str) -> str:
        """Renew a book loan."""
        return f"renewed {title}"

    return [renew_loan] if identity is not None else []


def genre_facts(turns: list[Turn]) -> list[FactToRemember]:
    return [
        FactToRemember(f"Reader likes {turn.text.split()[-1]}", "user_stated", 0.9)
        for turn in turns
        if turn.role == "user" and turn.text.startswith("I like")
    ]


class ReaderFacts:
    """The toy line's fact model: only "Reader ..." memories are shown."""

    def is_shown(self, memory: Memory) -> bool:
        return memory.content.startswith("Reader ")

    def is_flagged(self, memory: Memory) -> bool:
        return False

    def observed_on(self, memory: Memory) -> date | None:
        return None

    def text(self, memory: Memory) -> str:
        return memory.content


async def facts_at_end(call: CallContext, turns: list[Turn]) -> list[FactToRemember]:
    return genre_facts(turns)


async def unused_open(parts: object) -> HostServices:
    raise AssertionError("the call flow never opens the host itself")


async def unused_close(host: HostServices) -> None:
    raise AssertionError("the call flow never closes the host itself")


LIBRARY = LineProfile(
    instructions=library_instructions,
    tools=library_tools,
    confirm_tool="confirm",
    intent_resolvers=lambda host: {},
    facts=ReaderFacts(),
    snapshot_query="what the reader likes",
    facts_so_far=lambda call, turns: genre_facts(turns),
    facts_at_end=facts_at_end,
    open_host=unused_open,
    close_host=unused_close,
)


async def test_a_toy_line_runs_the_whole_call_flow(tmp_path: Path, local_engine) -> None:  # type: ignore[no-untyped-def]
    identity = caller()
    await local_engine.remember_many(
        identity.customer_id,
        [
            FactToRemember("Reader likes poetry", "user_stated", 0.9),
            FactToRemember("Shelf 4 was dusted", "third_party", 0.9),
        ],
        idempotency_key="seed",
    )
    host = local_services(
        tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None), line=None
    )
    call = Call.open(host, LIBRARY, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
    assert call.agent.instructions == "LIBRARY DESK. Known: nothing"
    assert [tool.info.name for tool in call.agent.tools] == ["renew_loan"]
    assert call.context.memory is not None and call.context.memory.facts is LIBRARY.facts

    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM([Say("Sure.")]))
    try:
        await call.start(session)
        # The snapshot went through the toy line's fact view and its instructions.
        assert "Reader likes poetry" in call.agent.instructions
        assert "Shelf 4" not in call.agent.instructions
        assert call.agent.instructions.startswith("LIBRARY DESK. Known: [RECALLED DATA")
        await session.run(user_input="I like mysteries")
        outcome = await call.finish(session.history)
    finally:
        await session.aclose()
    assert outcome.written == 1
    recalled = await local_engine.recall(identity.customer_id, "reader likes", top_k=10)
    assert "Reader likes mysteries" in {m.content for m in recalled.memories}


def test_an_unverified_caller_gets_the_lines_unverified_variant(tmp_path: Path) -> None:
    backend = UnavailableBackend("not used: nobody is verified")
    host = local_services(
        tmp_path, backend, memory_settings=MemorySettings(_env_file=None), line=None
    )
    call = Call.open(host, LIBRARY, identity=None, auth_error=None, call_id="c")
    assert call.agent.instructions == "LIBRARY DESK, unverified."
    assert call.agent.tools == [] and call.context.memory is None
