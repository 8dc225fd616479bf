"""A whole call in text mode: the real AgentSession, the scripted LLM, real local services."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import pytest
from livekit.agents import AgentSession

from calendar_client import CalendarClient, LocalCalendar
from identity import CallerIdentity
from memory.backend import MemoryBackend
from memory.outbox import Outbox
from memory.settings import MemorySettings
from scenarios.scripted_llm import ScriptedLLM
from tools.attestations import AttestationStore
from tools.authorization import AssurancePolicy
from worker.call import CallServices, CallSession
from worker.scheduling_agent import SchedulingAgent


def next_weekday(name: str, today: date | None = None) -> date:
    today = today or date.today()
    target = ["monday", "tuesday", "wednesday", "thursday", "friday"].index(name)
    ahead = (target - today.weekday()) % 7 or 7
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
    call: CallSession
    agent: SchedulingAgent
    session: AgentSession
    llm: ScriptedLLM
    calendar: CalendarClient
    backend: MemoryBackend
    outbox: Outbox


@pytest.fixture
def calendar(tmp_path: Path) -> LocalCalendar:
    return LocalCalendar(tmp_path / "calendar.sqlite3")


@pytest.fixture
async def make_call(tmp_path: Path, local_engine, calendar):
    default_calendar = calendar  # type: ignore[no-untyped-def]
    """Start a call for `identity` on `backend` (default: the in-process local engine)."""
    sessions: list[AgentSession] = []

    async def start(
        identity: CallerIdentity | None,
        *,
        backend: MemoryBackend | None = None,
        policy: AssurancePolicy | None = None,
        prefetch_budget_ms: int = 1000,
        calendar: CalendarClient | None = None,
    ) -> CallHarness:
        backend = backend or local_engine
        outbox = Outbox(tmp_path / "outbox.sqlite3")
        services = CallServices(
            backend=backend,
            outbox=outbox,
            calendar=calendar or default_calendar,
            attestations=AttestationStore(tmp_path / "attestations.sqlite3"),
            policy=policy or AssurancePolicy(),
            memory_settings=MemorySettings(
                _env_file=None,
                MEMORY_PREFETCH_BUDGET_MS=prefetch_budget_ms,
                MEMORY_GATE_BUDGET_MS=500,
            ),
        )
        call = CallSession(services, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
        call.start_prefetch()
        snapshot = await call.snapshot()
        agent = call.build_agent(snapshot)
        scripted = ScriptedLLM()
        session = AgentSession(llm=scripted)
        sessions.append(session)
        await session.start(agent)
        return CallHarness(call, agent, session, scripted, services.calendar, backend, outbox)

    yield start
    for session in sessions:
        await session.aclose()
