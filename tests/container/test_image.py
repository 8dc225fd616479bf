"""The project's Dockerfile, built and run: a real call through the containerised worker.

Base: Debian bookworm from debootstrap (cached). Image: `buildah bud` of the Dockerfile on it.
Run: `python agent.py start` in the image against livekit-server on loopback, the volume a host
directory; a caller books a visit; the state is on the volume, written by uid 10001.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import httpx
import pytest

from calendar_client import LocalCalendar
from contextdb_livekit.backends.engine_client import attach_to_engine
from testkit.harness import free_port, join_as_caller
from tests.container.buildah import Container, CpuCgroup, inspect_image
from tests.container.worker import (
    RUNTIME_UID,
    WORKER_COMMAND,
    engine_socket,
    foreign_owned,
    start_worker_in,
    stop_engine_in,
    stop_worker,
    wait_until_available,
)

pytestmark = pytest.mark.container

# State files the configured paths lead to, relative to the volume.
STATE_FILES = {
    "contextdb/memory.sqlite3",  # local memory engine
    "contextdb/outbox.sqlite3",
    "calendar.sqlite3",
    "attestations.sqlite3",
}


def test_image_declares_user_volume_healthcheck_and_command(agent_image, timings):
    config = inspect_image(agent_image)
    timings["image size"] = config.size
    assert config.user == "agent"
    assert config.workdir == "/app"
    assert config.cmd == list(WORKER_COMMAND)
    assert config.volumes == ["/data"]
    assert config.healthcheck[0] == "CMD"
    # Every state path the image configures is on the volume.
    state_paths = {k: v for k, v in config.env.items() if k.endswith("_PATH") and k != "PATH"}
    assert state_paths and all(v.startswith("/data/") for v in state_paths.values())


def test_runtime_user_writes_data_and_not_the_code(agent_image, tmp_path):
    # Unmounted, /data is the image's own directory (what a new Docker named volume copies,
    # owner included); mounted, it is a host directory. Both writable by uid 10001; code not.
    probe = [
        "python",
        "-c",
        "import os; print(os.getuid(), *(os.access(p, os.W_OK) for p in"
        " ('/app', '/app/agent.py', '/opt/venv', '/data')))",
    ]
    for volumes in ({}, {_volume(tmp_path): "/data"}):
        with Container.from_image(agent_image, volumes) as container:
            result = container.run(probe)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == [str(RUNTIME_UID), "False", "False", "False", "True"]


async def test_call_through_the_containerised_worker_lands_on_the_volume(
    agent_image, livekit_server, scripted_openai, tmp_path, timings
):
    volume = _volume(tmp_path)
    port = free_port()
    customer = f"cust-{uuid.uuid4().hex[:8]}"
    healthcheck = inspect_image(agent_image).healthcheck[1:]
    with (
        Container.from_image(agent_image, {volume: "/data"}) as container,
        Container.from_image(agent_image) as prober,
        CpuCgroup.create(f"scheduling-agent-{uuid.uuid4().hex[:8]}") as cpu,
    ):
        started = time.monotonic()
        worker = start_worker_in(
            container, livekit_server, scripted_openai, tmp_path / "worker.log", port, cpu
        )
        timings["worker registered"] = f"{time.monotonic() - started:.1f} s after run"
        try:
            async with httpx.AsyncClient() as http:
                health = await http.get(f"http://127.0.0.1:{port}/", timeout=5)
            assert health.status_code == 200
            # The image's own HEALTHCHECK command, run in a second container (host network).
            probe = prober.run(healthcheck, env={"WORKER_HTTP_PORT": str(port)})
            assert probe.returncode == 0, probe.stderr

            started = time.monotonic()
            await wait_until_available(worker)
            caller = await join_as_caller(livekit_server, worker, customer)
            try:
                assert await caller.next_message(timeout_s=30)
                [asked] = await caller.say("I'd like to book a visit on thursday")
                assert asked.startswith("Just to confirm")
                [booked] = await caller.say("Yes please")
                assert booked.startswith("Booked a service visit on")
            finally:
                await caller.hang_up()
            await worker.wait_for_log("end-of-call write", timeout_s=30)
            timings["call"] = (
                f"{time.monotonic() - started:.1f} s, availability wait + join to end-of-call write"
            )

            # The decisions are in the engine on the volume, read through its socket there.
            engine = attach_to_engine(engine_socket(volume))
            try:
                trail = await engine.decision_trail(customer)
            finally:
                await engine.close()
            assert [(d.outcome, d.status) for d in trail] == [
                ("abstain", "skipped"),
                ("ask", "skipped"),
                ("act", "succeeded"),
            ]
        finally:
            exit_code = stop_worker(worker)
            await stop_engine_in(volume)
        assert exit_code == 0, worker.log()[-4000:]
        # Health fails once the worker is gone: the check can say no.
        assert prober.run(healthcheck, env={"WORKER_HTTP_PORT": str(port)}).returncode != 0

    present = {str(p.relative_to(volume)) for p in volume.rglob("*") if p.is_file()}
    assert present >= STATE_FILES
    assert foreign_owned(volume) == []  # checked before this host opens anything there
    [booking] = await LocalCalendar(volume / "calendar.sqlite3").bookings_for(customer)
    assert trail[-1].external_ref == booking.booking_id


def _volume(tmp_path: Path) -> Path:
    """A host directory for /data, owned by the runtime user as a real deployment would."""
    volume = tmp_path / "data"
    volume.mkdir()
    os.chown(volume, RUNTIME_UID, RUNTIME_UID)
    return volume
