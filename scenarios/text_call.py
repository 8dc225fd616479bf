"""A whole call in text mode for benches and the playground: a verified web caller, local host
services, the real `AgentSession` with the given model, started the way the worker starts it."""

from __future__ import annotations

import uuid
from pathlib import Path

from livekit.agents import AgentSession, llm

from calendar_client import LocalCalendar
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.line_host import local_host


def web_caller() -> CallerIdentity:
    customer = f"cust-{uuid.uuid4().hex[:10]}"
    return CallerIdentity(
        customer_id=customer,
        actor_id=f"web-{customer}",
        channel="web",
        assurance="verified",
        room_name=f"text-{uuid.uuid4().hex[:8]}",
        participant_identity=f"caller-{customer}",
    )


async def start_text_call(
    workdir: Path,
    backend: object,
    model: llm.LLM,
    *,
    caller: CallerIdentity | None = None,
    change_readback: bool = True,
) -> tuple[Call, AgentSession[CallContext]]:
    """Open and start a call (for a new caller unless given); the caller of this function
    finishes the call if it wants the end-of-call write, and closes the session."""
    host = local_host(
        workdir,
        backend,
        memory_settings=MemorySettings(
            _env_file=None,
            MEMORY_GATE_BUDGET_MS=1500,
            MEMORY_CHANGE_READBACK=change_readback,
        ),
        calendar=LocalCalendar(workdir / "calendar.sqlite3", capacity=100_000),
    )
    identity = caller or web_caller()
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
    session = AgentSession[CallContext](userdata=call.context, llm=model)
    await call.start(session)
    return call, session
