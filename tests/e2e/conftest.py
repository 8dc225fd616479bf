"""Session-wide real servers on loopback and a per-test worker factory."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import pytest

from testkit.engine import stop_engine_if_running
from testkit.harness import (
    LiveKit,
    Worker,
    start_livekit_server,
    start_scripted_openai,
    start_worker,
    stop,
)


@pytest.fixture(scope="session")
def livekit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveKit]:
    # A missing server binary fails the suite (never a silent skip): CI installs it.
    livekit, proc = start_livekit_server(tmp_path_factory.mktemp("livekit") / "server.log")
    try:
        yield livekit
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def scripted_openai(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url, proc = start_scripted_openai(tmp_path_factory.mktemp("openai") / "server.log")
    try:
        yield url
    finally:
        stop(proc)


# These tests are about what the greeting says, not how soon: on a busy host (a shared CI
# runner, a laptop compiling) a cold engine's first recall can take seconds, past the 300 ms
# production budget, and the greeting would go without the history the test asserts. A test
# about a late snapshot sets its own budget. Timing figures live in bench/.
E2E_PREFETCH_BUDGET_MS = "5000"


@pytest.fixture
def worker_factory(livekit_server, scripted_openai, tmp_path):  # type: ignore[no-untyped-def]
    workers: list[Worker] = []

    def make(**overrides: str) -> Worker:
        overrides.setdefault("MEMORY_PREFETCH_BUDGET_MS", E2E_PREFETCH_BUDGET_MS)
        worker = start_worker(
            livekit_server, scripted_openai, tmp_path / f"w{len(workers)}", **overrides
        )
        workers.append(worker)
        return worker

    yield make
    for worker in workers:
        stop(worker.proc, timeout_s=30)
        # The worker's local engine outlives it by design (idle exit); end it here.
        with contextlib.suppress(Exception):
            asyncio.run(stop_engine_if_running(worker.memory_path))
