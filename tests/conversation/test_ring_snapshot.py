"""The snapshot budget counts from when the caller can be greeted: a phone caller whose line
rings is greeted with their history even when recall takes longer than
MEMORY_PREFETCH_BUDGET_MS, as long as it lands before the answer (or within the budget after
it); a web caller's recall may take as long as the session takes to start (slow on a busy
host), plus the budget. A recall later than that is greeted without.

Recall is held on an event, not slept: the test decides when it lands, so a loaded host
can only make the recall later than the budget, never make the test race it."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

from livekit.agents import AgentSession

from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.line_host import local_host
from testkit.scripted_llm import ScriptedLLM
from tests.conversation.conftest import caller, last_agent_text
from tests.conversation.test_calls import seed

BUDGET_MS = 100
RING_TIMEOUT_S = 45.0


class HeldRecall:
    """Delegates to a real backend; `recall` waits until `release` is set."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.release = asyncio.Event()
        self.recalls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def recall(self, *args: Any, **kwargs: Any) -> Any:
        self.recalls += 1
        await self.release.wait()
        return await self._inner.recall(*args, **kwargs)


async def open_call(
    tmp_path: Path, backend: Any, identity: Any, *, ringing: bool
) -> tuple[Call, AgentSession[CallContext]]:
    host = local_host(
        tmp_path,
        backend,
        memory_settings=MemorySettings(
            _env_file=None, MEMORY_PREFETCH_BUDGET_MS=BUDGET_MS, MEMORY_GATE_BUDGET_MS=1000
        ),
    )
    call = Call.open(
        host,
        LINE,
        identity=identity,
        auth_error=None,
        call_id=uuid.uuid4().hex,
        ring_timeout_s=RING_TIMEOUT_S if ringing else None,
    )
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    await call.start(session)
    return call, session


async def past_the_budget(backend: HeldRecall) -> None:
    """Until recall has been asked for and more than the budget has gone by since."""
    while backend.recalls == 0:
        await asyncio.sleep(0.01)
    await asyncio.sleep(BUDGET_MS / 1000 * 3)  # longer on a loaded host: only later, never sooner


async def applied(call: Call) -> None:
    while call.context.snapshot is None:
        await asyncio.sleep(0.01)


async def test_a_ringing_caller_is_greeted_with_history_that_took_longer_than_the_budget(
    tmp_path, local_engine
):
    identity = caller()
    await seed(local_engine, identity, "My boiler is a Vaillant ecoTEC 825")
    backend = HeldRecall(local_engine)
    call, session = await open_call(tmp_path, backend, identity, ringing=True)
    try:
        await past_the_budget(backend)  # still ringing, recall slower than the budget
        backend.release.set()  # recall lands during the ring
        await asyncio.wait_for(applied(call), timeout=30)
        # The answer: the greeting follows what the snapshot put in the instructions.
        await call.snapshot_for_greeting()
        assert "Vaillant Ecotec 825" in call.agent.instructions
        await session.generate_reply(instructions="Greet the caller.")
        assert "Vaillant" in last_agent_text(session)
    finally:
        await session.aclose()


async def test_a_ringing_callers_snapshot_landing_just_after_the_answer_is_waited_for(
    tmp_path, local_engine
):
    identity = caller()
    await seed(local_engine, identity, "My boiler is a Vaillant ecoTEC 825")
    backend = HeldRecall(local_engine)
    call, session = await open_call(tmp_path, backend, identity, ringing=True)
    try:
        await past_the_budget(backend)
        answered = asyncio.create_task(call.snapshot_for_greeting())  # the line is answered
        backend.release.set()  # recall lands right after the answer
        snapshot = await answered
        assert snapshot is not None and snapshot.memories
        assert "Vaillant Ecotec 825" in call.agent.instructions
    finally:
        await session.aclose()


async def test_a_ringing_callers_snapshot_not_in_by_the_budget_after_the_answer_is_dropped(
    tmp_path, local_engine
):
    identity = caller()
    await seed(local_engine, identity, "My boiler is a Vaillant ecoTEC 825")
    backend = HeldRecall(local_engine)  # never released: recall outlasts the answer's budget
    call, session = await open_call(tmp_path, backend, identity, ringing=True)
    try:
        await past_the_budget(backend)
        # The greeting does not wait on: not for the rest of the ring's budget (45 s), only
        # the budget after the answer (10 s is a hundred times it, room for a loaded host).
        assert await asyncio.wait_for(call.snapshot_for_greeting(), timeout=10) is None
        assert "Vaillant" not in call.agent.instructions
        backend.release.set()  # landing later changes nothing: the snapshot was dropped
        await asyncio.sleep(0.05)
        assert "Vaillant" not in call.agent.instructions
        assert call.context.metrics.snapshot_misses == 1
    finally:
        await session.aclose()


async def test_a_web_caller_whose_recall_outlasts_the_budget_after_the_start_is_greeted_without(
    tmp_path, local_engine
):
    identity = caller()
    await seed(local_engine, identity, "My boiler is a Vaillant ecoTEC 825")
    backend = HeldRecall(local_engine)
    # start() returns once the budget after the session started ran out: recall was held.
    call, session = await open_call(tmp_path, backend, identity, ringing=False)
    try:
        backend.release.set()  # landing later changes nothing: the snapshot was dropped
        await asyncio.sleep(0.05)
        assert call.context.snapshot is None
        assert "No caller history is available" in call.agent.instructions
        assert call.context.metrics.snapshot_misses == 1
        await session.generate_reply(instructions="Greet the caller.")
        assert "Vaillant" not in last_agent_text(session)
    finally:
        await session.aclose()


async def test_a_web_callers_recall_may_take_as_long_as_the_session_takes_to_start(
    tmp_path, local_engine
):
    identity = caller()
    await seed(local_engine, identity, "My boiler is a Vaillant ecoTEC 825")
    backend = HeldRecall(local_engine)
    host = local_host(
        tmp_path,
        backend,
        memory_settings=MemorySettings(
            _env_file=None, MEMORY_PREFETCH_BUDGET_MS=BUDGET_MS, MEMORY_GATE_BUDGET_MS=1000
        ),
    )
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    try:
        # A busy host: connecting and starting the session take longer than the budget, and
        # the recall, slower still than the budget, lands before the session is ready.
        await past_the_budget(backend)
        backend.release.set()
        assert call._snapshot_task is not None
        await asyncio.wait_for(asyncio.shield(call._snapshot_task), timeout=30)
        await call.start(session)
        assert "Vaillant Ecotec 825" in call.agent.instructions
        await session.generate_reply(instructions="Greet the caller.")
        assert "Vaillant" in last_agent_text(session)
    finally:
        await session.aclose()
