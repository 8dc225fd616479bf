"""Client side of `backends.engine_service`: the Cloud client over the engine's Unix socket.

`connect_local_engine` returns the same `CloudMemory` adapter the Cloud backend uses, so the
local engine and ContextDB Cloud share one code path, decisions and receipts included.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import importlib.metadata
import logging
import os
import signal
import ssl
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from contextdb_cloud_client import ActionDecision, CloudClient

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.engine_file import known_unusable, unusable_error
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import ActionSlot
from contextdb_livekit.stores.ledger import DecisionRecord
from contextdb_livekit.stores.private_files import open_private, private_dir

log = logging.getLogger("contextdb_livekit.backends.engine_client")

# The directory that holds the contextdb_livekit package: the engine process imports it from
# there even when the package is not installed (a checkout run with PYTHONPATH=src).
_IMPORT_ROOT = Path(__file__).resolve().parents[2]
# AF_UNIX paths are limited to ~107 bytes; deep temp dirs exceed that.
_MAX_SOCKET_PATH = 100


def socket_path_for(db_path: Path) -> Path:
    """Next to the engine file; when that path is too long for AF_UNIX, in this user's private
    runtime directory (never a predictable name in the shared temp dir, which another local
    user could bind first and answer as the engine). Raises MemoryUnavailable when neither
    fits."""
    candidate = db_path.with_name(db_path.name + ".sock")
    if len(str(candidate.resolve())) <= _MAX_SOCKET_PATH:
        return candidate
    digest = hashlib.sha256(str(db_path.resolve()).encode()).hexdigest()[:16]
    path = private_runtime_dir() / f"contextdb-{digest}.sock"
    if len(str(path)) > _MAX_SOCKET_PATH:
        raise MemoryUnavailable(
            f"the engine socket path {path} is longer than {_MAX_SOCKET_PATH} bytes, as is "
            f"{candidate}: use a shorter CONTEXTDB_LOCAL_PATH or XDG_RUNTIME_DIR",
            code="engine_socket_path",
        )
    return path


def private_runtime_dir() -> Path:
    """A directory only this user can enter: `$XDG_RUNTIME_DIR/contextdb` when the runtime
    dir is this user's and closed to others, else `<temp dir>/contextdb-<uid>`. Created
    0700; refused (MemoryUnavailable) when it exists and is not a directory of this user's
    that others cannot enter — someone else made it first."""
    uid = os.geteuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _owned_and_closed(Path(runtime), uid, loose=0o022):
        directory = Path(runtime) / "contextdb"
    else:
        directory = Path(tempfile.gettempdir()) / f"contextdb-{uid}"
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory, 0o700)
    if not _owned_and_closed(directory, uid, loose=0o077):
        raise MemoryUnavailable(
            f"{directory} is not a private directory of uid {uid} (another user may have "
            "created it); remove it or set XDG_RUNTIME_DIR to a directory only the worker "
            "can enter",
            code="engine_socket_path",
        )
    return directory


def _owned_and_closed(path: Path, uid: int, *, loose: int) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == uid and not info.st_mode & loose


# The engine speaks plain HTTP over a Unix socket: no TLS ever happens on it. httpx builds a
# default SSL context (system CA bundle loaded, ~20-40 ms of CPU, more on a busy host) for
# every transport unless given one; this bare context loads nothing and verifies against no
# CA, so it could never complete a TLS handshake — it only keeps that cost off call start.
_NO_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def uds_transport(socket_path: Path) -> httpx.AsyncHTTPTransport:
    """An httpx transport to the engine's Unix socket, built without TLS set-up."""
    return httpx.AsyncHTTPTransport(uds=str(socket_path), verify=_NO_TLS)


class _RestartingUnixTransport(httpx.AsyncBaseTransport):
    """httpx over the engine's Unix socket; starts the engine when nobody is listening.

    A refused or missing socket means the request never reached an engine (it exited after
    idling, or was never started), so starting one and sending again is safe.
    """

    def __init__(
        self, socket_path: Path, ensure_running: Callable[[], Awaitable[None]] | None
    ) -> None:
        self._inner = uds_transport(socket_path)
        self._ensure_running = ensure_running

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await self._inner.handle_async_request(request)
        except (httpx.ConnectError, FileNotFoundError, ConnectionRefusedError):
            if self._ensure_running is None:
                raise
            await self._ensure_running()
            return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


class EngineClient(CloudClient):
    """The official Cloud client, pointed at the local engine process.

    The engine speaks the Cloud data-plane JSON, so every call is the Cloud client's own code
    path. Two local-only extensions: a decision may name the slot it needs (Cloud takes no
    slot; the host applies the slot rule to what it returns), and the decision trail.
    """

    async def evaluate_action_in_slot(
        self,
        user_id: str,
        query: str,
        slot: ActionSlot,
        *,
        top_k: int = 5,
        request_key: str | None = None,
    ) -> ActionDecision:
        body = {
            "user_id": user_id,
            "query": query,
            "top_k": top_k,
            "slot": dataclasses.asdict(slot),
            # The host's key for this evaluation: asking again returns the same decision.
            "request_key": request_key,
        }
        return ActionDecision.from_dict(
            await self._call("POST", "/v1/recall_for_action", json=body)
        )

    async def decision_trail(self, user_id: str) -> list[DecisionRecord]:
        data = await self._call("GET", "/v1/decisions", params={"user_id": user_id})
        return [DecisionRecord(**record) for record in data["decisions"]]

    async def engine_info(self) -> dict[str, Any]:
        return await self._call("GET", "/health")

    async def caller_data(self, user_id: str) -> dict[str, Any]:
        return await self._call("GET", "/v1/caller_data", params={"user_id": user_id})

    async def erase_partition_raw(self, user_id: str) -> dict[str, Any]:
        """Cloud's `forget` with `erase_partition`; the engine's answer also counts the
        ledger records it left for a running call (`deferred`)."""
        key = f"erase:{uuid.uuid4().hex}"  # see `CloudMemory.erase_partition`
        body = {"user_id": user_id, "erase_partition": True, "confirmation": user_id}
        return await self._call("POST", "/v1/forget", json=body, idempotency_key=key)

    async def retention(self, policy: dict[str, Any], now: str) -> dict[str, Any]:
        body = {"policy": policy, "now": now}
        return await self._call("POST", "/v1/retention", json=body)


class LocalEngineMemory(CloudMemory):
    """`CloudMemory` over the local engine process, plus what operators and tests need."""

    label = "local memory engine"

    def __init__(self, client: EngineClient, socket_path: Path) -> None:
        super().__init__(client)
        self.engine = client
        self.socket_path = socket_path

    async def decision_trail(self, user_id: str) -> list[DecisionRecord]:
        return await self._call(self.engine.decision_trail(user_id))

    async def caller_data(self, user_id: str) -> dict[str, Any]:
        return await self._call(self.engine.caller_data(user_id))

    async def erase_partition(self, user_id: str) -> dict[str, Any]:
        return await self._call(self.engine.erase_partition_raw(user_id))

    async def retention(self, policy: dict[str, Any], now: str) -> dict[str, Any]:
        return await self._call(self.engine.retention(policy, now))

    async def healthy(self) -> bool:
        return await probe_engine(self.socket_path) is not None

    async def engine_pid(self) -> int:
        """The serving engine's process id, for operators and tests that stop it."""
        return int((await self._call(self.engine.engine_info()))["pid"])


# The local engine is not a network service: this key only satisfies the Cloud client.
_LOCAL_KEY = "cdb_local_engine"
_LOCAL_BASE_URL = "http://contextdb-engine"


@functools.cache
def engine_version(embedding_model: str) -> str:
    """Fingerprint of the engine's code and configuration.

    An engine process outlives `agent.py dev` reloads; one started by older code or another
    embedding setting is replaced, not reused. The code is every project module the engine
    service imports, followed from its imports, so no list is kept by hand.
    """
    digest = hashlib.sha256()
    for path in engine_sources():
        digest.update(path.relative_to(_IMPORT_ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(importlib.metadata.version("pycontextdb").encode())
    digest.update(embedding_model.encode())
    return digest.hexdigest()[:16]


def engine_sources() -> list[Path]:
    """The project's source files the engine process imports: engine_service and, transitively,
    every `contextdb_livekit` module it imports (parsed, not executed)."""
    return sorted(project_imports("contextdb_livekit.backends.engine_service"))


def project_imports(root_module: str) -> set[Path]:
    package = root_module.split(".", 1)[0]
    seen: set[Path] = set()
    pending = [root_module]
    while pending:
        path = _module_path(pending.pop())
        if path is None or path in seen:
            continue
        seen.add(path)
        module = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, module)
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for name in names:
                if name.split(".", 1)[0] != package:
                    continue  # only the project's own modules are followed
                parts = name.split(".")
                # a package's __init__ runs for every module imported from it
                pending.extend(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return seen


def _absolute(node: ast.ImportFrom, module: str) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level]
    return ".".join([*base, *([node.module] if node.module else [])])


def _module_path(name: str) -> Path | None:
    base = _IMPORT_ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(_IMPORT_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def attach_to_engine(socket_path: Path, *, timeout_s: float = 5.0) -> LocalEngineMemory:
    """A client for an engine already serving `socket_path` (operators, tests reading a
    container's volume); it never starts one."""
    client = EngineClient(
        _LOCAL_BASE_URL,
        _LOCAL_KEY,
        timeout=timeout_s,
        transport=_RestartingUnixTransport(socket_path, None),
    )
    return LocalEngineMemory(client, socket_path)


async def probe_engine(socket_path: Path) -> dict[str, Any] | None:
    """The engine's /health answer, or None when nothing answers on the socket."""
    transport = uds_transport(socket_path)
    try:
        async with httpx.AsyncClient(transport=transport, base_url=_LOCAL_BASE_URL) as http:
            response = await http.get("/health", timeout=1.0)
    except (httpx.TransportError, OSError):
        return None
    if response.status_code != 200:
        return None
    try:
        return dict(response.json())
    except ValueError:
        return None


async def connect_local_engine(
    db_path: Path,
    *,
    idle_exit_s: float = 900.0,
    embedding_model: str = "mock",
    start_timeout_s: float = 20.0,
    timeout_s: float = 5.0,
    outbox_path: Path | None = None,
) -> LocalEngineMemory:
    """A memory backend for the engine that owns `db_path`, starting one if none answers.

    A file lock makes concurrent job processes start at most one engine; the engine's own
    exclusive lock is the second guard. An engine of another version is stopped and replaced.
    """
    db_path = db_path.resolve()
    socket_path = socket_path_for(db_path)
    version = engine_version(embedding_model)

    def refuse_if_unusable() -> None:
        # An engine already failed to open this very file: fail now, not after a start
        # timeout, and start no engine that would fail the same way (`backends.engine_file`).
        reason = known_unusable(db_path)
        if reason is not None:
            raise unusable_error(db_path, reason)

    async def ensure_running() -> None:
        if await _current(socket_path, version):
            return
        refuse_if_unusable()
        try:
            private_dir(db_path.parent)
            handle = await asyncio.to_thread(_lock, db_path.with_name(db_path.name + ".spawn.lock"))
        except OSError as exc:
            raise MemoryUnavailable(
                f"local engine cannot start at {db_path}: {exc}", code="engine_start_failed"
            ) from exc
        try:
            if await _current(socket_path, version):
                return
            refuse_if_unusable()  # noted by the engine another job started meanwhile
            await _stop_stale(socket_path)
            engine = _spawn(
                db_path, socket_path, idle_exit_s, embedding_model, version, outbox_path
            )
            deadline = asyncio.get_running_loop().time() + start_timeout_s
            while not await _current(socket_path, version):
                status = engine.poll()  # also reaps it: no zombie is left behind
                if status is not None:
                    # It exited instead of serving: say why now, not at the start timeout.
                    refuse_if_unusable()
                    raise MemoryUnavailable(
                        f"local engine exited at start (status {status}); see {db_path}.engine.log",
                        code="engine_start_failed",
                    )
                if asyncio.get_running_loop().time() > deadline:
                    raise MemoryUnavailable(
                        f"local engine did not start within {start_timeout_s:.0f} s; "
                        f"see {db_path}.engine.log",
                        code="engine_start_timeout",
                    )
                await asyncio.sleep(0.05)
        finally:
            handle.close()

    client = EngineClient(
        _LOCAL_BASE_URL,
        _LOCAL_KEY,
        timeout=timeout_s,
        transport=_RestartingUnixTransport(socket_path, ensure_running),
    )
    try:
        await ensure_running()
    except BaseException:
        await client.close()
        raise
    return LocalEngineMemory(client, socket_path)


async def _current(socket_path: Path, version: str) -> bool:
    info = await probe_engine(socket_path)
    return info is not None and info.get("version") == version


async def _stop_stale(socket_path: Path, timeout_s: float = 10.0) -> None:
    """Stop an engine of another version that still answers, and wait for it to let go."""
    info = await probe_engine(socket_path)
    if info is None:
        return
    pid = int(info["pid"])
    log.info("replacing local engine %s (version %s)", pid, info.get("version"))
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while await probe_engine(socket_path) is not None:
        if time.monotonic() > deadline:
            raise MemoryUnavailable(
                f"stale local engine {pid} did not stop", code="engine_start_failed"
            )
        await asyncio.sleep(0.05)


def _lock(path: Path) -> Any:
    handle = open_private(path)  # held until the caller closes it
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def _spawn(
    db_path: Path,
    socket_path: Path,
    idle_exit_s: float,
    embedding_model: str,
    version: str,
    outbox_path: Path | None = None,
) -> subprocess.Popen[bytes]:
    log_file = open_private(db_path.with_name(db_path.name + ".engine.log"), "ab")
    env = {**os.environ, "PYTHONPATH": str(_IMPORT_ROOT)}
    engine = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "contextdb_livekit.backends.engine_service",
            "--db",
            str(db_path),
            "--socket",
            str(socket_path),
            "--idle-exit-s",
            str(idle_exit_s),
            "--embedding-model",
            embedding_model,
            "--version",
            version,
            *(["--outbox", str(outbox_path.resolve())] if outbox_path is not None else []),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=log_file,
        # Its own session: the engine outlives the job process that happened to start it.
        start_new_session=True,
    )
    log_file.close()
    return engine
