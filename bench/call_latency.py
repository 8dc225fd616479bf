"""Whole-call latency on a real livekit-server (loopback), one run, printed as numbers.

    LIVEKIT_SERVER_BIN=/path/to/livekit-server python -m bench.call_latency [--calls 6] [--rooms 4]

1. Dispatch → the agent's first message, for a returning caller, with memory on and with
   MEMORY_ENABLED=false (same run, same machine, warm job processes).
2. N concurrent rooms on one worker: p50/p95 turn latency (caller text → agent reply) and
   the resident memory of each job process.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from testkit.engine import stop_engine_if_running
from testkit.harness import (
    join_as_caller,
    start_livekit_server,
    start_scripted_openai,
    start_worker,
    stop,
)
from testkit.history import seed_history

WARM = {"WORKER_NUM_IDLE_PROCESSES": "2"}


def p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


async def first_message_ms(livekit, worker, customer: str) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    caller = await join_as_caller(livekit, worker, customer)
    try:
        await caller.next_message(timeout_s=60)
        return (time.perf_counter() - started) * 1000
    finally:
        await caller.hang_up()


async def seed(worker, customers: list[str]) -> None:  # type: ignore[no-untyped-def]
    for customer in customers:
        await seed_history(
            worker.memory_path,
            customer,
            "My boiler is a Vaillant ecoTEC in the loft",
            "Please use the side gate and ring first",
        )


def job_memory_mb(worker_pid: int) -> list[tuple[float, float]]:
    """(RSS, PSS) of each job process. Jobs are forked from the worker's forkserver, so
    they share its pages: PSS (shared pages split between sharers) is the honest cost."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, IndexError, ValueError):
            continue
    descendants, frontier = set(), {worker_pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - descendants
        descendants |= frontier

    def forked(pid: int) -> bool:
        return b"forkserver" in _read(Path(f"/proc/{pid}/cmdline"))

    # The forkserver itself is the forked-looking process whose parent is not one.
    forkservers = {pid for pid in descendants if forked(pid) and not forked(parents[pid])}
    sizes = []
    for pid in sorted(p for p in descendants if parents.get(p) in forkservers):
        rollup = _read(Path(f"/proc/{pid}/smaps_rollup")).decode()
        fields = {line.split(":")[0]: line.split()[1] for line in rollup.splitlines()[1:]}
        if "Rss" in fields:
            sizes.append((int(fields["Rss"]) / 1024, int(fields["Pss"]) / 1024))
    return sizes


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except (FileNotFoundError, PermissionError, ProcessLookupError):
        return b""


async def concurrent_rooms(
    livekit, worker, rooms: int
) -> tuple[list[float], list[tuple[float, float]]]:  # type: ignore[no-untyped-def]
    callers = await asyncio.gather(
        *(join_as_caller(livekit, worker, f"cust-{uuid.uuid4().hex[:8]}") for _ in range(rooms))
    )
    turn_ms: list[float] = []
    try:
        await asyncio.gather(*(c.next_message(timeout_s=90) for c in callers))
        rss = job_memory_mb(worker.proc.pid)

        async def talk(caller) -> None:  # type: ignore[no-untyped-def]
            for text in ["What are the open days?", "Book a visit on thursday", "yes"]:
                started = time.perf_counter()
                await caller.say(text, timeout_s=60)
                turn_ms.append((time.perf_counter() - started) * 1000)

        await asyncio.gather(*(talk(c) for c in callers))
    finally:
        await asyncio.gather(*(c.hang_up() for c in callers))
    return turn_ms, rss


async def main(calls: int, rooms: int) -> None:
    # Kept after the run: the worker and server logs are part of the result.
    root = Path(tempfile.mkdtemp(prefix="bench-calls-"))
    print(f"logs in {root}")
    if True:
        livekit, server = start_livekit_server(root / "server.log")
        openai_url, llm = start_scripted_openai()
        workers = []
        try:
            with_memory = start_worker(livekit, openai_url, root / "memory", **WARM)
            without = start_worker(
                livekit, openai_url, root / "nomemory", MEMORY_ENABLED="false", **WARM
            )
            workers = [with_memory, without]
            customers = [f"cust-{uuid.uuid4().hex[:8]}" for _ in range(calls + 1)]
            await seed(with_memory, customers)
            await asyncio.sleep(3)  # let both pools warm up
            on, off = [], []
            for customer in customers:  # interleaved, first call of each is a warm-up
                on.append(await first_message_ms(livekit, with_memory, customer))
                off.append(await first_message_ms(livekit, without, customer))
                await asyncio.sleep(1.5)  # a fresh warm process replaces the used one
            on, off = on[1:], off[1:]
            print(f"dispatch -> first agent message, {calls} calls each (ms)")
            print(f"  memory on   p50 {statistics.median(on):7.1f}   p95 {p(on, 0.95):7.1f}")
            print(f"  memory off  p50 {statistics.median(off):7.1f}   p95 {p(off, 0.95):7.1f}")
            print(f"  ratio on/off (p50) {statistics.median(on) / statistics.median(off):.2f}")

            turn_ms, rss = await concurrent_rooms(livekit, with_memory, rooms)
            print(f"{rooms} concurrent rooms on one worker, {len(turn_ms)} turns")
            p50, p95 = statistics.median(turn_ms), p(turn_ms, 0.95)
            print(f"  turn latency p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")
            if rss:
                rss_mb = [r for r, _ in rss]
                pss_mb = [p for _, p in rss]
                print(
                    f"  per job process ({len(rss)} incl. warm idle ones): "
                    f"RSS median {statistics.median(rss_mb):.0f} MB, "
                    f"PSS median {statistics.median(pss_mb):.0f} MB, max {max(pss_mb):.0f} MB"
                )
        finally:
            for worker in workers:
                stop(worker.proc, timeout_s=30)
            await stop_engine_if_running(root / "memory" / "memory.sqlite3")
            stop(llm)
            stop(server)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=6)
    parser.add_argument("--rooms", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.rooms))
