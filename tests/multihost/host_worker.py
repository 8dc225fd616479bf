"""One worker "host" for the multi-host test: a burst of calls' memory traffic on the shared
Postgres, through the worker's own host state (worker.host_state) and Postgres engine.

    python -m tests.multihost.host_worker HOST_NAME CALLERS COUNT [--stall-after N]

DATABASE_URL selects the shared state, as in production. The host's local directory is its
working directory (the test gives each host its own). Each call of the burst, per caller:
an end-of-call write through `CallerMemory.remember` (outbox first, then the engine), with a
value that competes for one slot with the other host's writes; then a gate decision for a
visit day and its one receipt (`ActionGate`).

`--stall-after N`: after N calls, the rest are left the way a host leaves them when it is
killed between its durable outbox write and the network send (rows held under its lease),
then the process prints "stalled" and waits to be killed -9.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import date

from contextdb_livekit.backends.factory import open_memory_backend
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.models import FactToRemember, receipt_idempotency_key
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.worker.host_state import open_host_state
from contextdb_livekit.worker.settings import WorkerSettings
from memory.facts import CallerFact
from tests.memory.support import day_slot

# Short leases so the surviving host takes a dead host's rows within seconds.
OWNER_LEASE_S = 2.0


def call_facts(host: str, caller: str, i: int) -> list[FactToRemember]:
    day = date(2026, 12, 7 + i % 5)
    boilers = CallerFact("equipment_count", f"{i % 4 + 1} boilers", "user_stated", 0.9, day)
    note = FactToRemember(f"Call note {host}-{caller}-{i}", "agent_inferred", 0.5)
    return [note, boilers.to_write()]


async def run(host: str, callers: list[str], count: int, stall_after: int | None) -> None:
    memory_settings = MemorySettings()
    state = open_host_state(WorkerSettings(), memory_settings)
    assert state.database is not None, "DATABASE_URL must be set"
    outbox = PostgresOutbox(
        state.database, owner_lease_s=OWNER_LEASE_S, intent_grace_s=OWNER_LEASE_S
    )
    backend = await open_memory_backend(memory_settings, state.database)
    try:
        for i in range(count):
            stalled = stall_after is not None and i >= stall_after
            await asyncio.gather(
                *(one_call(backend, outbox, host, c, i, stalled=stalled) for c in callers)
            )
            print(f"call {i} done", flush=True)
            if stall_after is not None and i + 1 == count:
                print("stalled", flush=True)
                await asyncio.sleep(3600)
    finally:
        await backend.close()
        await state.close()


async def one_call(backend, outbox, host: str, caller: str, i: int, *, stalled: bool) -> None:  # type: ignore[no-untyped-def]
    memory = CallerMemory(backend, outbox, caller, gate_timeout_s=30)
    facts = call_facts(host, caller, i)
    write_key = f"write:{host}:{caller}:{i}"
    slot = day_slot(date(2026, 12, 7 + i % 5), call_id=f"{host}-{i}")
    if stalled:
        # Durable, held by this host, never sent: exactly what a kill -9 mid-call leaves.
        await outbox.put(
            write_key, "remember_many", caller, {"facts": [f.as_item() for f in facts]}
        )
        decision = await backend.evaluate_action(caller, "book a visit", slot=slot)
        payload = {
            "decision_id": decision.decision_id,
            "action_name": "book_visit",
            "status": "skipped",
            "external_ref": None,
            "error_code": None,
        }
        await outbox.put(receipt_idempotency_key(decision.decision_id), "receipt", caller, payload)
        return
    outcome = await memory.remember(facts, idempotency_key=write_key, timeout_s=30)
    assert outcome.lost == 0, outcome
    async with memory.gate.evaluate(caller, "book_visit", "book a visit", slot) as gate:
        assert gate.decision is not None, gate.unavailable_reason
        # No caller said yes in this burst: the gate must not act.
        assert gate.outcome != "act", gate.outcome


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("callers")
    parser.add_argument("count", type=int)
    parser.add_argument("--stall-after", type=int)
    args = parser.parse_args()
    assert os.environ.get("DATABASE_URL"), "DATABASE_URL must be set"
    asyncio.run(run(args.host, args.callers.split(","), args.count, args.stall_after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
