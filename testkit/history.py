"""Earlier calls for e2e tests and benches: a caller's lines through the end-of-call
extractor, written to the worker's local engine (so the snapshot has something to show)."""

from __future__ import annotations

from pathlib import Path

from contextdb_livekit.api import today_in
from contextdb_livekit.backends.engine_client import connect_local_engine
from memory.extract import Turn, extract_call_facts


async def seed_history(memory_path: Path, customer_id: str, *lines: str) -> int:
    facts = extract_call_facts(
        [Turn("user", line) for line in lines],
        [],
        today=today_in("UTC"),
        call_id=f"history-{customer_id}",
    )
    if not facts:
        raise ValueError(f"nothing to remember in {lines!r}")
    engine = await connect_local_engine(memory_path)
    try:
        await engine.remember_many(
            customer_id, [f.to_write() for f in facts], idempotency_key=f"seed-{customer_id}"
        )
    finally:
        await engine.close()
    return len(facts)
