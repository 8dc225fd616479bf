"""`CallerTurns`: the caller's audio turns on a realtime session, by item id, until their words
arrive. The whole-call behaviour is in tests/conversation/test_realtime_consent.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from livekit.agents import AgentSession, llm

from contextdb_livekit.kit.caller_turns import CallerTurns
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.line_host import local_host
from testkit.scripted_llm import ScriptedLLM
from tests.conversation.conftest import caller


def audio_item(item_id: str) -> llm.RemoteItemAddedEvent:
    return llm.RemoteItemAddedEvent(
        previous_item_id=None, item=llm.ChatMessage(id=item_id, role="user", content=[])
    )


async def test_words_that_arrive_while_waiting_end_the_wait_with_nothing_missing():
    turns = CallerTurns(transcript_wait_s=10.0)
    since = time.time()
    turns._on_remote_item(audio_item("item_yes"))
    assert turns.untranscribed_since(since) == ["item_yes"]
    waiting = asyncio.ensure_future(turns.wait_for_words(since))
    await asyncio.sleep(0)
    turns.transcribed("item_yes")
    assert await asyncio.wait_for(waiting, timeout=10) == []


async def test_words_that_never_arrive_are_reported_missing_after_the_bound():
    turns = CallerTurns(transcript_wait_s=0.2)
    since = time.time()
    turns._on_remote_item(audio_item("item_yes"))
    assert await turns.wait_for_words(since) == ["item_yes"]


async def test_only_turns_after_the_readback_count():
    turns = CallerTurns()
    turns.announced("item_request", at=100.0)
    turns.announced("item_answer", at=200.0)
    assert turns.untranscribed_since(150.0) == ["item_answer"]
    assert await turns.wait_for_words(300.0) == []


def test_a_typed_turn_carries_its_words_and_is_not_waited_for():
    turns = CallerTurns()
    typed = llm.ChatMessage(id="item_typed", role="user", content=["yes please"])
    turns._on_remote_item(llm.RemoteItemAddedEvent(previous_item_id=None, item=typed))
    assert turns.untranscribed_since(0.0) == []


def test_the_bound_is_positive():
    with pytest.raises(ValueError):
        CallerTurns(transcript_wait_s=0)


async def test_a_pipeline_session_reads_the_history_as_before(tmp_path, local_engine):
    """Only a realtime model's turns are waited for: on a pipeline nothing is attached."""
    host = local_host(tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None))
    pipeline = Call.open(host, LINE, identity=caller(), auth_error=None, call_id="p")
    assert pipeline.context.caller_turns is None
    # Opened for a realtime model, started on a pipeline one: nothing to follow, dropped.
    call = Call.open(host, LINE, identity=caller(), auth_error=None, call_id="c", realtime=True)
    assert call.context.caller_turns is not None
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    await call.start(session)
    try:
        assert call.context.caller_turns is None
    finally:
        await session.aclose()
