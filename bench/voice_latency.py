"""Voice-to-voice latency on a real livekit-server (loopback), one run, printed as numbers.

    python -m bench.voice_latency [--calls 3] [--turns 7] [--rooms 1,5,10,20] [--max-minutes 9]
    (--calls 0 skips part 1; --rooms '' skips part 2)

The caller publishes espeak-ng speech; the worker runs its production pipeline (Silero VAD,
VAD turn detection, the OpenAI STT/LLM/TTS plugins against the scripted server). Latency is
measured at the caller: the last voiced sample of its line leaving → the first voiced agent
frame arriving, so it includes VAD end-of-speech, the endpointing delay, STT, LLM, TTS and
both transport legs.

1. Memory on vs MEMORY_ENABLED=false, same run, calls interleaved, `calls × turns` each.
2. N concurrent calls on one worker (memory on): p50/p95 and each job process's PSS.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from bench.call_latency import job_memory_mb, seed
from testkit.engine import stop_engine_if_running
from testkit.harness import LiveKit, Worker, start_livekit_server, start_scripted_openai, stop
from testkit.harness import start_worker as start_worker_process
from testkit.voice import join_as_voice_caller

# Alternating: a tool turn (two LLM round trips) and a plain reply.
LINES = ("What are the open days", "Yes please")
WARM = {"WORKER_NUM_IDLE_PROCESSES": "2"}


def p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def row(label: str, samples: list[float]) -> str:
    if not samples:
        return f"  {label:<24} no samples"
    return (
        f"  {label:<24} n={len(samples):3d}   p50 {statistics.median(samples):6.0f} ms"
        f"   p95 {p(samples, 0.95):6.0f} ms   max {max(samples):6.0f} ms"
    )


async def one_call(
    livekit: LiveKit,
    worker: Worker,
    customer: str,
    turns: int,
    out: list[float],
    *,
    stagger_s: float = 0.0,
    on_greeted: asyncio.Event | None = None,
    go: asyncio.Event | None = None,
) -> None:
    caller = await join_as_voice_caller(livekit, worker, customer)
    try:
        await caller.agent_voice_after(time.monotonic() - 1, timeout_s=120)
        await caller.agent_quiet(for_s=1.0, timeout_s=60)
        if on_greeted is not None:
            on_greeted.set()
        if go is not None:
            await go.wait()
        await asyncio.sleep(stagger_s)
        for turn in range(turns):
            spoke_until = await caller.say(LINES[turn % len(LINES)])
            answered = await caller.agent_voice_after(spoke_until, timeout_s=30)
            out.append((answered - spoke_until) * 1000)
            await caller.agent_quiet(for_s=0.8, timeout_s=60)
    finally:
        await caller.hang_up()


async def memory_ratio(
    livekit: LiveKit, on_worker: Worker, off_worker: Worker, calls: int, turns: int
) -> tuple[list[float], list[float]]:
    on: list[float] = []
    off: list[float] = []
    customers = [f"cust-{uuid.uuid4().hex[:8]}" for _ in range(calls)]
    await seed(on_worker, customers)
    for customer in customers:  # interleaved, so drift on the machine hits both alike
        await one_call(livekit, on_worker, customer, turns, on)
        await asyncio.sleep(1.5)  # a fresh warm process replaces the used one
        await one_call(livekit, off_worker, customer, turns, off)
        await asyncio.sleep(1.5)
    return on, off


async def concurrent_calls(
    livekit: LiveKit, worker: Worker, rooms: int, turns: int
) -> tuple[list[float], list[tuple[float, float]], int]:
    customers = [f"cust-{uuid.uuid4().hex[:8]}" for _ in range(rooms)]
    await seed(worker, customers)
    latencies: list[float] = []
    greeted = [asyncio.Event() for _ in range(rooms)]
    go = asyncio.Event()
    calls = [
        asyncio.create_task(
            one_call(
                livekit,
                worker,
                customer,
                turns,
                latencies,
                # Spread over one turn's length, as independent callers would be.
                stagger_s=4.0 * index / rooms,
                on_greeted=greeted[index],
                go=go,
            )
        )
        for index, customer in enumerate(customers)
    ]
    failed = 0
    try:
        with contextlib.suppress(TimeoutError):
            # A worker that cannot hold N calls never greets them all: report what it did.
            await asyncio.wait_for(asyncio.gather(*(g.wait() for g in greeted)), timeout=120)
        sizes = job_memory_mb(worker.proc.pid)  # every greeted call's job is up and has spoken
        go.set()
        results = await asyncio.wait_for(
            asyncio.gather(*calls, return_exceptions=True), timeout=240
        )
        failed = sum(1 for r in results if isinstance(r, BaseException))
    finally:
        for call in calls:
            call.cancel()
    return latencies, sizes, failed


async def main(calls: int, turns: int, rooms: list[int], max_minutes: float) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    print(f"logs in {root}")
    started = time.monotonic()
    livekit, server = start_livekit_server(root / "server.log")
    openai_url, scripted = start_scripted_openai(root / "openai.log")
    workers: list[Worker] = []
    try:
        on_worker = start_worker_process(livekit, openai_url, root / "memory", **WARM)
        off_worker = start_worker_process(
            livekit, openai_url, root / "nomemory", MEMORY_ENABLED="false", **WARM
        )
        workers = [on_worker, off_worker]
        await asyncio.sleep(3)  # let both pools warm up
        if calls > 0:
            on, off = await memory_ratio(livekit, on_worker, off_worker, calls, turns)
            print("end of caller speech -> first agent audio at the caller, one call at a time")
            print(row("memory on", on))
            print(row("memory off", off))
            if on and off:
                print(
                    f"  ratio on/off   p50 {statistics.median(on) / statistics.median(off):.2f}"
                    f"   p95 {p(on, 0.95) / p(off, 0.95):.2f}"
                )
        stop(off_worker.proc, timeout_s=30)
        workers = [on_worker]

        concurrent_turns = max(3, turns // 2)
        print(f"concurrent calls on one worker (memory on), {concurrent_turns} turns each")
        for n in rooms:
            if time.monotonic() - started > max_minutes * 60:
                print(f"  N={n}: skipped, past --max-minutes {max_minutes}")
                continue
            latencies, sizes, failed = await concurrent_calls(
                livekit, on_worker, n, concurrent_turns
            )
            pss = [pss for _, pss in sizes]
            memory = (
                f"   PSS/job median {statistics.median(pss):.0f} MB max {max(pss):.0f} MB "
                f"({len(pss)} job processes)"
                if pss
                else ""
            )
            print(row(f"N={n}" + (f" ({failed} failed)" if failed else ""), latencies) + memory)
            await asyncio.sleep(3)  # jobs end and the warm pool refills
        print(f"total {time.monotonic() - started:.0f} s")
    finally:
        for worker in workers:
            stop(worker.proc, timeout_s=30)
        await stop_engine_if_running(root / "memory" / "memory.sqlite3")
        stop(scripted)
        stop(server)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--turns", type=int, default=7)
    parser.add_argument("--rooms", default="1,5,10,20")
    parser.add_argument("--max-minutes", type=float, default=9.0)
    args = parser.parse_args()
    asyncio.run(
        main(args.calls, args.turns, [int(n) for n in args.rooms.split(",") if n], args.max_minutes)
    )
