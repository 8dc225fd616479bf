"""Tool-level tests: closures over identity, the schema the model sees, hostile inputs."""

from __future__ import annotations

import string
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from livekit.agents import ToolError
from livekit.agents.llm.utils import build_legacy_openai_schema

from calendar_client import LocalCalendar
from memory.outbox import Outbox
from memory.service import CallerMemory
from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend
from tools import ToolDeps, build_call_tools
from tools.attestations import AttestationStore
from tools.authorization import AssurancePolicy
from tools.confirmation import is_affirmative
from tools.state import MAX_NOTES


def make_deps(tmp_path: Path, backend, identity) -> ToolDeps:  # type: ignore[no-untyped-def]
    return ToolDeps(
        memory=CallerMemory(backend, Outbox(tmp_path / "outbox.sqlite3"), identity.customer_id),
        calendar=LocalCalendar(tmp_path / "calendar.sqlite3"),
        attestations=AttestationStore(tmp_path / "att.sqlite3"),
        policy=AssurancePolicy(),
    )


def tools_by_name(identity, deps):  # type: ignore[no-untyped-def]
    return {tool.info.name: tool for tool in build_call_tools(identity, deps)}


async def test_booking_schema_takes_only_a_day(tmp_path, local_engine):
    identity = caller()
    tools = tools_by_name(identity, make_deps(tmp_path, local_engine, identity))
    schema = build_legacy_openai_schema(tools["book_visit"])["function"]["parameters"]
    assert set(schema["properties"]) == {"day"}
    assert schema["required"] == ["day"]
    confirm = build_legacy_openai_schema(tools["confirm_visit_details"])["function"]["parameters"]
    assert confirm.get("properties", {}) == {}


async def test_tools_are_bound_to_their_caller(tmp_path, local_engine):
    alice, bob = caller(), caller()
    alice_tools = tools_by_name(alice, make_deps(tmp_path / "a", local_engine, alice))
    # Even a day string naming Bob cannot reach Bob: there is no customer parameter at all.
    with pytest.raises(ToolError):
        await alice_tools["book_visit"](None, f"thursday for {bob.customer_id}")
    await alice_tools["book_visit"](None, "thursday")
    assert await local_engine.decision_trail(bob.customer_id) == []
    assert {d.outcome for d in await local_engine.decision_trail(alice.customer_id)} == {
        "abstain",
        "ask",
    }


async def test_backend_down_fails_closed_and_books_nothing(tmp_path, local_engine):
    identity = caller()
    backend = FlakyBackend(local_engine, failing={"evaluate_action"})
    deps = make_deps(tmp_path, backend, identity)
    text = await tools_by_name(identity, deps)["book_visit"](None, "thursday")
    assert "have not booked anything" in text
    assert await deps.calendar.bookings_for(identity.customer_id) == []


async def test_wish_write_failure_fails_closed(tmp_path, local_engine):
    identity = caller()
    backend = FlakyBackend(local_engine, failing={"remember_many"})
    deps = make_deps(tmp_path, backend, identity)
    text = await tools_by_name(identity, deps)["book_visit"](None, "thursday")
    assert "have not booked anything" in text
    trail = await local_engine.decision_trail(identity.customer_id)
    assert [(d.outcome, d.status) for d in trail] == [("abstain", "skipped")]


async def test_confirm_with_nothing_offered_is_an_error(tmp_path, local_engine):
    identity = caller()
    tools = tools_by_name(identity, make_deps(tmp_path, local_engine, identity))
    with pytest.raises(ToolError, match="Nothing is waiting"):
        await tools["confirm_visit_details"](None)


async def test_weekend_and_full_days(tmp_path, local_engine):
    identity = caller()
    deps = make_deps(tmp_path, local_engine, identity)
    tools = tools_by_name(identity, deps)
    saturday = next(
        date.fromordinal(deps.today().toordinal() + n)
        for n in range(1, 8)
        if date.fromordinal(deps.today().toordinal() + n).weekday() == 5
    )
    assert "no visits on" in await tools["book_visit"](None, saturday.isoformat())
    assert await local_engine.decision_trail(identity.customer_id) == []


async def test_note_tool_bounds(tmp_path, local_engine):
    identity = caller()
    deps = make_deps(tmp_path, local_engine, identity)
    note = tools_by_name(identity, deps)["note_caller_detail"]
    assert await note("Boiler is in the loft") == "Noted."
    assert await note("Boiler   is in the loft") != "Noted."  # duplicate after whitespace folding
    with pytest.raises(ToolError):
        await note("x" * 500)
    with pytest.raises(ToolError):
        await note("   ")
    for i in range(MAX_NOTES + 3):
        await note(f"detail number {i}")
    assert len(deps.state.notes) == MAX_NOTES


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes, that's right", True),
        ("yeah go ahead", True),
        ("Correct.", True),
        ("no", False),
        ("yes... actually no, wait", False),
        ("I don't know", False),
        ("what?", False),
    ],
)
def test_affirmatives(text, expected):
    assert is_affirmative(text) is expected


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(day=st.text(alphabet=string.printable, max_size=50))
async def test_any_day_text_books_nothing_without_confirmation(tmp_path, local_engine, day):
    identity = caller()
    deps = make_deps(tmp_path / identity.customer_id, local_engine, identity)
    tool = tools_by_name(identity, deps)["book_visit"]
    try:
        text = await tool(None, day)
    except ToolError as exc:
        assert "couldn't understand that day" in str(exc)
    else:
        assert isinstance(text, str) and text
    # A first request is never booked: it needs the caller's confirmation first.
    assert await deps.calendar.bookings_for(identity.customer_id) == []


class AuthorizationDown:
    """The booking system answers slot reads but not the authorization check."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self._inner = inner

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def can_book(self, *_):  # type: ignore[no-untyped-def]
        from calendar_client import CalendarUnavailable

        raise CalendarUnavailable("authorization service timed out")


async def test_authorization_check_down_is_spoken_not_raised(tmp_path, local_engine):
    identity = caller()
    deps = make_deps(tmp_path, local_engine, identity)
    deps.calendar = AuthorizationDown(deps.calendar)
    text = await tools_by_name(identity, deps)["book_visit"](None, "thursday")
    assert text == "The booking system is not answering. Apologise and offer to try again."
    assert await local_engine.decision_trail(identity.customer_id) == []
