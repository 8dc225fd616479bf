"""A job-like process running gate decisions against the local engine service, for the
"every decision closed" fault tests (issue 21.2).

    python -m tests.memory.gate_burst_worker DB OUTBOX USER COUNT [--kill-at METHOD:WHEN:N]

Each call: half of them first store and confirm a request for their own slot (so the gate
says act and the call runs a side effect under a durable intent), then one gate block with
the production `CallerMemory` gate (1.5 s budgets). One JSON line per call: the decision id
(None when the gate failed closed), the outcome, how long the evaluation and the whole gate
took. `--kill-at report_execution:before:3` SIGKILLs this process right before (or
`after`) the 3rd call of that backend or outbox method: evaluate_action, report_execution,
record_intent, put, mark_done.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from contextdb_livekit.backends.engine_client import connect_local_engine
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.memory.errors import MemoryLayerError
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.support import day_request, day_slot

GATE_BUDGET_S = 1.5


class KillAt:
    """Proxies a backend or outbox; SIGKILLs the process at one call of one method."""

    def __init__(self, inner: Any, method: str, when: str, nth: int) -> None:
        self._inner, self._method, self._when, self._nth = inner, method, when, nth
        self._calls = 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if name != self._method:
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            self._calls += 1
            if self._calls == self._nth and self._when == "before":
                os.kill(os.getpid(), signal.SIGKILL)
            result = await target(*args, **kwargs)
            if self._calls == self._nth and self._when == "after":
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        return call


async def until_done(call):  # type: ignore[no-untyped-def]
    """Setup writes retry while an engine restarts; they are not what is measured."""
    for _ in range(400):
        try:
            return await call()
        except MemoryLayerError:
            await asyncio.sleep(0.05)
    raise AssertionError("engine never came back")


async def confirmed_request(client, user: str, day: date, call_id: str, key: str) -> None:  # type: ignore[no-untyped-def]
    [wish] = await until_done(
        lambda: client.remember_many(user, [day_request(day, call_id)], idempotency_key=key)
    )
    await until_done(lambda: client.confirm(user, wish.id))


async def run(db: Path, outbox_path: Path, user: str, count: int, kill_at: str | None) -> None:
    client = await connect_local_engine(db, idle_exit_s=120)
    backend: Any = client
    outbox: Any = SqliteOutbox(outbox_path, intent_grace_s=1.0, owner_lease_s=1.0)
    if kill_at:
        method, when, nth = kill_at.split(":")
        if method in ("evaluate_action", "report_execution"):
            backend = KillAt(client, method, when, int(nth))
        else:
            outbox = KillAt(outbox, method, when, int(nth))
    memory = CallerMemory(backend, outbox, user, gate_timeout_s=GATE_BUDGET_S)
    try:
        for i in range(count):
            day = date(2026, 12, 7) + timedelta(days=i)
            call_id = f"gate-burst-{i}"
            act = i % 2 == 0
            if act:
                await confirmed_request(client, user, day, call_id, f"wish:{user}:{i}")
            started = time.monotonic()
            async with memory.gate.evaluate(
                user, "book_visit", "book", day_slot(day, call_id)
            ) as gate:
                evaluated = time.monotonic() - started
                if gate.outcome == "act":
                    await gate.before_execution({"day": day.isoformat()})
                    gate.succeeded(external_ref=f"bk_{i}")
            line = {
                "call": i, "decision": gate.decision_id, "outcome": gate.outcome,
                "reason": gate.unavailable_reason, "evaluate_s": evaluated,
                "gate_s": time.monotonic() - started,
            }  # fmt: skip
            print(json.dumps(line), flush=True)
        # Decisions heard late are closed in the background; give them their budget.
        await asyncio.sleep(GATE_BUDGET_S * 2)
        print("finished", flush=True)
    finally:
        await client.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("outbox", type=Path)
    parser.add_argument("user")
    parser.add_argument("count", type=int)
    parser.add_argument("--kill-at")
    args = parser.parse_args()
    asyncio.run(run(args.db, args.outbox, args.user, args.count, args.kill_at))
    return 0


if __name__ == "__main__":
    sys.exit(main())
