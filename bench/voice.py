"""The project's voice benchmark: voicebench against the worker and a bare LiveKit agent.

    python -m bench.voice [--rounds 2] [--scenarios greeting,plain_turns,booking,barge_in,cough]
        [--load 0] [--load-s 900] [--targets on,off,bare] [--concurrency 1,2,4] [--json out.json]
        [--snapshot-calls 0] [--phone-ring-s 0] [--phone-calls 6]

One run on a real livekit-server (loopback) with three targets, calls interleaved so drift
on the machine hits all alike:

    memory on    the worker (`agent.py dev`), a returning caller with a signed identity claim
    memory off   the same worker with MEMORY_ENABLED=false (same claim)
    bare         bench/bare_agent.py: LiveKit with the same plugins, no memory, no tools

All use Silero VAD with TURN_DETECTION=vad and the OpenAI plugins against the scripted
OpenAI-compatible server (testkit.openai_server), so model time is ~0 and what is left is
the agent's own cost. The caller is voicebench's LiveKit adapter (`voicebench[livekit]`),
subclassed only to mint the token the project's way (identity claim attribute, dispatch in
the token) and to time the agent joining and its first audio. voicebench times everything
else from the recorded audio: response (end of caller speech → agent speech), barge-in stop.

`--load N` runs the measured rounds twice in one run: quiet, then with N busy processes for at
most `--load-s` seconds (a fixed, reproducible CPU load; they stop by themselves), so call
start is compared quiet and contended in the same run. `--json` is rewritten after every call.
After each phase's interleaved rounds, memory on only (counted for the snapshot rates, not in
the table): `--snapshot-calls N` more web callers under the load, and with `--phone-ring-s S`
`--phone-calls` phone callers (SIP kind, in the worker's customer directory) who ring for S
seconds before the bench answers, their greeting timed from the answer.

Printed, per phase: p50/p90 of agent joined and greeting (first agent audio), each from the
caller being in the room and from the caller's join request (where an outside harness starts
its clock); how many memory-on greetings had the caller's snapshot in the instructions;
response, barge-in stop; CPU per call-second of each target's process group (the worker,
its job processes and, for memory on, the engine process); idle job-process CPU and job
start-up time; `error initializing process` count; the load average during the run. With
`--concurrency`, then N plain-turn calls at once per target: response p50/p90 (capacity:
the largest N whose p90 stays under 1.5 s, per core).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import yaml
from livekit import api, rtc
from voicebench import audio as au
from voicebench.adapters.base import AdapterError, AgentAudio
from voicebench.adapters.livekit import LiveKitAdapter
from voicebench.metrics import analyze
from voicebench.runner import run
from voicebench.scenario import Scenario, parse_scenario

from contextdb_livekit.identity.host_tokens import mint_participant_token
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from testkit.engine import stop_engine_if_running
from testkit.harness import (
    API_KEY,
    API_SECRET,
    IDENTITY_SECRET,
    ROOT,
    LiveKit,
    Worker,
    start_livekit_server,
    start_scripted_openai,
    stop,
    worker_env,
)
from testkit.harness import start_worker as start_project_worker
from testkit.history import seed_history
from testkit.sip import answer as answer_sip_call
from testkit.sip import sip_token
from testkit.speech import render_pcm

SCENARIO_DIR = Path(__file__).with_name("voice_scenarios")
SCENARIOS = ("greeting", "plain_turns", "booking", "barge_in", "cough")
TARGETS = ("on", "off", "bare")
LABELS = {"on": "memory on", "off": "memory off", "bare": "bare agent"}
SILENT_DBFS = -70.0  # decoded silence (voicebench drops packets below this too)
VOICE_DBFS = -40.0  # an agent packet louder than this carries voice (espeak-ng: ~-12 dBFS)
SETTLE_S = 1.5  # after a call: its job process ends, a warm one replaces it


# -- the caller ---------------------------------------------------------------------------


class ProjectLiveKitAdapter(LiveKitAdapter):
    """voicebench's LiveKit adapter with the project's token and call-start timing.

    `token` is minted by the bench (identity claim and dispatch, as the host mints it); the
    adapter records when the caller was in the room, when the agent joined it and when the
    agent's first voiced audio arrived (monotonic), then starts session time at that point
    so the scripted turns are paced from a caller already in the call."""

    name = "project-livekit"

    def __init__(
        self,
        *,
        token: str,
        ring_s: float = 0.0,
        answer: Callable[[], Awaitable[None]] | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self._token = token
        # A phone caller: in the room ringing for `ring_s`, then `answer` (the SIP service's
        # ringing -> active update); the call starts, and is timed, from the answer.
        self._ring_s = ring_s
        self._answer = answer
        self.join_requested_at: float | None = None
        self.in_room_at: float | None = None
        self.agent_joined_at: float | None = None
        self.first_voice_at: float | None = None

    async def connect(self) -> None:
        room = rtc.Room()
        self._room = room

        def on_track(track: rtc.Track, _pub: Any, _participant: Any) -> None:
            if track.kind == rtc.TrackKind.KIND_AUDIO:
                self._agent_joined.set()
                task = asyncio.ensure_future(self._read_track(track))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        def on_participant(participant: rtc.RemoteParticipant) -> None:
            if (
                participant.kind == rtc.ParticipantKind.PARTICIPANT_KIND_AGENT
                and self.agent_joined_at is None
            ):
                self.agent_joined_at = time.monotonic()

        room.on("track_subscribed", on_track)
        room.on("participant_connected", on_participant)
        # The second reference point: an outside harness times from the join request.
        self.join_requested_at = time.monotonic()
        await room.connect(self.url, self._token)
        self.in_room_at = time.monotonic()
        for participant in room.remote_participants.values():
            on_participant(participant)
        if self._answer is not None:
            await asyncio.sleep(self._ring_s)
            await self._answer()
            self.in_room_at = time.monotonic()  # the call starts at the answer
        self._source = rtc.AudioSource(self.session.sample_rate, 1)
        track = rtc.LocalAudioTrack.create_audio_track("microphone", self._source)
        publication = await room.local_participant.publish_track(
            track, rtc.TrackPublishOptions(source=rtc.TrackSource.SOURCE_MICROPHONE)
        )
        self._user_track_sid = publication.sid
        try:
            await asyncio.wait_for(self._agent_joined.wait(), timeout=self.wait_for_agent_s)
        except TimeoutError as exc:
            await self.close()
            raise AdapterError(f"no agent audio track after {self.wait_for_agent_s:g} s") from exc
        # Session time starts now: the runner would otherwise burst the join time's worth of
        # frames into the audio source. Anything already received keeps its real offset.
        clock = self.session.clock
        shift = time.monotonic() - clock._origin  # type: ignore[attr-defined]
        clock._origin += shift  # type: ignore[attr-defined]
        self._pending = [
            AgentAudio(e.pcm, e.time - shift) if isinstance(e, AgentAudio) else e
            for e in self._pending
        ]

    def emit(self, event: Any) -> None:
        if isinstance(event, AgentAudio):
            level = au.rms_dbfs(event.pcm)
            if level < SILENT_DBFS:
                # LiveKit delivers the agent's track as a continuous stream, silence included;
                # recorded, it keeps voicebench's playout ahead of the session clock and a
                # finished session runs on to max_duration_ms. Unrecorded silence is silence.
                return
            if self.first_voice_at is None and level > VOICE_DBFS:
                self.first_voice_at = time.monotonic()
        super().emit(event)


# -- targets and their processes ------------------------------------------------------------


@dataclass
class Target:
    key: str
    worker: Worker
    customers: list[str] = field(default_factory=list)
    # Phone numbers of seeded customers, in the worker's customer directory.
    phones: list[tuple[str, str]] = field(default_factory=list)

    def phone_token(self, room: str) -> tuple[str, str]:
        """A SIP-kind participant, ringing, as LiveKit's SIP service mints it (the worker
        resolves `sip.phoneNumber` in its directory); and its identity."""
        phone, _customer = self.phones.pop()
        identity = f"sip_{phone}"
        return sip_token(room, identity, phone, self.worker.agent_name, "ringing"), identity

    def token(self, room: str) -> str:
        if self.key == "bare":
            return (
                api.AccessToken(API_KEY, API_SECRET)
                .with_identity(f"caller-{uuid.uuid4().hex[:6]}")
                .with_grants(api.VideoGrants(room_join=True, room=room))
                .with_room_config(
                    api.RoomConfiguration(
                        agents=[api.RoomAgentDispatch(agent_name=self.worker.agent_name)]
                    )
                )
                .to_jwt()
            )
        customer = self.customers.pop() if self.customers else f"cust-{uuid.uuid4().hex[:8]}"
        return mint_participant_token(
            api_key=API_KEY,
            api_secret=API_SECRET,
            room_name=room,
            participant_identity=f"caller-{uuid.uuid4().hex[:6]}",
            customer_id=customer,
            identity_secret=IDENTITY_SECRET,
            agent_name=self.worker.agent_name,
        )


def start_bare_agent(livekit: LiveKit, openai_url: str, data: Path, **overrides: str) -> Worker:
    data.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **worker_env(livekit, openai_url, name_tag="bare-"), **overrides}
    env["PYTHONUNBUFFERED"] = "1"
    log_path = data / "worker.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("bare_agent.py")), "dev"],
            cwd=data,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    worker = Worker(env, data, log_path, proc)
    deadline = time.monotonic() + 60
    while "registered worker" not in worker.log():
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError("bare agent did not register:\n" + worker.log()[-4000:])
        time.sleep(0.2)
    return worker


def group(target: Target) -> list[psutil.Process]:
    """The target's processes: the worker and every descendant, plus the memory engine
    (its own session, so not a descendant) for the worker with memory."""
    try:
        root = psutil.Process(target.worker.proc.pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []
    if target.key == "on":
        db = str(target.worker.memory_path)
        for proc in psutil.process_iter(["cmdline"]):
            cmdline = proc.info.get("cmdline") or []
            if "contextdb_livekit.backends.engine_service" in cmdline and db in cmdline:
                procs.append(proc)
    return procs


def cpu_seconds(target: Target) -> float:
    """User + system CPU of the group, including reaped children (a job process that ended
    is counted in its parent's children times)."""
    total = 0.0
    for proc in group(target):
        with contextlib.suppress(psutil.Error):
            times = proc.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def idle_job_processes(target: Target) -> list[float]:
    """CPU seconds each warm (not yet used) job process has burnt so far."""
    out = []
    for proc in group(target):
        with contextlib.suppress(psutil.Error):
            parent = proc.parent()
            # Job processes are the forkserver's children (and carry its command line).
            if parent is None or "forkserver" not in " ".join(parent.cmdline()):
                continue
            times = proc.cpu_times()
            out.append(times.user + times.system)
    return sorted(out)


_INIT = re.compile(r"process initialized.*?\"elapsed_time\": ([0-9.]+)")


def startup_times(log_text: str) -> list[float]:
    return [float(m) for m in _INIT.findall(log_text)]


def phase_rows(log_text: str) -> dict[str, str]:
    """A target's job start-up and loop blocks from its log during one phase's interleaved
    rounds (a whole-run figure would weigh each target's phases by how many calls it took)."""
    boot = startup_times(log_text)
    return {
        "job start-up s p50 / max (interleaved rounds)": (
            f"{statistics.median(boot):.2f} / {max(boot):.2f}" if boot else "—"
        ),
        # LiveKit's loop monitor: the job's event loop held >= 100 ms.
        "job event-loop blocks >= 100 ms (interleaved rounds)": str(
            log_text.count("event loop blocked")
        ),
    }


# -- the bounded load ----------------------------------------------------------------------


def _burn(deadline: float) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the bench's own handler
    x = 0
    while time.monotonic() < deadline:
        for _ in range(10000):
            x += 1


def start_load(processes: int, seconds: float) -> list[multiprocessing.Process]:
    deadline = time.monotonic() + seconds
    procs = [
        multiprocessing.get_context("fork").Process(target=_burn, args=(deadline,), daemon=True)
        for _ in range(processes)
    ]
    for proc in procs:
        proc.start()
    return procs


# -- scenarios -----------------------------------------------------------------------------


def load_scenarios(names: list[str], audio_dir: Path) -> dict[str, Scenario]:
    """The YAML files under bench/voice_scenarios; each `lines/*.wav` is rendered from the
    turn's `text` with espeak-ng (what testkit's scripted STT recognises)."""
    out = {}
    for name in names:
        data = yaml.safe_load((SCENARIO_DIR / f"{name}.yaml").read_text())
        for turn in data["turns"]:
            file = turn.get("audio", {}).get("file")
            if file and not (audio_dir / file).exists():
                (audio_dir / file).parent.mkdir(parents=True, exist_ok=True)
                pcm = np.frombuffer(render_pcm(turn["text"], 16000), dtype=np.int16)
                au.write_wav(audio_dir / file, au.from_pcm16(pcm.tobytes()), 16000)
        out[name] = parse_scenario(data, base_dir=audio_dir, source=SCENARIO_DIR / f"{name}.yaml")
    return out


# -- one session ---------------------------------------------------------------------------


@dataclass
class Sample:
    target: str
    scenario: str
    phase: str = "quiet"
    # From the caller being in the room, and from the caller's join request.
    joined_ms: float | None = None
    greeting_ms: float | None = None
    joined_from_request_ms: float | None = None
    greeting_from_request_ms: float | None = None
    response_ms: list[float] = field(default_factory=list)
    stop_ms: list[float] = field(default_factory=list)
    false_barge_ins: int = 0
    talk_overs: int = 0
    failed_turns: int = 0
    call_s: float = 0.0
    cpu_s: float = 0.0
    error: str = ""
    # A phone caller ringing this long before the answer (0: a web caller).
    ring_s: float = 0.0
    # Memory on: was the caller's snapshot in the instructions before the greeting?
    snapshot: bool | None = None


async def one_session(
    livekit: LiveKit, target: Target, name: str, scenario: Scenario, *, ring_s: float = 0.0
) -> Sample:
    sample = Sample(target.key, name, ring_s=ring_s)
    room = f"vb-{name}-{target.key}-{uuid.uuid4().hex[:6]}"
    answer: Callable[[], Awaitable[None]] | None = None
    if ring_s > 0:
        token, identity = target.phone_token(room)

        async def answer() -> None:
            await answer_sip_call(livekit.http_url, room, identity)

    else:
        token = target.token(room)
    log_from = len(target.worker.log())
    adapter = ProjectLiveKitAdapter(
        token=token,
        ring_s=ring_s,
        answer=answer,
        url=livekit.url,
        api_key=API_KEY,
        api_secret=API_SECRET,
        room=room,
        wait_for_agent_s=60,
    )
    cpu_before, started = cpu_seconds(target), time.monotonic()
    try:
        record = await run(scenario, adapter, realtime=True)
    except Exception as exc:
        sample.error = f"{type(exc).__name__}: {exc}"
        return sample
    finally:
        sample.call_s = time.monotonic() - started
        await asyncio.sleep(SETTLE_S)
        sample.cpu_s = cpu_seconds(target) - cpu_before
        if target.key == "on":
            sample.snapshot = greeted_with_snapshot(target.worker.log()[log_from:])
    sample.joined_ms = since(adapter.in_room_at, adapter.agent_joined_at)
    sample.greeting_ms = since(adapter.in_room_at, adapter.first_voice_at)
    sample.joined_from_request_ms = since(adapter.join_requested_at, adapter.agent_joined_at)
    sample.greeting_from_request_ms = since(adapter.join_requested_at, adapter.first_voice_at)
    metrics = analyze(record)
    for turn in metrics.turns:
        if turn.expect == "respond" and turn.talk_over:
            sample.talk_overs += 1  # the agent was already talking: not a response time
        elif turn.expect == "respond" and turn.response_latency_ms is not None:
            sample.response_ms.append(turn.response_latency_ms)
        if turn.expect == "stop" and turn.stop_latency_ms is not None:
            sample.stop_ms.append(turn.stop_latency_ms)
        if turn.false_barge_in or turn.spurious_response:
            sample.false_barge_ins += 1
        if not turn.passed:
            sample.failed_turns += 1
    return sample


def since(start: float | None, end: float | None) -> float | None:
    return None if start is None or end is None else (end - start) * 1000


def snapshot_outcomes(log_text: str) -> tuple[int, int]:
    """Memory-on calls whose snapshot was in the instructions before the greeting, and all
    memory-on calls, from the worker's "snapshot for caller" lines (`worker.call`)."""
    lines = [line for line in log_text.splitlines() if "snapshot for caller" in line]
    return sum("(unavailable" not in line for line in lines), len(lines)


def greeted_with_snapshot(call_log: str) -> bool:
    """One memory-on call's log: was the snapshot in the instructions before the greeting?"""
    hits, calls = snapshot_outcomes(call_log)
    return calls > 0 and hits == calls


# -- the report ----------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def cell(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):.0f} / {pct(values, 0.9):.0f}"


def table(samples: list[Sample], targets: list[str], extra: dict[str, dict[str, str]]) -> str:
    def col(key: str, pick: Any) -> list[float]:
        return [v for s in samples if s.target == key for v in pick(s)]

    def one(value: float | None) -> list[float]:
        return [value] if value is not None else []

    rows = [
        ("agent joined (caller in room)", lambda s: one(s.joined_ms)),
        ("agent joined (join request)", lambda s: one(s.joined_from_request_ms)),
        ("greeting (caller in room)", lambda s: one(s.greeting_ms)),
        ("greeting (join request)", lambda s: one(s.greeting_from_request_ms)),
        ("response", lambda s: s.response_ms),
        ("barge-in stop", lambda s: s.stop_ms),
    ]
    header = "| p50 / p90 (ms) | " + " | ".join(LABELS[t] for t in targets) + " |"
    lines = [header, "| --- |" + " --- |" * len(targets)]
    for label, pick in rows:
        lines.append(f"| {label} | " + " | ".join(cell(col(t, pick)) for t in targets) + " |")

    def per_target(fn: Any) -> str:
        return " | ".join(fn(t) for t in targets)

    def cpu_rate(t: str) -> str:
        mine = [s for s in samples if s.target == t and not s.error]
        seconds = sum(s.call_s for s in mine)
        return f"{sum(s.cpu_s for s in mine) / seconds:.2f}" if seconds else "—"

    lines.append("| CPU-s per call-second (group) | " + per_target(cpu_rate) + " |")
    for label in next(iter(extra.values()), {}):
        lines.append(f"| {label} | " + per_target(lambda t, k=label: extra[t].get(k, "—")) + " |")
    lines.append(
        "| sessions (failed turns / errors / false barge-ins / talk-overs) | "
        + per_target(
            lambda t: (
                f"{sum(1 for s in samples if s.target == t)} "
                f"({sum(s.failed_turns for s in samples if s.target == t)} / "
                f"{sum(1 for s in samples if s.target == t and s.error)} / "
                f"{sum(s.false_barge_ins for s in samples if s.target == t)} / "
                f"{sum(s.talk_overs for s in samples if s.target == t)})"
            )
        )
        + " |"
    )
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> int:
    root = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    print(f"logs in {root}", flush=True)
    names = [n for n in args.scenarios.split(",") if n]
    targets = [t for t in args.targets.split(",") if t]
    wanted = [*names, *(["plain_turns"] if args.concurrency and "plain_turns" not in names else [])]
    scenarios = load_scenarios(wanted, root / "audio")
    livekit, server = start_livekit_server(root / "server.log")
    openai_url, scripted = start_scripted_openai(root / "openai.log")
    load: list[multiprocessing.Process] = []
    running: dict[str, Target] = {}
    samples: list[Sample] = []
    loads: list[float] = []
    try:
        for key in targets:
            most = max([2, *(int(x) for x in args.concurrency.split(",") if x)])
            warm = {"WORKER_NUM_IDLE_PROCESSES": str(most)}
            if key == "bare":
                worker = start_bare_agent(livekit, openai_url, root / "bare", **warm)
            else:
                extra = {"MEMORY_ENABLED": "false"} if key == "off" else {}
                worker = start_project_worker(livekit, openai_url, root / key, **warm, **extra)
            running[key] = Target(key, worker)
        phases = ["quiet", *([f"load {args.load}"] if args.load else [])]
        if "on" in running:
            on = running["on"]
            web = args.rounds * len(names) * len(phases) + args.snapshot_calls + args.warmup
            phones = args.phone_calls * len(phases) if args.phone_ring_s > 0 else 0
            directory = SqliteCustomerDirectory(on.worker.env["CUSTOMER_DIRECTORY_PATH"])
            for n in range(web + phones + 2):
                customer = f"cust-{uuid.uuid4().hex[:8]}"
                await seed_history(
                    on.worker.memory_path,
                    customer,
                    "My boiler is a Vaillant ecoTEC in the loft",
                    "Please use the side gate and ring first",
                )
                if n < phones:
                    number = f"+44207{uuid.uuid4().int % 10**7:07d}"
                    await directory.add(number, customer)
                    on.phones.append((number, customer))
                else:
                    on.customers.append(customer)
        await asyncio.sleep(8)  # warm pools, the engine up
        idle = {k: idle_job_processes(t) for k, t in running.items()}

        def snapshots() -> dict[str, dict[str, list[int]]]:
            """Memory-on calls with the snapshot in the greeting, of all, per phase and caller."""
            out: dict[str, dict[str, list[int]]] = {}
            for sample in samples:
                if sample.snapshot is not None:
                    kind = "phone" if sample.ring_s else "web"
                    hits, calls = out.setdefault(sample.phase, {}).setdefault(kind, [0, 0])
                    out[sample.phase][kind] = [hits + sample.snapshot, calls + 1]
            return out

        def save(**more: Any) -> None:
            """Written after every call (a run cut short keeps what it measured), and once
            more at the end with the per-target figures."""
            if args.json:
                Path(args.json).write_text(
                    json.dumps(
                        {
                            "load": args.load,
                            "loadavg": loads,
                            "samples": [sample.__dict__ for sample in samples],
                            "snapshot_in_greeting": snapshots(),
                            **more,
                        },
                        indent=1,
                    )
                )

        def keep(sample: Sample, phase: str) -> None:
            sample.phase = phase
            loads.append(os.getloadavg()[0])
            samples.append(sample)
            save()
            joined = (sample.joined_ms or 0, sample.joined_from_request_ms or 0)
            greeted = (sample.greeting_ms or 0, sample.greeting_from_request_ms or 0)
            print(
                f"  {phase:<7} {sample.scenario:<12} {LABELS[sample.target]:<10} joined "
                f"{joined[0]:5.0f}/{joined[1]:5.0f}"
                f"  greeting {greeted[0]:5.0f}/{greeted[1]:5.0f}  response "
                f"{[round(r) for r in sample.response_ms]} stop "
                f"{[round(r) for r in sample.stop_ms]} snapshot {sample.snapshot} "
                f"{sample.error}",
                flush=True,
            )

        interleaved_log: dict[str, dict[str, str]] = {}

        # One unmeasured call per target first: a worker's first job pays one-off costs
        # (the forkserver's first fork, first connections) that are not call start.
        for _ in range(args.warmup):
            for key in targets:
                name = "greeting" if "greeting" in scenarios else names[0]
                await one_session(livekit, running[key], name, scenarios[name])
        # Quiet rounds, then (with --load N) the same rounds under the fixed load, one run.
        for phase in phases:
            if phase != "quiet":
                load = start_load(args.load, args.load_s)
                print(f"load: {args.load} busy processes for at most {args.load_s:.0f} s")
                await asyncio.sleep(3)
            begun = {key: len(t.worker.log()) for key, t in running.items()}
            for round_ in range(args.rounds):
                for name in names:
                    order = targets[round_ % len(targets) :] + targets[: round_ % len(targets)]
                    for key in order:
                        sample = await one_session(livekit, running[key], name, scenarios[name])
                        keep(sample, phase)
            # Like for like: what each target's log says during the interleaved rounds.
            interleaved_log[phase] = {
                key: t.worker.log()[begun[key] :] for key, t in running.items()
            }
            # Memory on only, counted for the snapshot rates and not in the interleaved
            # table: more web callers, then phone callers who ring before the answer.
            if "on" in running and "greeting" in scenarios:
                for _ in range(args.snapshot_calls if phase != "quiet" else 0):
                    sample = await one_session(
                        livekit, running["on"], "greeting", scenarios["greeting"]
                    )
                    sample.scenario = "greeting (snapshot count)"
                    keep(sample, phase)
                if args.phone_ring_s > 0:
                    for _ in range(args.phone_calls):
                        sample = await one_session(
                            livekit,
                            running["on"],
                            "greeting",
                            scenarios["greeting"],
                            ring_s=args.phone_ring_s,
                        )
                        sample.scenario = f"phone, ringing {args.phone_ring_s:g} s"
                        keep(sample, phase)
        capacity = []
        for n in [int(x) for x in args.concurrency.split(",") if x]:
            for key in targets:
                started_load = os.getloadavg()[0]
                batch = await asyncio.gather(
                    *(
                        one_session(livekit, running[key], "plain_turns", scenarios["plain_turns"])
                        for _ in range(n)
                    )
                )
                responses = [r for s in batch for r in s.response_ms]
                errors = sum(1 for s in batch if s.error or s.failed_turns)
                capacity.append((n, key, responses, errors, max(started_load, os.getloadavg()[0])))
                p90 = pct(responses, 0.9)
                print(
                    f"  {n} concurrent {LABELS[key]:<10} response p50/p90 {cell(responses)} ms"
                    f"  failed {errors}  p90 < 1.5 s: {p90 is not None and p90 < 1500}",
                    flush=True,
                )
                await asyncio.sleep(3)
        extra: dict[str, dict[str, str]] = {}
        for key, target in running.items():
            log = target.worker.log()
            extra[key] = {
                "idle job process CPU-s (each)": (
                    " ".join(f"{c:.2f}" for c in idle[key]) if idle[key] else "—"
                ),
                "`error initializing process` (whole run)": str(
                    log.count("error initializing process")
                ),
                "snapshot timed out (whole run)": str(log.count("unavailable: timed out")),
            }
        print()
        load_text = (
            f"load average (1 min) during the run: median {statistics.median(loads):.1f}, "
            f"max {max(loads):.1f}; {os.cpu_count()} cores; bench load {args.load} processes"
            if loads
            else ""
        )
        print(load_text)
        rates = snapshots()
        for phase in phases:
            web_hits, web_calls = rates.get(phase, {}).get("web", [0, 0])
            rows = {
                key: {
                    **extra[key],
                    **phase_rows(interleaved_log.get(phase, {}).get(key, "")),
                    "snapshot in the greeting": f"{web_hits} of {web_calls}"
                    if key == "on"
                    else "—",
                }
                for key in extra
            }
            print(
                f"\n{phase} (joined and greeting: from the caller in the room / from the join"
                " request)"
            )
            interleaved = [s for s in samples if s.phase == phase and s.scenario in scenarios]
            print(table(interleaved, list(running), rows))
            rung = [s for s in samples if s.phase == phase and s.ring_s]
            if rung:
                hits, calls = rates[phase]["phone"]
                greeted = [s.greeting_ms for s in rung if s.greeting_ms is not None]
                print(
                    f"phone callers ringing {args.phone_ring_s:g} s: snapshot in the greeting "
                    f"{hits} of {calls}; greeting from the answer p50 / p90 {cell(greeted)} ms"
                )
        if capacity:
            print()
            print("| concurrent calls | target | response p50 / p90 (ms) | failed | load (1 min) |")
            print("| --- | --- | --- | --- | --- |")
            for n, key, responses, errors, load_now in capacity:
                print(f"| {n} | {LABELS[key]} | {cell(responses)} | {errors} | {load_now:.1f} |")
        save(extra=extra, capacity=capacity)
        return 0
    finally:
        for proc in load:
            proc.terminate()
        for target in running.values():
            stop(target.worker.proc, timeout_s=30)
        if "on" in running:
            await stop_engine_if_running(running["on"].worker.memory_path)
        stop(scripted)
        stop(server)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="sessions per scenario and target")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured calls per target")
    parser.add_argument("--load", type=int, default=0, help="busy processes during the calls")
    parser.add_argument("--load-s", type=float, default=900.0, help="the load stops after this")
    parser.add_argument(
        "--concurrency",
        default="",
        help="then N plain-turn calls at once per target, e.g. 1,2,4 (capacity)",
    )
    parser.add_argument(
        "--snapshot-calls",
        type=int,
        default=0,
        help="then N more memory-on greeting calls under the load, for the snapshot rate only",
    )
    parser.add_argument(
        "--phone-ring-s",
        type=float,
        default=0.0,
        help="then memory-on phone callers (SIP kind) who ring this long before the answer",
    )
    parser.add_argument("--phone-calls", type=int, default=6, help="phone callers per phase")
    parser.add_argument("--json", help="also write every sample here")
    return parser.parse_args(argv)


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the bench the way ^C does: everything it started


if __name__ == "__main__":
    os.chdir(ROOT)
    signal.signal(signal.SIGTERM, _interrupt)
    sys.exit(asyncio.run(main(parse_args())))
