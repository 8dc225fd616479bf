"""The worker's startup check: every configuration problem named up front, one line each.

Before the worker registers with LiveKit it builds every settings object (worker, memory,
and the line's own, named by its profile), checks what pydantic cannot (required settings,
the signing secret's length) and probes every data file's directory for writability. Any
problem: one line per problem on stderr, naming the setting, and exit status 2 — never a
traceback, never a worker that registers and then fails on each call.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_settings import BaseSettings

from contextdb_livekit.backends.engine_client import socket_path_for
from contextdb_livekit.backends.factory import check_backend, describe_backend
from contextdb_livekit.identity.claims import MIN_SECRET_BYTES
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.private_files import private_dir, restrict_umask, tighten_data_files
from contextdb_livekit.worker.log_policy import apply_log_policy, install_caller_data_filter
from contextdb_livekit.worker.profile import LineProfile
from contextdb_livekit.worker.settings import WorkerSettings, is_placeholder_secret

RUN_COMMANDS = {"dev", "start", "connect", "console"}
EXIT_CONFIG = 2
# Big enough that a full disk refuses it, small enough to be free on a healthy one.
_PROBE_BYTES = 64 * 1024
_S = TypeVar("_S", bound=BaseSettings)


@dataclass(frozen=True)
class ConfigProblem:
    setting: str
    message: str

    def __str__(self) -> str:
        return f"{self.setting}: {self.message}"


@dataclass
class StartupConfig:
    worker: WorkerSettings | None
    memory: MemorySettings | None
    # The line's own settings (LineProfile.settings), those that could be built.
    line: list[BaseSettings]
    problems: list[ConfigProblem]


def _build(factory: Callable[..., _S], problems: list[ConfigProblem]) -> _S | None:
    """Build one settings object; on errors, record each, then build it again with the bad
    fields at their defaults so the remaining checks still run (and report) in one go."""
    try:
        return factory()
    except ValidationError as exc:
        errors = exc.errors()
    problems.extend(_describe(error) for error in errors)
    fields = getattr(factory, "model_fields", {})
    by_alias = {info.alias or name: name for name, info in fields.items()}
    bad = {by_alias.get(str(e["loc"][0]), str(e["loc"][0])) for e in errors if e.get("loc")}
    defaults = {name: fields[name].default for name in bad if name in fields}
    try:
        return factory(**defaults)
    except (ValidationError, TypeError):
        return None


def _describe(error: Any) -> ConfigProblem:
    setting = ".".join(str(part) for part in error.get("loc", ())) or "settings"
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    secret = any(word in setting.upper() for word in ("KEY", "SECRET", "TOKEN"))
    shown = str(error.get("input", ""))[:60]
    if "input" in error and not secret and error.get("type") != "missing" and shown not in message:
        message += f" (got {shown!r})"
    return ConfigProblem(setting, message)


def probe_writable(path: Path) -> str | None:
    """None when a data file can be created or written at `path`, else why not."""
    parent = path.parent if str(path.parent) else Path(".")
    try:
        private_dir(parent)
    except OSError as exc:
        return f"cannot create directory {parent}: {exc.strerror or exc}"
    if path.is_dir():
        return f"{path} is a directory, not a file"
    if path.exists():
        try:
            # os.access says yes to root on a read-only mount; opening for write does not.
            with open(path, "r+b"):
                pass
        except OSError as exc:
            return f"cannot write {path}: {exc.strerror or exc}"
    probe = parent / f".write-probe-{os.getpid()}"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"\0" * _PROBE_BYTES)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        return f"cannot write in {parent}: {exc.strerror or exc}"
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def _data_paths(config: StartupConfig, profile: LineProfile) -> list[tuple[str, Path]]:
    paths: list[tuple[str, Path]] = []
    # With DATABASE_URL the host state lives in Postgres: no local files to probe for it.
    shared = config.memory is not None and config.memory.database_url is not None
    if config.memory is not None and config.memory.enabled:
        if config.memory.backend_name == "local":
            paths.append(("CONTEXTDB_LOCAL_PATH", config.memory.local_path))
        if not shared:
            paths.append(("MEMORY_OUTBOX_PATH", config.memory.outbox_path))
        else:
            # Where outbox rows wait while the shared Postgres does not answer: the first
            # outage must not be the first time anyone finds it unwritable.
            paths.append(("MEMORY_SPILL_PATH", config.memory.spill_path))
    if config.worker is not None and not shared:
        paths.append(("ATTESTATION_PATH", config.worker.attestation_path))
        paths.append(("CUSTOMER_DIRECTORY_PATH", config.worker.customer_directory_path))
        paths.append(("CLAIM_REGISTRY_PATH", config.worker.claim_registry_path))
    paths.extend(profile.data_paths(config.line))
    return paths


def check_configuration(profile: LineProfile, *, probe_paths: bool = True) -> StartupConfig:
    """Every settings object built, every rule checked; the problems, in a stable order."""
    problems: list[ConfigProblem] = []
    worker = _build(WorkerSettings, problems)
    memory = _build(MemorySettings, problems)
    line = [built for cls in profile.settings if (built := _build(cls, problems)) is not None]
    config = StartupConfig(worker, memory, line, problems)
    if worker is not None:
        secret_value = worker.identity_signing_secret
        placeholder = (
            worker.identity_secret_problem()
            if secret_value is not None and is_placeholder_secret(secret_value.get_secret_value())
            else None
        )
        for name in worker.missing_required():
            secret_is_set = secret_value is not None and secret_value.get_secret_value().strip()
            if name == "IDENTITY_SIGNING_SECRET" and secret_is_set:
                continue  # set, but unusable: said below, with how to make one
            problems.append(ConfigProblem(name, "required, not set (see .env.example)"))
        if placeholder:
            problems.append(
                ConfigProblem(
                    "IDENTITY_SIGNING_SECRET", placeholder.removeprefix("IDENTITY_SIGNING_SECRET ")
                )
            )
        secret = worker.identity_signing_secret
        if secret is not None and secret.get_secret_value().strip():
            size = len(secret.get_secret_value().encode())
            if size < MIN_SECRET_BYTES:
                problems.append(
                    ConfigProblem(
                        "IDENTITY_SIGNING_SECRET",
                        f"must be at least {MIN_SECRET_BYTES} bytes (is {size})",
                    )
                )
    if worker is not None and worker.prometheus_port is not None:
        # LiveKit empties the metrics directory at start: data there would be deleted.
        metrics = worker.metrics_dir.resolve()
        for setting, path in _data_paths(config, profile):
            if path.resolve().parent == metrics:
                problems.append(
                    ConfigProblem(
                        f"WORKER_PROMETHEUS_DIR={worker.metrics_dir}",
                        f"LiveKit deletes every file in it at start; it holds {setting}={path}",
                    )
                )
    if probe_paths:
        for setting, path in _data_paths(config, profile):
            reason = probe_writable(path)
            if reason is not None:
                problems.append(ConfigProblem(f"{setting}={path}", reason))
                continue
            # Data at rest is the worker's: its directory 0700, its files 0600.
            for exposure in tighten_data_files(path):
                problems.append(ConfigProblem(f"{setting}={path}", exposure))
        if config.memory is not None and config.memory.backend_name == "local":
            try:
                socket_path_for(config.memory.local_path.resolve())
            except MemoryUnavailable as exc:
                problems.append(ConfigProblem("CONTEXTDB_LOCAL_PATH", str(exc)))
    return config


def prepare_worker(argv: list[str], profile: LineProfile) -> WorkerSettings:
    """The worker's settings, built the one way every entry point builds them.

    agent.py calls this at import, so `python agent.py dev|start|console`, `python -m
    livekit.agents start agent.py` (and `lk agent …`, which runs that) and the container's
    command all pass through it. In the process that runs the worker: owner-only file modes
    (umask 077), the log policy, then the startup check (exit 2 on any problem, the template
    signing secret included) — before any settings object is used. Job processes (started by
    the worker through multiprocessing, which imports agent.py again) inherit all of that
    and only build their settings.
    """
    if _in_job_process():
        install_caller_data_filter()
        return WorkerSettings()
    restrict_umask()
    apply_log_policy()
    run_startup_check(argv, profile)
    return WorkerSettings()


def _in_job_process() -> bool:
    """True in a process multiprocessing started (LiveKit's job processes and its forkserver),
    including while it imports the parent's modules."""
    process = multiprocessing.current_process()
    return multiprocessing.parent_process() is not None or bool(
        getattr(process, "_inheriting", False)
    )


def run_startup_check(argv: list[str], profile: LineProfile) -> None:
    """Exit 2 with one line per problem before the worker registers; warn (not fail) when
    the memory backend does not answer — calls then run without memory and fail closed."""
    command = next((arg for arg in argv[1:] if not arg.startswith("-")), "")
    if command not in RUN_COMMANDS:
        # Other commands (download-files, --help) still build WorkerSettings at import.
        problems: list[ConfigProblem] = []
        _build(WorkerSettings, problems)
        _exit_if(problems)
        return
    config = check_configuration(profile)
    _exit_if(config.problems)
    assert config.memory is not None
    print(f"memory backend: {describe_backend(config.memory)}", file=sys.stderr)
    problem = asyncio.run(check_backend(config.memory))
    if problem:
        # Not fatal: calls still run, without memory, and consequential actions fail closed.
        print(f"WARNING: {problem}", file=sys.stderr)


def _exit_if(problems: list[ConfigProblem]) -> None:
    if not problems:
        return
    for problem in problems:
        print(f"configuration error: {problem}", file=sys.stderr)
    print(
        f"{len(problems)} configuration problem(s); fix them in the environment or .env "
        "(see .env.example). The worker did not start.",
        file=sys.stderr,
    )
    sys.exit(EXIT_CONFIG)
