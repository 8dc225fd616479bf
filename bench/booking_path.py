"""Which project files one booking runs, from the caller's yes to the spoken result.

    python -m bench.booking_path [--no-engine-service]

One whole call through the real `AgentSession` with the scripted (obedient) model and the
in-process local engine (pycontextdb in this process, as the `local_engine` fixture has it):
the caller asks for a visit on Thursday, the host reads it back, the caller says "yes please"
and `confirm_read_back` books it. From that yes until the result ("Booked ...") is spoken,
a profile hook on every thread (`sys.setprofile` and `threading.setprofile`, installed before
anything opens so the SQLite worker threads carry it too) records each source file a Python
function of which runs; only the library's (src/contextdb_livekit/) and the starter's files
are kept. The booking is
checked (one booking, exactly one `succeeded` receipt, every decision closed) before anything
is printed.

Printed: the files that ran, by package folder; which of them the engine service process
imports (`engine_sources()`: with the in-process engine both sides run in one process). Then,
unless --no-engine-service, the same call once more with the engine in its own service process
(started here with the same hook, recording toggled by signals): the worker side's files and
the engine process's files, each by package folder. Last, "lines a fork owns": non-blank lines
and files of .py of the starter (the repository root) against the library's.

Numbers only, no assertions on timings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = (ROOT / "src" / "contextdb_livekit").resolve()
# The starter: the line's own code at the repository root (README "Layout").
STARTER = (
    "agent.py",
    "line.py",
    "drain.py",
    "tools",
    "memory",
    "calendar_client",
    "billing_client",
)
FOLDERS = (
    *(f"starter/{name}" for name in STARTER),
    *(f"lib/{name}" for name in ("kit", "memory", "delivery", "stores", "identity", "worker")),
    *("lib/caller_data", "lib/(package root)"),
)


class FileTrace:
    """Every source file a Python function of which is entered while `recording` is on, on
    every thread started after `install()` and on the installing thread."""

    def __init__(self) -> None:
        self.recording = False
        self.files: set[str] = set()

    def _hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.recording and event == "call":
            self.files.add(frame.f_code.co_filename)

    def install(self) -> None:
        threading.setprofile(self._hook)
        sys.setprofile(self._hook)

    def uninstall(self) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]

    def project_files(self) -> list[Path]:
        return project_only(self.files)


def project_only(files: Iterable[str]) -> list[Path]:
    """The library's and the starter's files, relative to the repository root."""
    kept = set()
    for name in files:
        path = Path(name).resolve()
        if path.suffix != ".py" or not path.is_relative_to(ROOT):
            continue
        relative = path.relative_to(ROOT)
        if path.is_relative_to(PACKAGE_DIR) or relative.parts[0] in STARTER:
            kept.add(relative)
    return sorted(kept)


def folder_of(relative: Path) -> str:
    if relative.parts[0] in STARTER:
        return f"starter/{relative.parts[0]}"
    inside = relative.relative_to("src/contextdb_livekit")
    return f"lib/{inside.parts[0] if len(inside.parts) > 1 else '(package root)'}"


def print_files(title: str, files: list[Path], mark: Callable[[Path], str] | None = None) -> None:
    print(f"{title}: {len(files)} project files")
    by_folder: dict[str, list[Path]] = {}
    for path in files:
        by_folder.setdefault(folder_of(path), []).append(path)
    for folder in FOLDERS:
        if folder in by_folder:
            print(f"  {folder:<24}{len(by_folder[folder]):>3}")
    for folder in sorted(set(by_folder) - set(FOLDERS)):
        print(f"  {folder:<24}{len(by_folder[folder]):>3}")
    for path in files:
        print(f"    {path.as_posix()}{mark(path) if mark else ''}")


def calendar_of(host: Any) -> Any:
    """The line's booking system: in the line's systems (`host.line`), or the host's own
    `calendar` on revisions before that split."""
    line = getattr(host, "line", None)
    return line.calendar if line is not None else host.calendar


# --- the call -------------------------------------------------------------------------------


async def booking_call(workdir: Path, backend: Any, trace: Any) -> dict[str, Any]:
    """The call; `trace` is turned on at the yes and off when the result is spoken (an object
    with a `recording` attribute, or a (start, stop) pair of coroutine functions)."""
    from livekit.agents import llm

    from scenarios.text_call import start_text_call
    from testkit.scripted_llm import ScriptedLLM

    model = ScriptedLLM()
    call, session = await start_text_call(workdir, backend, model)
    customer = call.context.identity.customer_id  # type: ignore[union-attr]
    host = call.context.host
    try:
        await session.run(user_input="I'd like to book a visit on thursday")
        readback = next(
            item.text_content
            for item in reversed(session.history.items)
            if item.type == "message" and item.role == "assistant"
        )
        assert (await calendar_of(host).bookings_for(customer)) == [], "booked before the yes"
        loop = asyncio.get_running_loop()
        spoken: asyncio.Future[float] = loop.create_future()
        result_text: list[str] = []

        def on_item(event) -> None:  # type: ignore[no-untyped-def]
            item = event.item
            if not isinstance(item, llm.ChatMessage) or item.role != "assistant":
                return
            text = item.text_content or ""
            if text.startswith("Booked") and not spoken.done():
                trace_stop()
                result_text.append(text)
                spoken.set_result(time.perf_counter())

        if isinstance(trace, tuple):
            start, stop = trace

            def trace_stop() -> None:
                stop()

            await start()
        else:

            def trace_stop() -> None:
                trace.recording = False

        session.on("conversation_item_added", on_item)
        said_yes = time.perf_counter()
        if not isinstance(trace, tuple):
            trace.recording = True
        trips_before = len(model.requests)
        await session.run(user_input="yes please")
        spoken_at = await asyncio.wait_for(spoken, timeout=30)
        trips = len(model.requests) - trips_before

        bookings = await calendar_of(host).bookings_for(customer)
        trail = await backend.decision_trail(customer)
        succeeded = [d for d in trail if d.status == "succeeded"]
        assert len(bookings) == 1, bookings
        assert len(succeeded) == 1, trail
        assert all(d.status is not None for d in trail), trail
        assert succeeded[0].external_ref == bookings[0].booking_id, (succeeded, bookings)
        return {
            "readback": readback,
            "result": result_text[0],
            "booking": f"{bookings[0].day} ({bookings[0].booking_id})",
            "trail": [(d.outcome, d.status, d.policy_alignment) for d in trail],
            "round_trips": trips,
            "wall_ms": (spoken_at - said_yes) * 1000,
        }
    finally:
        await session.aclose()


def print_call(facts: dict[str, Any]) -> None:
    print(f"  read back:    {facts['readback']}")
    print("  caller:       yes please")
    print(f"  spoken:       {facts['result']}")
    print(f"  booking:      {facts['booking']}")
    trail = ", ".join(f"{o}/{s}/{a}" for o, s, a in facts["trail"])
    succeeded = sum(1 for _, s, _ in facts["trail"] if s == "succeeded")
    print(f"  decisions:    {trail}  (receipts succeeded: {succeeded})")
    print(
        f"  yes -> result: {facts['round_trips']} model round trips, "
        f"{facts['wall_ms']:.1f} ms wall (traced, so slower than untraced)"
    )


# --- the engine service with the hook -------------------------------------------------------


def serve_traced(out: Path, argv: list[str]) -> int:
    """The engine service's own `main`, with the hook: SIGUSR1 starts recording, SIGUSR2 stops
    it and writes the files seen to `out` (then `out.stopped`); SIGUSR1 writes `out.started`."""
    trace = FileTrace()
    trace.install()

    def start(signum: int, frame: Any) -> None:
        trace.files.clear()
        trace.recording = True
        Path(f"{out}.started").write_text("")

    def stop(signum: int, frame: Any) -> None:
        trace.recording = False
        out.write_text(json.dumps(sorted(trace.files)))
        Path(f"{out}.stopped").write_text("")

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    from contextdb_livekit.backends.engine_service import main

    return main(argv)


async def wait_for_file(path: Path, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {path}")
        await asyncio.sleep(0.01)


def spawn_traced_engine(db_path: Path, socket_path: Path, out: Path, version: str) -> Any:
    """`serve_traced` in a child process; its log next to the database."""
    with open(db_path.with_name("engine.log"), "wb") as log_file:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.booking_path",
                "--serve-traced",
                str(out),
                "--db",
                str(db_path),
                "--socket",
                str(socket_path),
                "--idle-exit-s",
                "600",
                "--embedding-model",
                "mock",
                "--version",
                version,
            ],
            cwd=Path(__file__).resolve().parents[1],
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=log_file,
        )


def stop_traced_engine(engine: Any) -> None:
    engine.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        engine.wait(timeout=10)
    if engine.poll() is None:
        engine.kill()
        engine.wait()


async def through_engine_service(workdir: Path, trace: FileTrace) -> None:
    from contextdb_livekit.backends.engine_client import (
        connect_local_engine,
        engine_version,
        probe_engine,
        socket_path_for,
    )

    db_path = (workdir / "memory.sqlite3").resolve()
    out = workdir / "engine_files.json"
    engine = await asyncio.to_thread(
        spawn_traced_engine, db_path, socket_path_for(db_path), out, engine_version("mock")
    )
    failed = True
    try:
        # Wait until it answers, so the client finds it (same version) instead of spawning
        # an engine of its own.
        deadline = time.monotonic() + 30
        while (info := await probe_engine(socket_path_for(db_path))) is None:
            if engine.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the traced engine service did not start")
            await asyncio.sleep(0.05)
        assert info.get("version") == engine_version("mock"), info
        backend = await connect_local_engine(db_path, start_timeout_s=30)
        try:
            assert await backend.engine_pid() == engine.pid, "not the traced engine"

            async def start() -> None:
                engine.send_signal(signal.SIGUSR1)
                await wait_for_file(Path(f"{out}.started"))
                trace.files.clear()
                trace.recording = True

            def stop() -> None:
                trace.recording = False
                engine.send_signal(signal.SIGUSR2)

            facts = await booking_call(workdir, backend, (start, stop))
            await wait_for_file(Path(f"{out}.stopped"))
            engine_files = project_only(json.loads(out.read_text()))
            failed = False
        finally:
            await backend.close()
    finally:
        await asyncio.to_thread(stop_traced_engine, engine)
        if failed:
            print((workdir / "engine.log").read_text()[-3000:], file=sys.stderr)

    worker_files = trace.project_files()
    print()
    print("== the same call, engine in its own service process (the worker's deployment) ==")
    print_call(facts)
    print()
    print_files("worker (job) process, yes -> result", worker_files)
    print()
    print_files("engine service process, yes -> result", engine_files)
    both = sorted(set(worker_files) & set(engine_files))
    print()
    print(
        f"distinct files over both processes: {len(set(worker_files) | set(engine_files))}"
        f" ({len(both)} run in both: {', '.join(p.as_posix() for p in both) or '-'})"
    )


# --- lines a fork rewrites ------------------------------------------------------------------


def line_counts() -> None:
    def count(paths: list[Path]) -> int:
        return sum(
            1 for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()
        )

    starter = sorted(
        path
        for name in STARTER
        for path in ((ROOT / name).rglob("*.py") if (ROOT / name).is_dir() else [ROOT / name])
    )
    library = sorted(PACKAGE_DIR.rglob("*.py"))
    print()
    print("== lines a fork owns (non-blank lines of .py) ==")
    print(f"  starter (root)   {count(starter):>6} lines in {len(starter):>3} files  (a fork owns)")
    for folder in FOLDERS[: len(STARTER)]:
        files = [p for p in starter if folder_of(p.relative_to(ROOT)) == folder]
        print(f"    {folder:<24}{count(files):>6} lines in {len(files):>3} files")
    largest = max(starter, key=lambda p: count([p]))
    print(f"    largest: {largest.relative_to(ROOT)} ({count([largest])} lines)")
    print(f"  library (src/)   {count(library):>6} lines in {len(library):>3} files  (upgraded)")


# --- main -----------------------------------------------------------------------------------


async def main(engine_service: bool) -> None:
    trace = FileTrace()
    # Before anything opens: threads started from here on (aiosqlite, to_thread) carry it.
    trace.install()
    try:
        from contextdb_livekit.backends.engine_client import engine_sources
        from contextdb_livekit.backends.sqlite_engine import open_engine

        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            engine = await open_engine(workdir / "memory.sqlite3")
            try:
                facts = await booking_call(workdir, engine, trace)
            finally:
                await engine.close()
        files = trace.project_files()
        engine_side = {p.resolve().relative_to(ROOT) for p in engine_sources()}
        ran_engine = [p for p in files if p in engine_side]

        print("== one call, in-process local engine (pycontextdb in this process) ==")
        print_call(facts)
        print()
        print_files(
            "files run from the yes to the spoken result",
            files,
            lambda p: "   [engine]" if p in engine_side else "",
        )
        print()
        print(
            f"[engine] = imported by the engine service process (engine_sources()): "
            f"{len(ran_engine)} of the {len(files)}; the other {len(files) - len(ran_engine)} "
            "are worker-side only"
        )

        if engine_service:
            trace.files.clear()
            with tempfile.TemporaryDirectory() as tmp:
                await through_engine_service(Path(tmp), trace)
    finally:
        trace.uninstall()
    line_counts()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--serve-traced":
        sys.exit(serve_traced(Path(sys.argv[2]), sys.argv[3:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-engine-service",
        action="store_true",
        help="only the in-process call (skip the run through the engine service process)",
    )
    args = parser.parse_args()
    os.environ.setdefault("LIVEKIT_LOG_LEVEL", "warn")
    asyncio.run(main(not args.no_engine_service))
