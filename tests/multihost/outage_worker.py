"""One worker host for the outage tests: a paced burst of end-of-call writes and gate
decisions on the shared Postgres, through the worker's own host state (the spilling outbox)
and the Postgres engine, with a call's outbox flusher running beside it.

    python -m tests.multihost.outage_worker HOST CALLERS COUNT [--interval-s S] [--hold]

Per call and caller: `CallerMemory.remember` with the shutdown budget (3 s), then one gate
decision and its receipt (1.5 s budget). One JSON line per call on stdout (written, queued,
lost, the decision id if the gate got one, how long the gate took). After the burst it
prints "burst done", then drains until neither its spill nor the shared outbox holds a row
and prints "drained"; with `--hold` it stops its flusher instead, prints "holding" and
waits to be killed, its spill as the burst left it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import json
import os
import signal
import sys
import time
from datetime import date

from contextdb_livekit.backends.factory import open_memory_backend
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.host_state import open_host_state
from contextdb_livekit.worker.settings import WorkerSettings
from memory.facts import CallerFact
from tests.memory.support import day_slot

SHUTDOWN_WRITE_BUDGET_S = 3.0
GATE_BUDGET_S = 1.5


def note(host: str, caller: str, i: int) -> str:
    return f"Outage note {host}-{caller}-{i}"


def call_facts(host: str, caller: str, i: int) -> list[FactToRemember]:
    day = date(2026, 12, 7 + i % 5)
    boilers = CallerFact("equipment_count", f"{i % 4 + 1} boilers", "user_stated", 0.9, day)
    return [FactToRemember(note(host, caller, i), "agent_inferred", 0.5), boilers.to_write()]


async def one_call(backend, outbox, host: str, caller: str, i: int) -> dict:  # type: ignore[no-untyped-def]
    memory = CallerMemory(backend, outbox, caller, gate_timeout_s=GATE_BUDGET_S)
    key = f"facts:{host}:{caller}:{i}"
    outcome = await memory.remember(
        call_facts(host, caller, i), idempotency_key=key, timeout_s=SHUTDOWN_WRITE_BUDGET_S
    )
    slot = day_slot(date(2026, 12, 7 + i % 5), call_id=f"{host}-{caller}-{i}")
    started = time.monotonic()
    async with memory.gate.evaluate(caller, "book_visit", "book a visit", slot) as gate:
        decision, reason = gate.decision_id, gate.unavailable_reason
    return {
        "host": host, "caller": caller, "call": i, "key": key,
        "written": outcome.written, "queued": outcome.queued, "lost": outcome.lost,
        "decision": decision, "reason": reason, "gate_s": time.monotonic() - started,
    }  # fmt: skip


async def run(host: str, callers: list[str], count: int, interval_s: float, hold: bool) -> None:
    settings = MemorySettings()
    state = open_host_state(WorkerSettings(), settings)
    assert isinstance(state.outbox, SpillingOutbox), "DATABASE_URL must be set"
    backend = await open_memory_backend(settings, state.database)
    flusher = OutboxFlusher(state.outbox, backend, {}, base_delay_s=0.2, max_delay_s=2.0)
    stop = asyncio.Event()
    flushing = asyncio.create_task(flusher.run(stop, interval_s=0.5))
    try:
        for i in range(count):
            paced = asyncio.create_task(asyncio.sleep(interval_s))
            for line in await asyncio.gather(
                *(one_call(backend, state.outbox, host, c, i) for c in callers)
            ):
                print(json.dumps(line), flush=True)
            await paced
        print("burst done", flush=True)
        if hold:
            stop.set()
            await flushing
            print("holding", flush=True)
            await asyncio.sleep(3600)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                if not await state.outbox.spill.items() and not await state.outbox.items():
                    break
            await asyncio.sleep(0.5)
        print("drained", flush=True)
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(flushing, 5)
        await backend.close()
        await state.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("callers")
    parser.add_argument("count", type=int)
    parser.add_argument("--interval-s", type=float, default=0.5)
    parser.add_argument("--hold", action="store_true")
    args = parser.parse_args()
    assert os.environ.get("DATABASE_URL"), "DATABASE_URL must be set"
    faulthandler.register(signal.SIGUSR1)  # a stuck host shows where: kill -USR1
    asyncio.run(run(args.host, args.callers.split(","), args.count, args.interval_s, args.hold))
    return 0


if __name__ == "__main__":
    sys.exit(main())
