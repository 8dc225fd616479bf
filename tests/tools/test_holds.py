"""Each business system authorises its own actions: a hold or a blocked actor in one system
binds only that system's actions (README "Adding a gated action", "Holds are per system").

A hold in the billing system refuses a service credit; a hold in the booking system refuses
booking and cancelling a visit and does not refuse a credit (nor does a billing hold refuse a
booking). The refusal is the kit's fixed "not authorized" sentence, before any decision.
"""

from __future__ import annotations

from typing import Any

from livekit.agents.llm import ToolResult

from contextdb_livekit.kit.actions import REFUSALS
from tests.conversation.conftest import caller, next_weekday
from tests.tools.test_tools import FakeRunContext, open_call, tools_of

REFUSED = REFUSALS["not_authorized"]


def asked(result: Any) -> bool:
    """The action went on to the decision: a first request is recorded, then read back."""
    return isinstance(result, ToolResult) and "read the request back" in str(result.output)


async def test_a_billing_hold_refuses_a_credit(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    await call.context.host.line.billing.place_hold(identity.customer_id)
    ctx = FakeRunContext(call.context)
    assert await tools_of(call)["apply_service_credit"](ctx, "25") == REFUSED
    assert await local_engine.decision_trail(identity.customer_id) == []
    # The booking system holds nothing against this customer: a visit is still asked for.
    assert asked(await tools_of(call)["book_visit"](ctx, "thursday"))


async def test_a_blocked_billing_actor_may_not_credit(tmp_path, local_engine):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    await call.context.host.line.billing.block_actor(identity.actor_id)
    ctx = FakeRunContext(call.context)
    assert await tools_of(call)["apply_service_credit"](ctx, "25") == REFUSED
    assert asked(await tools_of(call)["book_visit"](ctx, "thursday"))


async def test_a_calendar_hold_refuses_booking_and_cancelling_but_not_a_credit(
    tmp_path, local_engine
):
    identity = caller()
    call = open_call(tmp_path, local_engine, identity)
    calendar = call.context.host.line.calendar
    thursday = next_weekday("thursday")
    slot = await calendar.get_slot(thursday)
    await calendar.book(identity.customer_id, thursday, slot.version, idempotency_key="k-1")
    friday = next_weekday("friday")
    await calendar.place_hold(identity.customer_id)
    tools, ctx = tools_of(call), FakeRunContext(call.context)
    assert await tools["book_visit"](ctx, friday.isoformat()) == REFUSED
    assert await tools["cancel_visit"](ctx, thursday.isoformat()) == REFUSED
    assert await local_engine.decision_trail(identity.customer_id) == []
    # The billing system authorises credits itself, and holds nothing against this customer.
    assert asked(await tools["apply_service_credit"](ctx, "25"))
    assert [d.outcome for d in await local_engine.decision_trail(identity.customer_id)] == [
        "abstain",
        "ask",
    ]
