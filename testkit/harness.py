"""Real processes on loopback: livekit-server, the scripted OpenAI server, the worker, a caller.

Plain functions, shared by the e2e fixtures and `bench.call_latency`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from livekit import rtc

from contextdb_livekit.identity.host_tokens import mint_participant_token
from testkit.livekit_server import livekit_server_binary

ROOT = Path(__file__).resolve().parents[1]
API_KEY, API_SECRET = "devkey", "secret"  # livekit-server --dev keys
IDENTITY_SECRET = "e2e-identity-secret-0123456789abcdef"
AGENT_NAME = "scheduling-agent-e2e"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout_s: float, proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code < 500:
                return
        time.sleep(0.1)
    raise TimeoutError(f"{url} not ready after {timeout_s} s")


def stop(proc: subprocess.Popen, timeout_s: float = 15) -> None:  # type: ignore[type-arg]
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# livekit-agents' process supervisor resolves a job process's join future from a thread
# (`call_soon_threadsafe(join_fut.set_result, None)`); when the process was already reaped,
# asyncio logs "Exception in callback Future.set_result(None)" with InvalidStateError and
# nothing else happens. Seen on a host with both cores busy; no frame of ours is in it.
_LIBRARY_JOIN_RACE = re.compile(
    r"^Traceback \(most recent call last\):\n"
    r"(?:\s+File \"[^\"]*/asyncio/events\.py\".*\n\s+self\._context\.run.*\n)"
    r"asyncio\.exceptions\.InvalidStateError: invalid state"
)


def tracebacks_in(log: str) -> list[str]:
    """Each traceback in a process's log (from its header to its exception line), but for
    livekit-agents' own join race (`_LIBRARY_JOIN_RACE`)."""
    blocks = []
    for start in (
        m.start() for m in re.finditer(r"^Traceback \(most recent call last\):", log, re.M)
    ):
        lines = log[start:].splitlines()
        end = next((i for i, line in enumerate(lines[1:], 1) if not line.startswith(" ")), 0)
        block = "\n".join(lines[: end + 1])
        if not _LIBRARY_JOIN_RACE.match(block):
            blocks.append(block)
    return blocks


@dataclass(frozen=True)
class LiveKit:
    url: str
    http_url: str


def start_livekit_server(log_path: Path, attempts: int = 5) -> tuple[LiveKit, subprocess.Popen]:  # type: ignore[type-arg]
    """livekit-server on three fresh loopback ports. A port that `free_port` saw free can be
    taken by a parallel test before the server binds it; the server then exits, with code 0,
    logging "address already in use". That race is retried on new ports; anything else fails
    at once with the tail of the server's log."""
    for attempt in range(1, attempts + 1):
        try:
            return _start_livekit_server_once(log_path)
        except _PortTaken:
            if attempt == attempts:
                raise RuntimeError(
                    f"livekit-server found its ports taken {attempts} times "
                    f"(log: {log_path}): {_log_tail(log_path)}"
                ) from None
    raise AssertionError("unreachable")


class _PortTaken(Exception):
    pass


def _log_tail(log_path: Path, lines: int = 5) -> str:
    with contextlib.suppress(OSError):
        return " | ".join(log_path.read_text(errors="replace").strip().splitlines()[-lines:])
    return "(no log)"


def _start_livekit_server_once(log_path: Path) -> tuple[LiveKit, subprocess.Popen]:  # type: ignore[type-arg]
    port, tcp_port, udp_port = free_port(), free_port(), free_port()
    config = (
        f"port: {port}\n"
        f"rtc:\n  tcp_port: {tcp_port}\n  udp_port: {udp_port}\n  use_external_ip: false\n"
        # livekit-server dispatches only to workers whose reported CPU load is below
        # target_load (0.7 by default); raised here so a test machine busy with other work
        # still gets calls. It is no guarantee: on a saturated host the server was seen to
        # refuse dispatch all the same, so benches count failed calls instead of assuming one.
        "agents:\n  target_load: 2.0\n"
    )
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [
                str(livekit_server_binary()),
                "--dev",
                "--bind",
                "127.0.0.1",
                "--node-ip",
                "127.0.0.1",
                "--config-body",
                config,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_http(f"http://127.0.0.1:{port}/", 30, proc)
    except Exception as error:
        stop(proc)
        if "address already in use" in _log_tail(log_path):
            raise _PortTaken from None
        raise RuntimeError(
            f"livekit-server did not start (log: {log_path}): {_log_tail(log_path)}"
        ) from error
    except BaseException:
        stop(proc)
        raise
    return LiveKit(f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}"), proc


def start_scripted_openai(log_path: Path | None = None, *args: str) -> tuple[str, subprocess.Popen]:  # type: ignore[type-arg]
    """The scripted OpenAI-compatible server; its log (what it heard) goes to `log_path`.
    `args`: more of its options (e.g. "--realtime-order", "after_response_done")."""
    port = free_port()
    log = open(log_path, "wb") if log_path else None  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "testkit.openai_server", "--port", str(port), *args],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT if log else None,
    )
    if log:
        log.close()
    try:
        wait_http(f"http://127.0.0.1:{port}/health", 30, proc)
    except BaseException:
        stop(proc)
        raise
    return f"http://127.0.0.1:{port}/v1", proc


@dataclass
class Worker:
    env: dict[str, str]
    data: Path
    log_path: Path
    proc: subprocess.Popen  # type: ignore[type-arg]

    @property
    def agent_name(self) -> str:
        return self.env["AGENT_NAME"]

    @property
    def memory_path(self) -> Path:
        return Path(self.env["CONTEXTDB_LOCAL_PATH"])

    @property
    def calendar_path(self) -> Path:
        return Path(self.env["CALENDAR_LOCAL_PATH"])

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def tracebacks(self) -> list[str]:
        """The tracebacks in the worker's log, but for livekit-agents' own process-join race
        (see `_LIBRARY_JOIN_RACE`)."""
        return tracebacks_in(self.log())

    async def wait_for_log(self, text: str, *, count: int = 1, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while self.log().count(text) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"worker never logged {text!r} x{count}")
            await asyncio.sleep(0.1)


def worker_env(livekit: LiveKit, openai_url: str, *, name_tag: str = "") -> dict[str, str]:
    """What every test worker (a process here, or the containerised one) is configured with."""
    return {
        "LIVEKIT_URL": livekit.url,
        "LIVEKIT_API_KEY": API_KEY,
        "LIVEKIT_API_SECRET": API_SECRET,
        "OPENAI_API_KEY": "scripted",
        "OPENAI_BASE_URL": openai_url,
        "IDENTITY_SIGNING_SECRET": IDENTITY_SECRET,
        # One name per worker: a stopped worker from another test can never take the call.
        "AGENT_NAME": f"{AGENT_NAME}-{name_tag}{uuid.uuid4().hex[:6]}",
        # A warm job process answers dispatch at once, as in production (one is enough here).
        "WORKER_NUM_IDLE_PROCESSES": "1",
        # Dispatched on a busy host too: the tests' own CPU is no reason to refuse a call.
        "WORKER_MAX_CALLS": "8",
        # A leaked engine process exits on its own soon after the test.
        "CONTEXTDB_ENGINE_IDLE_EXIT_S": "60",
    }


def start_worker(livekit: LiveKit, openai_url: str, data: Path, **overrides: str) -> Worker:
    data.mkdir(parents=True, exist_ok=True)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CONTEXTDB_", "MEMORY_"))},
        **worker_env(livekit, openai_url),
        "CONTEXTDB_LOCAL_PATH": str(data / "memory.sqlite3"),
        "MEMORY_OUTBOX_PATH": str(data / "outbox.sqlite3"),
        "CALENDAR_LOCAL_PATH": str(data / "calendar.sqlite3"),
        "ATTESTATION_PATH": str(data / "attestations.sqlite3"),
        "CUSTOMER_DIRECTORY_PATH": str(data / "customers.sqlite3"),
        "PYTHONUNBUFFERED": "1",
        **overrides,
    }
    log_path = data / "worker.log"
    log = open(log_path, "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "agent.py", "dev"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    log.close()
    worker = Worker(env, data, log_path, proc)
    deadline = time.monotonic() + 60
    while "registered worker" not in worker.log():
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError("worker did not register:\n" + worker.log()[-4000:])
        time.sleep(0.2)
    return worker


@dataclass
class Caller:
    """A caller participant: text in on lk.chat, the agent's words out on lk.transcription."""

    room: rtc.Room
    customer_id: str
    agent_messages: list[str] = field(default_factory=list)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def next_message(self, timeout_s: float = 20) -> str:
        deadline = asyncio.get_running_loop().time() + timeout_s
        seen = len(self.agent_messages)
        while len(self.agent_messages) <= seen:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"no agent message; so far: {self.agent_messages}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), timeout=remaining)
        return self.agent_messages[seen]

    async def say(self, text: str, *, replies: int = 1, timeout_s: float = 20) -> list[str]:
        seen = len(self.agent_messages)
        await self.room.local_participant.send_text(text, topic="lk.chat")
        deadline = asyncio.get_running_loop().time() + timeout_s
        while len(self.agent_messages) < seen + replies:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(
                    f"waiting for {replies} replies; got {self.agent_messages[seen:]}"
                )
            await asyncio.sleep(0.05)
        return self.agent_messages[seen:]

    async def hang_up(self) -> None:
        await self.room.disconnect()


async def join_as_caller(
    livekit: LiveKit,
    worker: Worker,
    customer_id: str,
    *,
    room_name: str | None = None,
    token: str | None = None,
) -> Caller:
    room_name = room_name or f"call-{uuid.uuid4().hex[:8]}"
    token = token or mint_participant_token(
        api_key=API_KEY,
        api_secret=API_SECRET,
        room_name=room_name,
        participant_identity=f"caller-{uuid.uuid4().hex[:6]}",
        customer_id=customer_id,
        identity_secret=IDENTITY_SECRET,
        agent_name=worker.agent_name,
    )
    room = rtc.Room()
    caller = Caller(room, customer_id)
    readers: set[asyncio.Task[None]] = set()

    def on_text(reader: rtc.TextStreamReader, sender: str) -> None:
        async def read() -> None:
            try:
                text = await reader.read_all()
            except rtc.StreamError:
                return  # the caller hung up mid-message
            if sender.startswith("agent") and text.strip():
                caller.agent_messages.append(text)
                caller._arrived.set()

        task = asyncio.ensure_future(read())
        readers.add(task)
        task.add_done_callback(readers.discard)

    room.register_text_stream_handler("lk.transcription", on_text)
    await room.connect(livekit.url, token)
    return caller
