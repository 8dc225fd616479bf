"""`python -m scenarios NAME --live`: the same scripted call through the whole real path.

A local livekit-server (found or built once by testkit), the scripted OpenAI-compatible server
and the real worker process (`python agent.py dev`) start on loopback; a caller joins with a
host-minted token and talks over `lk.chat`; the agent's words come back on
`lk.transcription`. No keys, no network. Memory, the calendar and the worker's log live in a
temporary directory that is printed when the call fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import connect_local_engine
from scenarios.result import ScenarioResult
from testkit.engine import stop_engine_if_running
from testkit.harness import (
    Worker,
    join_as_caller,
    start_livekit_server,
    start_scripted_openai,
    start_worker,
    stop,
)
from testkit.history import seed_history


class LiveScenarioError(RuntimeError):
    pass


async def _seed(worker: Worker, customer_id: str, history: list[str]) -> None:
    await seed_history(worker.memory_path, customer_id, *history)


async def _trail(worker: Worker, customer_id: str) -> list[Any]:
    engine = await connect_local_engine(worker.memory_path)
    try:
        return list(await engine.decision_trail(customer_id))
    finally:
        await engine.close()


async def run_live(spec: dict[str, Any], workdir: Path) -> ScenarioResult:
    who = spec["caller"]
    if who["assurance"] != "verified":
        raise LiveScenarioError(
            "--live joins as a web caller with a signed identity claim; "
            f"this scenario's caller is {who['assurance']!r} (use it without --live)"
        )
    customer_id = f"{who['customer_id']}-{uuid.uuid4().hex[:6]}"
    processes: list[subprocess.Popen] = []  # type: ignore[type-arg]
    worker: Worker | None = None
    try:
        print("starting livekit-server, the scripted OpenAI server and the worker...", flush=True)
        livekit, server = start_livekit_server(workdir / "livekit-server.log")
        processes.append(server)
        openai_url, scripted = start_scripted_openai(workdir / "scripted-openai.log")
        processes.append(scripted)
        # The worker gets no MEMORY_* from this environment (testkit.harness) except the
        # snapshot budget, so a test can give the demo one that holds on a busy host.
        budget = os.environ.get("MEMORY_PREFETCH_BUDGET_MS")
        worker = start_worker(
            livekit,
            openai_url,
            workdir / "worker",
            **({"MEMORY_PREFETCH_BUDGET_MS": budget} if budget else {}),
        )
        if spec.get("history"):
            await _seed(worker, customer_id, spec["history"])

        caller = await join_as_caller(livekit, worker, customer_id)
        transcript: list[str] = []
        try:
            transcript.append(f"agent:  {await caller.next_message(timeout_s=60)}")
            for turn in spec["turns"]:
                transcript.append(f"caller: {turn}")
                for reply in await caller.say(turn, timeout_s=30):
                    transcript.append(f"agent:  {reply}")
        finally:
            await caller.hang_up()
        # The end-of-call write and receipts land as the job ends.
        with contextlib.suppress(TimeoutError):
            await worker.wait_for_log("end-of-call write", timeout_s=30)
        trail = await _trail(worker, customer_id)
        for record in trail:
            transcript.append(
                f"  decision {record.decision_id[:8]} {record.outcome:<7} receipt {record.status}"
                f" {record.policy_alignment or ''} {record.error_code or ''}".rstrip()
            )
        booked = bool(await LocalCalendar(worker.calendar_path).bookings_for(customer_id))
        return ScenarioResult(transcript, [[d.outcome, d.status] for d in trail], booked)
    except (TimeoutError, RuntimeError) as exc:
        raise LiveScenarioError(f"{exc} (logs in {workdir})") from exc
    finally:
        if worker is not None:
            stop(worker.proc, timeout_s=30)
            # The worker's local engine outlives it by design (idle exit); end it now.
            with contextlib.suppress(Exception):
                await stop_engine_if_running(worker.memory_path)
        for proc in reversed(processes):
            stop(proc)


def main_live(spec: dict[str, Any]) -> int:
    """Run `spec` live, print the transcript; logs are kept only when something failed."""
    workdir = Path(tempfile.mkdtemp(prefix="scenario-live-"))
    try:
        result = asyncio.run(run_live(spec, workdir))
    except LiveScenarioError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    print("\n".join(result.transcript))
    failures = result.failures(spec.get("expect", {}))
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    if failures:
        print(f"logs in {workdir}", file=sys.stderr)
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0
