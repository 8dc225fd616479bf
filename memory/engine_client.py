"""Client side of `memory.engine_service`: connect to the file's engine, starting it if needed."""

from __future__ import annotations

import asyncio
import dataclasses
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from contextdb_cloud_client import ActionDecision, ExecutionReceiptResponse, Memory, RecallResult

from memory.errors import MemoryUnavailable, error_for_status
from memory.ledger import DecisionRecord
from memory.models import ActionSlot, FactToRemember, ReceiptStatus

_PROJECT_ROOT = Path(__file__).resolve().parent.parent
# AF_UNIX paths are limited to ~107 bytes; deep temp dirs exceed that.
_MAX_SOCKET_PATH = 100


def socket_path_for(db_path: Path) -> Path:
    candidate = db_path.with_name(db_path.name + ".sock")
    if len(str(candidate.resolve())) <= _MAX_SOCKET_PATH:
        return candidate
    digest = hashlib.sha256(str(db_path.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"contextdb-{digest}.sock"


class EngineServiceClient:
    """Speaks the engine service's Cloud-shaped JSON over its Unix socket."""

    def __init__(
        self,
        socket_path: Path,
        *,
        timeout_s: float = 5.0,
        restart: Callable[[EngineServiceClient], Awaitable[None]] | None = None,
    ) -> None:
        self.socket_path = socket_path
        # Called when the socket refuses a connection (the engine exited after idling):
        # the request never reached an engine, so it is safe to start one and retry.
        self._restart = restart
        self._http = httpx.AsyncClient(
            transport=httpx.AsyncHTTPTransport(uds=str(socket_path)),
            base_url="http://contextdb-engine",
            timeout=timeout_s,
        )

    async def close(self) -> None:
        await self._http.aclose()

    async def healthy(self) -> bool:
        try:
            response = await self._http.get("/health", timeout=1.0)
        except (httpx.TransportError, OSError):
            return False
        return response.status_code == 200

    async def engine_pid(self) -> int:
        """The serving engine's process id, for operators and tests that stop it."""
        return int((await self._call("GET", "/health"))["pid"])

    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        try:
            try:
                response = await self._http.request(
                    method, path, json=json, params=params, headers=headers
                )
            except (httpx.ConnectError, FileNotFoundError, ConnectionRefusedError):
                if self._restart is None:
                    raise
                await self._restart(self)
                response = await self._http.request(
                    method, path, json=json, params=params, headers=headers
                )
        except httpx.TimeoutException as exc:
            raise MemoryUnavailable("local engine timed out", code="timeout") from exc
        except (httpx.TransportError, OSError) as exc:
            raise MemoryUnavailable(f"local engine unreachable: {exc}", code="network") from exc
        try:
            data = response.json()
        except ValueError as exc:
            raise MemoryUnavailable("local engine sent non-JSON", code="non_json") from exc
        if not response.is_success:
            raise error_for_status(
                response.status_code, str(data.get("code")), str(data.get("message"))
            )
        return data

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult:
        data = await self._call(
            "POST", "/v1/recall", json={"user_id": user_id, "query": query, "top_k": top_k}
        )
        return RecallResult(
            context=str(data["context"]),
            memories=[Memory.from_dict(m) for m in data["memories"]],
        )

    async def evaluate_action(
        self, user_id: str, query: str, *, slot: ActionSlot | None = None, top_k: int = 5
    ) -> ActionDecision:
        body: dict[str, Any] = {"user_id": user_id, "query": query, "top_k": top_k}
        if slot is not None:
            body["slot"] = dataclasses.asdict(slot)
        return ActionDecision.from_dict(
            await self._call("POST", "/v1/recall_for_action", json=body)
        )

    async def report_execution(
        self,
        user_id: str,
        decision_id: str,
        action_name: str,
        status: ReceiptStatus,
        *,
        idempotency_key: str,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> ExecutionReceiptResponse:
        body: dict[str, Any] = {
            "user_id": user_id,
            "decision_id": decision_id,
            "action_name": action_name,
            "status": status,
        }
        if external_ref is not None:
            body["external_ref"] = external_ref
        if error_code is not None:
            body["error_code"] = error_code
        data = await self._call("POST", "/v1/receipts", json=body, idempotency_key=idempotency_key)
        return ExecutionReceiptResponse.from_dict(data)

    async def decision_trail(self, user_id: str) -> list[DecisionRecord]:
        data = await self._call("GET", "/v1/decisions", params={"user_id": user_id})
        return [DecisionRecord(**record) for record in data["decisions"]]

    async def pending_confirmations(self, user_id: str) -> list[Memory]:
        data = await self._call("GET", "/v1/pending_confirmations", params={"user_id": user_id})
        return [Memory.from_dict(m) for m in data["memories"]]

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory:
        data = await self._call(
            "POST",
            "/v1/confirm",
            json={"user_id": user_id, "memory_id": memory_id},
            idempotency_key=idempotency_key,
        )
        return Memory.from_dict(data["memory"])

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]:
        data = await self._call(
            "POST",
            "/v1/remember_many",
            json={"user_id": user_id, "items": [dataclasses.asdict(f) for f in facts]},
            idempotency_key=idempotency_key,
        )
        return [Memory.from_dict(m) for m in data["memories"]]


async def connect_local_engine(
    db_path: Path,
    *,
    idle_exit_s: float = 900.0,
    embedding_model: str = "mock",
    start_timeout_s: float = 20.0,
) -> EngineServiceClient:
    """Return a client for the engine that owns `db_path`, starting one if none answers.

    A file lock makes concurrent job processes start at most one engine; the engine's own
    exclusive lock is the second guard.
    """
    db_path = db_path.resolve()

    async def ensure_running(client: EngineServiceClient) -> None:
        if await client.healthy():
            return
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
            handle = await asyncio.to_thread(_lock, db_path.with_name(db_path.name + ".spawn.lock"))
        except OSError as exc:
            raise MemoryUnavailable(
                f"local engine cannot start at {db_path}: {exc}", code="engine_start_failed"
            ) from exc
        try:
            if await client.healthy():
                return
            _spawn(db_path, client.socket_path, idle_exit_s, embedding_model)
            deadline = asyncio.get_running_loop().time() + start_timeout_s
            while not await client.healthy():
                if asyncio.get_running_loop().time() > deadline:
                    raise MemoryUnavailable(
                        f"local engine did not start within {start_timeout_s:.0f} s; "
                        f"see {db_path}.engine.log",
                        code="engine_start_timeout",
                    )
                await asyncio.sleep(0.05)
        finally:
            handle.close()

    client = EngineServiceClient(socket_path_for(db_path), restart=ensure_running)
    try:
        await ensure_running(client)
    except BaseException:
        await client.close()
        raise
    return client


def _lock(path: Path) -> Any:
    handle = open(path, "a+")  # noqa: SIM115 - held until the caller closes it
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def _spawn(db_path: Path, socket_path: Path, idle_exit_s: float, embedding_model: str) -> None:
    log_file = open(db_path.with_name(db_path.name + ".engine.log"), "ab")  # noqa: SIM115
    env = {**os.environ, "PYTHONPATH": str(_PROJECT_ROOT)}
    subprocess.Popen(
        [
            sys.executable,
            "-m",
            "memory.engine_service",
            "--db",
            str(db_path),
            "--socket",
            str(socket_path),
            "--idle-exit-s",
            str(idle_exit_s),
            "--embedding-model",
            embedding_model,
        ],
        cwd=_PROJECT_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=log_file,
        # Its own session: the engine outlives the job process that happened to start it.
        start_new_session=True,
    )
    log_file.close()
