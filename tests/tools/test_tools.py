"""Tool-level tests: closures over identity, the schema the model sees, hostile inputs.

Tools are called directly with a minimal `RunContext` stand-in carrying the call's context
(`userdata`), an empty history and `disallow_interruptions`.
"""

from __future__ import annotations

import string
import uuid
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from livekit.agents import ToolError
from livekit.agents.llm import ChatContext, ToolResult
from livekit.agents.llm.utils import build_legacy_openai_schema
from livekit.agents.voice import SpeechHandle

from calendar_client import CalendarUnavailable
from contextdb_livekit.kit.context import MAX_NOTES, CallContext
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.line_host import local_host
from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend


@dataclass
class FakeSession:
    history: ChatContext = field(default_factory=ChatContext.empty)
    said: list[str] = field(default_factory=list)

    def say(self, text: str, **_: object) -> SpeechHandle:
        """Host speech: recorded, and a handle that is still playing (never heard here)."""
        self.said.append(text)
        return SpeechHandle.create()


@dataclass
class FakeRunContext:
    userdata: CallContext
    session: FakeSession = field(default_factory=FakeSession)
    interruptions_disallowed: int = 0

    def disallow_interruptions(self) -> None:
        self.interruptions_disallowed += 1


def open_call(tmp_path: Path, backend, identity, wrap=None) -> Call:  # type: ignore[no-untyped-def]
    """`wrap`: what the call's actions see instead of the local calendar (they close over it)."""
    host = local_host(
        tmp_path, backend, memory_settings=MemorySettings(_env_file=None, MEMORY_GATE_BUDGET_MS=500)
    )
    if wrap is not None:
        host.line.calendar = wrap(host.line.calendar)
    return Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)


def tools_of(call: Call):  # type: ignore[no-untyped-def]
    return {tool.info.name: tool for tool in call.agent.tools}


async def test_booking_schema_takes_only_a_day(tmp_path, local_engine):
    call = open_call(tmp_path, local_engine, caller())
    tools = tools_of(call)
    for name in ("book_visit", "cancel_visit"):
        schema = build_legacy_openai_schema(tools[name])["function"]["parameters"]
        assert set(schema["properties"]) == {"day"}
        assert schema["required"] == ["day"]
    confirm = build_legacy_openai_schema(tools["confirm_read_back"])["function"]["parameters"]
    assert confirm.get("properties", {}) == {}


async def test_tools_are_bound_to_their_caller(tmp_path, local_engine):
    alice, bob = caller(), caller()
    call = open_call(tmp_path, local_engine, alice)
    book = tools_of(call)["book_visit"]
    ctx = FakeRunContext(call.context)
    # Even a day string naming Bob cannot reach Bob: there is no customer parameter at all.
    with pytest.raises(ToolError):
        await book(ctx, f"thursday for {bob.customer_id}")
    await book(ctx, "thursday")
    assert await local_engine.decision_trail(bob.customer_id) == []
    assert [d.outcome for d in await local_engine.decision_trail(alice.customer_id)] == [
        "abstain",
        "ask",
    ]


async def test_a_replaced_caller_loses_the_gated_tools(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    tools = tools_of(call)
    # Re-authentication of a replacing participant failed: the call drops its identity.
    call.context.identity = None
    ctx = FakeRunContext(call.context)
    assert "no longer verified" in await tools["book_visit"](ctx, "thursday")
    assert "no longer verified" in await tools["confirm_read_back"](ctx)
    # A different (even valid) identity is not this tool's caller either.
    call.context.identity = replace(identity, customer_id="cust-someone-else")
    assert "no longer verified" in await tools["book_visit"](ctx, "thursday")
    assert await local_engine.decision_trail(identity.customer_id) == []


async def test_backend_down_fails_closed_and_books_nothing(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, FlakyBackend(local_engine, failing={"evaluate_action"}), identity)
    text = await tools_of(call)["book_visit"](FakeRunContext(call.context), "thursday")
    assert "have not done anything" in text
    assert await call.context.host.line.calendar.bookings_for(identity.customer_id) == []


async def test_request_write_failure_fails_closed(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, FlakyBackend(local_engine, failing={"remember_many"}), identity)
    text = await tools_of(call)["book_visit"](FakeRunContext(call.context), "thursday")
    assert "have not done anything" in text
    trail = await local_engine.decision_trail(identity.customer_id)
    assert [(d.outcome, d.status) for d in trail] == [("abstain", "skipped")]


async def test_confirm_with_nothing_offered_is_an_error(tmp_path, local_engine):
    call = open_call(tmp_path, local_engine, caller())
    with pytest.raises(ToolError, match="Nothing is waiting"):
        await tools_of(call)["confirm_read_back"](FakeRunContext(call.context))


async def test_weekend_days_have_no_visits(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    today = call.context.today()
    saturday = next(
        today + timedelta(n) for n in range(1, 8) if (today + timedelta(n)).weekday() == 5
    )
    text = await tools_of(call)["book_visit"](FakeRunContext(call.context), saturday.isoformat())
    assert "no visits on" in text
    assert await local_engine.decision_trail(identity.customer_id) == []


async def test_note_tool_bounds(tmp_path, local_engine):
    call = open_call(tmp_path, local_engine, caller())
    note = tools_of(call)["note_caller_detail"]
    ctx = FakeRunContext(call.context)
    assert await note(ctx, "Boiler is in the loft") == "Noted."
    assert await note(ctx, "Boiler   is in the loft") != "Noted."  # duplicate after folding
    with pytest.raises(ToolError):
        await note(ctx, "x" * 500)
    with pytest.raises(ToolError):
        await note(ctx, "   ")
    for i in range(MAX_NOTES + 3):
        await note(ctx, f"detail number {i}")
    assert len(call.context.notes) == MAX_NOTES


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(day=st.text(alphabet=string.printable, max_size=50))
async def test_any_day_text_books_nothing_without_confirmation(tmp_path, local_engine, day):
    identity = caller()
    call = open_call(tmp_path / identity.customer_id, local_engine, identity)
    try:
        text = await tools_of(call)["book_visit"](FakeRunContext(call.context), day)
    except ToolError as exc:
        assert "couldn't understand that day" in str(exc)
    else:
        output = text.output if isinstance(text, ToolResult) else text
        assert isinstance(output, str) and output
    # A first request is never booked: it needs the caller's confirmation first.
    assert await call.context.host.line.calendar.bookings_for(identity.customer_id) == []


class AuthorizationDown:
    """The booking system answers slot reads but not the authorization check."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self._inner = inner

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def can_book(self, *_):  # type: ignore[no-untyped-def]
        raise CalendarUnavailable("authorization service timed out")


async def test_authorization_check_down_is_spoken_not_raised(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity, wrap=AuthorizationDown)
    text = await tools_of(call)["book_visit"](FakeRunContext(call.context), "thursday")
    assert text == "The system that does this is not answering. Apologise and offer to try again."
    assert await local_engine.decision_trail(identity.customer_id) == []


def test_unverified_caller_gets_only_ungated_tools(tmp_path, local_engine):
    host = local_host(tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None))
    assert [t.info.name for t in LINE.tools(None, host, realtime=False)] == ["list_open_days"]


def test_days_are_read_in_the_callers_zone_not_the_hosts(monkeypatch, tmp_path):
    # Whatever the host's TZ, "today" for the tools is CALLER_TIMEZONE's today.
    import time

    from contextdb_livekit.api import today_in

    monkeypatch.setenv("TZ", "Etc/GMT+12")
    time.tzset()
    try:
        host = local_host(
            tmp_path, None, memory_settings=MemorySettings(_env_file=None), timezone="Etc/GMT-14"
        )
        context = CallContext(call_id="c", host=host, identity=None, memory=None)
        assert context.today() == today_in("Etc/GMT-14")
        assert isinstance(context.today(), date)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


async def test_realtime_models_get_a_read_only_caller_scoped_recall_tool(tmp_path, local_engine):
    from memory.facts import CallerFact

    identity, other = caller(), caller()
    fact = CallerFact("access_notes", "use the side gate", "user_stated", 0.9, date(2026, 12, 1))
    await local_engine.remember_many(
        other.customer_id, [fact.to_write()], idempotency_key=f"o-{other.customer_id}"
    )
    # The budget is a bound on waiting, not what this test is about: wide enough for a busy
    # machine (at the default 120 ms the first recall on a loaded host ran over it).
    settings = MemorySettings(_env_file=None, MEMORY_TURN_RECALL_BUDGET_MS=2000)
    host = local_host(tmp_path, local_engine, memory_settings=settings)
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id="c", realtime=True)
    recall = tools_of(call)["recall_caller_memory"]
    ctx = FakeRunContext(call.context)
    assert await recall(ctx, "how do we get in?") == "Nothing on file about that."  # not Bob's
    await local_engine.remember_many(
        identity.customer_id, [fact.to_write()], idempotency_key=f"m-{identity.customer_id}"
    )
    answer = await recall(ctx, "how do we get in?")
    assert answer.startswith("[RECALLED DATA") and "side gate" in answer
    pipeline = Call.open(host, LINE, identity=identity, auth_error=None, call_id="d")
    assert "recall_caller_memory" not in tools_of(pipeline)  # the pipeline recalls per turn


async def test_interruptions_are_disallowed_before_the_side_effect(tmp_path, local_engine):
    """LiveKit's rule: no barge-in may cut a consequential tool between decision and effect."""
    identity = caller()
    events: list[str] = []

    class Recording:
        def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
            self.inner = inner

        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(self.inner, name)

        async def book(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            events.append("book")
            return await self.inner.book(*args, **kwargs)

    call = open_call(tmp_path, local_engine, identity, wrap=Recording)
    ctx = FakeRunContext(call.context)
    ctx.disallow_interruptions = lambda: events.append("disallowed")  # type: ignore[method-assign]
    book = tools_of(call)["book_visit"]
    await book(ctx, "thursday")  # abstain → ask
    offer = call.context.offer
    assert offer is not None and events == []  # asking changes nothing
    for memory_id in offer.memory_ids:
        await local_engine.confirm(identity.customer_id, memory_id)
    text = await book(ctx, "thursday")
    assert text.startswith("Booked") and events == ["disallowed", "book"]


async def test_the_host_key_is_derived_from_the_confirmed_request(tmp_path, local_engine):
    """Every retry of one yes reuses one key, so the booking system dedupes a retry whose
    first attempt landed unseen; a key made fresh per attempt would book twice."""
    from contextdb_livekit.kit.actions import host_key
    from tools.visit_day import VISIT_DAY

    identity = caller()
    keys: list[str] = []

    class Recording:
        def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
            self.inner = inner

        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(self.inner, name)

        async def book(self, *args, idempotency_key: str, **kwargs):  # type: ignore[no-untyped-def]
            keys.append(idempotency_key)
            return await self.inner.book(*args, idempotency_key=idempotency_key, **kwargs)

    call = open_call(tmp_path, local_engine, identity, wrap=Recording)
    book = tools_of(call)["book_visit"]
    ctx = FakeRunContext(call.context)
    await book(ctx, "thursday")
    offer = call.context.offer
    assert offer is not None
    for memory_id in offer.memory_ids:
        await local_engine.confirm(identity.customer_id, memory_id)
    await book(ctx, "thursday")
    key = VISIT_DAY.key(offer.target)
    assert keys == [host_key("book_visit", identity.customer_id, key, list(offer.memory_ids))]


async def test_the_review_is_read_back_once_while_it_plays(tmp_path, local_engine):
    call = open_call(tmp_path, local_engine, caller())
    review = tools_of(call)["review_caller_details"]
    ctx = FakeRunContext(call.context)
    ctx.session.history.add_message(role="user", content="thursdays don't work for me any more")
    await review(ctx)
    again = await review(ctx)  # the model calls it again before the caller heard it
    assert len(ctx.session.said) == 1 and "Thursdays" in ctx.session.said[0]
    assert "still playing" in again.output and not again.reply_required
