"""Erasure while calls run, and what exactly-once delivery still needs: another caller's
call goes on untouched; a receipt still queued (its decision still open) is deferred, not
broken, and a rerun once it is delivered strips both; a receipt parked dead survives under
its decision's pseudonym."""

from __future__ import annotations

import json
import uuid

import pytest
from livekit.agents import AgentSession

from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.delivery.drain import drain_due
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.scripted_llm import ScriptedLLM
from testkit.secret_scan import find_planted
from tests.caller_data.conftest import Line, plant, run_call
from tests.conversation.conftest import caller
from tests.memory.fakes import FlakyBackend


async def test_another_callers_call_goes_on_through_an_erasure(line: Line) -> None:
    planted = await plant(line)
    other = caller()
    call = Call.open(line.host(), LINE, identity=other, auth_error=None, call_id=uuid.uuid4().hex)
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    try:
        await call.start(session)
        await session.run(user_input="my address is 5 Kestrelmoor Way")
        await session.run(user_input="book a visit on thursday")
        report = await erase_caller(line.stores(), planted.a.customer_id)  # mid-call
        assert report.complete, report.as_json()
        await session.run(user_input="yes")
        await session.run(user_input="that's all, bye")
        await session.run(user_input="yes, that's right")
        outcome = await call.finish(session.history)
    finally:
        await session.aclose()
    assert outcome.written > 0
    [booking] = await line.calendar.bookings_for(other.customer_id)
    held = await export_caller(line.stores(), other.customer_id)
    kinds = {item.kind for item in held.items}
    assert {"memory", "attestation", "receipt"} <= kinds
    assert "kestrelmoor" in json.dumps(held.as_json()).lower()
    assert booking.customer_id == other.customer_id


async def test_a_queued_receipt_is_deferred_then_stripped_once_delivered(line: Line) -> None:
    planted = await plant(line)
    a = planted.a
    # A books while receipts cannot reach memory: the receipt waits in the outbox and the
    # decision stays open.
    flaky = FlakyBackend(line.backend, failing={"report_execution"})
    await run_call(line.host(backend=flaky), a, ("book a visit on friday", "yes"))
    # abstain (skipped), ask (skipped), act (succeeded): three receipts, three open decisions
    queued = [r for r in await line.outbox.items() if r.kind == "receipt"]
    assert len(queued) == 3 and {r.user_id for r in queued} == {a.customer_id}
    assert "succeeded" in {r.payload["status"] for r in queued}

    report = await erase_caller(line.stores(), a.customer_id)
    assert not report.complete and report.failed == {}
    assert report.deferred["outbox"] == 3 and report.deferred["memory"] == 3
    # Left as they were: they still close their decisions.
    still = [r for r in await line.outbox.items() if r.kind == "receipt"]
    assert [(r.user_id, r.payload) for r in still] == [(r.user_id, r.payload) for r in queued]
    assert await drain_due(line.outbox, line.backend, {}) == 3

    again = await erase_caller(line.stores(), a.customer_id)
    assert again.complete, again.as_json()
    assert (await export_caller(line.stores(), a.customer_id)).items == []


@pytest.mark.parametrize("line", ["sqlite", "postgres"], indirect=True)
async def test_a_receipt_parked_dead_survives_without_the_caller(line: Line) -> None:
    customer = f"cust-{uuid.uuid4().hex[:10]}"
    payload = {
        "customer_id": customer,
        "target": "2026_12_10",
        "host_key": "book_visit:abc",
        "decision_id": "dec-dead-1",
        "action_name": "book_visit",
        "status": "succeeded",
        "external_ref": "bk_1",
        "error_code": None,
    }
    await line.outbox.put("receipt:dec-dead-1", "receipt", customer, payload, hold=False)
    await line.outbox.mark_dead("receipt:dec-dead-1", "rejected: test")
    report = await erase_caller(line.stores(), customer)
    assert report.complete and report.changed["outbox"] == 1
    [row] = await line.outbox.items()
    assert row.user_id == "erased-dec-dead-1" and row.state == "dead"
    assert customer not in json.dumps(row.payload)
    assert row.payload["decision_id"] == "dec-dead-1" and row.payload["host_key"]


@pytest.mark.parametrize("line", ["sqlite"], indirect=True)
async def test_an_interrupted_forget_is_finished_by_crash_recovery(line: Line) -> None:
    from contextdb_livekit.caller_data.forget import forget_intent_resolver
    from tools.registry import LINE_ACTIONS

    planted = await plant(line)
    a = planted.a.customer_id
    # The call died between its intent and its outcome: the flusher resolves the intent.
    resolver = LINE_ACTIONS.call_resolvers(line.host())["forget_caller_details"]
    assert resolver is not None
    intent = {"customer_id": a, "target": "everything", "host_key": "forget:k", "decision_id": "d"}
    receipt = await forget_intent_resolver(line.stores())(intent)
    assert receipt == {"status": "succeeded", "external_ref": "everything"}
    assert (await export_caller(line.stores(), a)).items == []
    # "This call" cannot be redone once the call is gone: closed as not done.
    this_call = await forget_intent_resolver(line.stores())({**intent, "target": "this_call"})
    assert this_call["status"] == "failed"


async def test_the_callers_own_running_call_keeps_nothing_after_the_erasure(line: Line) -> None:
    planted = await plant(line)
    a = planted.a
    call = Call.open(line.host(), LINE, identity=a, auth_error=None, call_id=uuid.uuid4().hex)
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    try:
        await call.start(session)
        await session.run(user_input="my address is 3 Fenwhistle Row")
        report = await erase_caller(line.stores(), a.customer_id)  # while A is on the line
        assert report.complete, report.as_json()
        await session.run(user_input="access notes: ring the copperbeech bell")
        await session.run(user_input="that's all, bye")
        await session.run(user_input="yes, that's right")
        outcome = await call.finish(session.history)
    finally:
        await session.aclose()
    assert (outcome.written, outcome.queued) == (0, 0)
    assert [i for i in (await export_caller(line.stores(), a.customer_id)).items] == []
    for needle in ("Fenwhistle", "copperbeech"):
        assert find_planted(needle, [line.workdir]) == []
    # A call that starts after the erasure is a new start: it is kept as usual.
    later = await run_call(line.host(), a, ("my address is 8 Tansy Court",))
    assert later.written > 0
