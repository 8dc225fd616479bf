"""From the caller's yes to the first word of the result: model round trips and wall time.

    python -m bench.yes_to_result [--calls 20] [--model-latency-ms 600]

Whole calls through the real `AgentSession` and the in-process engine, with the scripted
(obedient) model. Each model request waits `--model-latency-ms` before its first token, the
time a hosted model takes to start answering, so the wall time shows what the round trips
cost a caller. Prints round trips per yes and p50/p90 wall time (ms), plus the same with no
model latency (the host's own cost). Run it on two checkouts to compare before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from livekit.agents import llm

from contextdb_livekit.memory.local_engine import LocalEngine
from contextdb_livekit.stores.sqlite.engine import open_engine
from scenarios.scripted_llm import ScriptedLLM
from scenarios.text_call import start_text_call


class SlowStartLLM(ScriptedLLM):
    """The scripted model, with a fixed delay before each answer starts."""

    def __init__(self, latency_s: float) -> None:
        super().__init__()
        self.latency_s = latency_s

    def chat(self, **kwargs):  # type: ignore[no-untyped-def, override]
        stream = super().chat(**kwargs)
        run = stream._run
        latency_s = self.latency_s

        async def delayed() -> None:
            await asyncio.sleep(latency_s)
            await run()

        stream._run = delayed  # type: ignore[method-assign]
        return stream


async def one_call(workdir: Path, engine: LocalEngine, latency_s: float) -> tuple[int, float]:
    model = SlowStartLLM(latency_s)
    _, session = await start_text_call(workdir, engine, model)
    try:
        await session.run(user_input="I'd like to book a visit on thursday")
        before = len(model.requests)
        spoken = asyncio.get_running_loop().create_future()

        def on_item(event) -> None:  # type: ignore[no-untyped-def]
            item = event.item
            if (
                isinstance(item, llm.ChatMessage)
                and item.role == "assistant"
                and (item.text_content or "").startswith("Booked")
                and not spoken.done()
            ):
                spoken.set_result(time.perf_counter())

        session.on("conversation_item_added", on_item)
        said_yes = time.perf_counter()
        await session.run(user_input="yes please")
        result_at = await asyncio.wait_for(spoken, timeout=30)
        return len(model.requests) - before, (result_at - said_yes) * 1000
    finally:
        await session.aclose()


async def main(calls: int, latency_ms: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        engine = await open_engine(workdir / "memory.sqlite3")
        try:
            for label, latency in (
                ("model latency 0 ms", 0.0),
                (f"model latency {latency_ms:.0f} ms", latency_ms / 1000),
            ):
                trips, walls = [], []
                for _ in range(calls):
                    n, wall = await one_call(workdir, engine, latency)
                    trips.append(n)
                    walls.append(wall)
                walls.sort()
                p90 = walls[min(len(walls) - 1, int(0.9 * len(walls)))]
                print(
                    f"{label:>24}: round trips per yes {statistics.median(trips):.0f}  "
                    f"yes -> result p50 {statistics.median(walls):7.1f} ms  p90 {p90:7.1f} ms"
                )
        finally:
            await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--model-latency-ms", type=float, default=600.0)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.model_latency_ms))
