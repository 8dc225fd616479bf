"""Whole calls in text mode: the real AgentSession, the scripted LLM, real local services.

Calls are set up exactly as agent.py sets them up (`Call.open` → session with the call's
context as userdata → `call.start`), so the snapshot reaches the agent the production way.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import pytest
from livekit.agents import AgentSession

from billing_client import BillingClient, LocalBilling
from calendar_client import CalendarClient, LocalCalendar
from contextdb_livekit.api import today_in
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.agent import MemoryAgent
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.line_host import local_host
from testkit.scripted_llm import ScriptedLLM

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday"]


def next_weekday(name: str, today: date | None = None) -> date:
    """The date "thursday" means to the tools: read in the call's zone (UTC here), never
    the host's, so the suite passes under any TZ."""
    today = today or today_in("UTC")
    ahead = (WEEKDAYS.index(name) - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead)


def caller(customer_id: str | None = None, assurance: str = "verified") -> CallerIdentity:
    customer_id = customer_id or f"cust-{uuid.uuid4().hex[:10]}"
    channel = "web" if assurance == "verified" else "sip"
    return CallerIdentity(
        customer_id=customer_id,
        actor_id=f"web-{customer_id}" if channel == "web" else "sip:+15550100",
        channel=channel,
        assurance=assurance,
        room_name=f"call-{uuid.uuid4().hex[:8]}",
        participant_identity=f"caller-{customer_id}",
    )


@dataclass
class CallHarness:
    call: Call
    session: AgentSession[CallContext]
    llm: ScriptedLLM
    host: HostServices

    @property
    def agent(self) -> MemoryAgent:
        return self.call.agent

    @property
    def context(self) -> CallContext:
        return self.call.context

    @property
    def calendar(self) -> CalendarClient:
        return self.host.line.calendar

    @property
    def billing(self) -> BillingClient:
        return self.host.line.billing

    async def say(self, *lines: str):  # type: ignore[no-untyped-def]
        result = None
        for line in lines:
            result = await self.session.run(user_input=line)
        return result

    async def hang_up(self):  # type: ignore[no-untyped-def]
        return await self.call.finish(self.session.history)

    async def confirm_and_hang_up(self):  # type: ignore[no-untyped-def]
        """End the call the way the line ends calls: the caller is done, the host reads back
        what it will note (`review_caller_details`), the caller says it is right."""
        return await self.end_call("yes, that's right")

    async def end_call(self, answer: str, *after: str):  # type: ignore[no-untyped-def]
        """The caller says they are done, answers whatever they are asked, perhaps says more,
        and hangs up."""
        await self.say("that's all, bye", answer, *after)
        return await self.hang_up()


@pytest.fixture
def calendar(tmp_path: Path) -> LocalCalendar:
    # Roomy: a test books for many callers on one Thursday.
    return LocalCalendar(tmp_path / "calendar.sqlite3", capacity=50)


@pytest.fixture
def billing(tmp_path: Path) -> LocalBilling:
    return LocalBilling(tmp_path / "billing.sqlite3")


@pytest.fixture
async def make_call(tmp_path: Path, local_engine, calendar, billing):  # type: ignore[no-untyped-def]
    """Start a call for `identity` on `backend` (default: the in-process local engine)."""
    default_calendar, default_billing = calendar, billing
    sessions: list[AgentSession] = []

    async def start(
        identity: CallerIdentity | None,
        *,
        backend=None,  # type: ignore[no-untyped-def]
        policy: AssurancePolicy | None = None,
        prefetch_budget_ms: int = 5000,
        calendar: CalendarClient | None = None,
        billing: BillingClient | None = None,
        script: list | None = None,  # type: ignore[type-arg]
        change_readback: bool = True,
    ) -> CallHarness:
        host = local_host(
            tmp_path,
            backend or local_engine,
            memory_settings=MemorySettings(
                _env_file=None,
                MEMORY_PREFETCH_BUDGET_MS=prefetch_budget_ms,
                MEMORY_GATE_BUDGET_MS=1000,
                MEMORY_CHANGE_READBACK=change_readback,
            ),
            calendar=calendar or default_calendar,
            billing=billing or default_billing,
            policy=policy,
        )
        call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
        scripted = ScriptedLLM(script=script)
        session = AgentSession[CallContext](userdata=call.context, llm=scripted)
        sessions.append(session)
        await call.start(session)
        return CallHarness(call, session, scripted, host)

    yield start
    for session in sessions:
        await session.aclose()


def tool_outputs(result, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    items = [
        ev.item
        for ev in result.events
        if ev.type == "function_call_output" and ev.item.name == name
    ]
    for item in items:
        assert item.is_error is False, item.output
    return [item.output for item in items]


def last_agent_text(session) -> str:  # type: ignore[no-untyped-def]
    messages = [
        item
        for item in session.history.items
        if item.type == "message" and item.role == "assistant"
    ]
    return messages[-1].text_content or ""
