"""From the caller's yes to the first word of the result: model round trips and wall time.

    python -m bench.yes_to_result [--calls 20] [--model-latency-ms 600]
                                  [--transcript-delay-ms 500] [--transcript-order ORDER]

Whole calls through the real `AgentSession` and the in-process engine, with the scripted
(obedient) model. Each model request waits `--model-latency-ms` before its first token, the
time a hosted model takes to start answering, so the wall time shows what the round trips
cost a caller. Prints round trips per yes and p50/p90 wall time (ms), plus the same with no
model latency (the host's own cost). Run it on two checkouts to compare before and after.

The realtime path runs the same call through the OpenAI realtime plugin client against the
loopback Realtime API (`testkit.realtime_server`): round trips are the provider's responses
from the caller's yes to the spoken result, and the caller's transcript arrives
`--transcript-delay-ms` after `--transcript-order`'s anchor (default: after `response.done`,
the order in which the tool starts before the words), against the transcript before the
response as the baseline. The model latency delays each response's start.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from livekit.agents import llm

from calendar_client import LocalCalendar
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.kit.caller_turns import DEFAULT_TRANSCRIPT_WAIT_S
from contextdb_livekit.memory.settings import MemorySettings
from scenarios.text_call import start_text_call, web_caller
from testkit.line_host import local_host
from testkit.realtime_call import start_realtime_call
from testkit.realtime_server import TRANSCRIPT_ORDERS, LoopbackRealtime, RealtimeScript
from testkit.scripted_llm import ScriptedLLM


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
        spoken = _result_future(session)
        said_yes = time.perf_counter()
        await session.run(user_input="yes please")
        result_at = await asyncio.wait_for(spoken, timeout=30)
        return len(model.requests) - before, (result_at - said_yes) * 1000
    finally:
        await session.aclose()


def _result_future(session) -> asyncio.Future[float]:  # type: ignore[no-untyped-def]
    """When the first word of the result reaches the conversation."""
    spoken: asyncio.Future[float] = asyncio.get_running_loop().create_future()

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
    return spoken


async def one_realtime_call(
    workdir: Path, engine: LocalEngine, latency_s: float, order: str, delay_s: float
) -> tuple[int, float]:
    script = RealtimeScript(
        order=order,  # type: ignore[arg-type]
        transcript_delay_s=delay_s,
        response_latency_s=latency_s,
    )
    server = LoopbackRealtime(script)
    base_url = await server.start()
    host = local_host(
        workdir,
        engine,
        memory_settings=MemorySettings(_env_file=None, MEMORY_GATE_BUDGET_MS=1500),
        calendar=LocalCalendar(workdir / "calendar.sqlite3", capacity=100_000),
    )
    call = await start_realtime_call(
        host, web_caller(), server, base_url, transcript_wait_s=DEFAULT_TRANSCRIPT_WAIT_S
    )
    try:
        await call.say("I'd like to book a visit on thursday")
        before = server.log.responses
        spoken = _result_future(call.session)
        said_yes = time.perf_counter()
        answering = asyncio.ensure_future(server.caller_says("yes please"))
        result_at = await asyncio.wait_for(spoken, timeout=30)
        await answering
        return server.log.responses - before, (result_at - said_yes) * 1000
    finally:
        await call.close()
        await server.close()


def _report(label: str, trips: list[int], walls: list[float]) -> None:
    walls = sorted(walls)
    p90 = walls[min(len(walls) - 1, int(0.9 * len(walls)))]
    print(
        f"{label:>56}: round trips per yes {statistics.median(trips):.0f}  "
        f"yes -> result p50 {statistics.median(walls):7.1f} ms  p90 {p90:7.1f} ms"
    )


async def realtime(
    workdir: Path, engine: LocalEngine, calls: int, latency_ms: float, order: str, delay_ms: float
) -> None:
    print(f"realtime (loopback Realtime API), transcript wait bound {DEFAULT_TRANSCRIPT_WAIT_S} s")
    for latency in (0.0, latency_ms):
        for run_order, delay in (("before_response", 0.0), (order, delay_ms)):
            trips, walls = [], []
            for _ in range(calls):
                n, wall = await one_realtime_call(
                    workdir, engine, latency / 1000, run_order, delay / 1000
                )
                trips.append(n)
                walls.append(wall)
            _report(
                f"model latency {latency:.0f} ms, transcript {run_order} +{delay:.0f} ms",
                trips,
                walls,
            )


async def main(
    calls: int, latency_ms: float, transcript_order: str, transcript_delay_ms: float
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        engine = await open_engine(workdir / "memory.sqlite3")
        try:
            print("pipeline (STT, LLM, TTS)")
            for label, latency in (
                ("model latency 0 ms", 0.0),
                (f"model latency {latency_ms:.0f} ms", latency_ms / 1000),
            ):
                trips, walls = [], []
                for _ in range(calls):
                    n, wall = await one_call(workdir, engine, latency)
                    trips.append(n)
                    walls.append(wall)
                _report(label, trips, walls)
            await realtime(
                workdir, engine, calls, latency_ms, transcript_order, transcript_delay_ms
            )
        finally:
            await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--model-latency-ms", type=float, default=600.0)
    parser.add_argument("--transcript-delay-ms", type=float, default=500.0)
    parser.add_argument(
        "--transcript-order",
        choices=[o for o in TRANSCRIPT_ORDERS if o != "never"],
        default="after_response_done",
    )
    args = parser.parse_args()
    asyncio.run(
        main(args.calls, args.model_latency_ms, args.transcript_order, args.transcript_delay_ms)
    )
