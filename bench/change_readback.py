"""What the end-of-call review read-back costs a caller: turns, model round trips and time.

    python -m bench.change_readback [--calls 10] [--model-latency-ms 600]

Whole calls through the real `AgentSession` and the in-process engine, with the scripted
(obedient) model, the same caller lines with `MEMORY_CHANGE_READBACK` on and off. The call
ends with "that's all, bye" (and, with the read-back on, the caller's "yes, that's right" to
the host's read-back); timed from the goodbye to the end-of-call write done. Each model
request waits `--model-latency-ms` first, as a hosted model would. Speech time is not
included (text mode): add the read-back's own playout, about 0.35 s per word at TTS speed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.yes_to_result import SlowStartLLM
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from scenarios.text_call import start_text_call

LINES = ("mondays don't work for me", "we've two boilers and five radiators")


async def one_call(
    workdir: Path, engine: LocalEngine, latency_s: float, *, readback: bool
) -> tuple[int, int, float, int]:
    """(caller turns after the goodbye, model requests after it, ms, words read back)."""
    model = SlowStartLLM(latency_s)
    call, session = await start_text_call(workdir, engine, model, change_readback=readback)
    try:
        for line in LINES:
            await session.run(user_input=line)
        before = len(model.requests)
        started = time.perf_counter()
        turns = 1
        await session.run(user_input="that's all, bye")
        review = call.context.review
        if review is not None:
            turns += 1
            await session.run(user_input="yes, that's right")
        await call.finish(session.history)
        elapsed = (time.perf_counter() - started) * 1000
        words = len(review.readback.text.split()) if review is not None else 0
        return turns, len(model.requests) - before, elapsed, words
    finally:
        await session.aclose()


async def main(calls: int, latency_ms: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        engine = await open_engine(workdir / "memory.sqlite3")
        try:
            results: dict[bool, list[tuple[int, int, float, int]]] = {True: [], False: []}
            for _ in range(calls):  # interleaved: the same machine state for both
                for readback in (False, True):
                    results[readback].append(
                        await one_call(workdir, engine, latency_ms / 1000, readback=readback)
                    )
            base = statistics.median(r[2] for r in results[False])
            for readback in (False, True):
                rows = results[readback]
                ms = statistics.median(r[2] for r in rows)
                print(
                    f"read-back {'on ' if readback else 'off'}: caller turns after goodbye "
                    f"{statistics.median(r[0] for r in rows):.0f}, model round trips "
                    f"{statistics.median(r[1] for r in rows):.0f}, goodbye -> written p50 "
                    f"{ms:7.1f} ms (x{ms / base:.2f}), words read back "
                    f"{statistics.median(r[3] for r in rows):.0f}"
                )
        finally:
            await engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--model-latency-ms", type=float, default=600.0)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.model_latency_ms))
