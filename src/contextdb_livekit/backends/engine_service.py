"""One process that owns the local engine's SQLite file; job processes talk to it.

LiveKit runs every job in its own process. pycontextdb keeps slot locks, its vector index
and the audit-chain head in process memory, so several processes writing one file fork the
audit chain, allow two current values in one slot and fail bursts with `database is locked`.
Serialising every job through one engine process removes all three. It speaks the Cloud
data-plane JSON (plus an optional action `slot`) over a Unix socket, and exits on its own
after a quiet period so nothing lingers after the worker.

It also closes decisions nobody closed (`LocalEngine.sweep_open_decisions`): at start and then
every `--sweep-interval-s`, any decision it has itself seen open, without a receipt and with
none queued in the worker's outbox (`--outbox`), for `--sweep-after-s` (defaults from
CONTEXTDB_DECISION_SWEEP_AFTER_S / _INTERVAL_S: one hour, every minute). It times that on
its own monotonic clock, never by the wall-clock stamp a decision was made with: an engine
restarted with its clock an hour off closes nothing still running (`stores.sqlite.ledger`).

A file it cannot open (damaged) is noted beside it and the process exits at once
(`backends.engine_file`).

Run: python -m contextdb_livekit.backends.engine_service --db PATH --socket PATH [--idle-exit-s N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import fcntl
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn

from aiohttp import web

from contextdb_livekit.backends.engine_file import (
    EXIT_FILE_UNUSABLE,
    clear_note,
    record_unusable,
    unusable_error,
)
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.partition import (
    EnginePartition,
    parse_time,
    policy_from_json,
    sqlite_memory_scan,
)
from contextdb_livekit.backends.sqlite_engine import SqliteEngineClients, ledger_path
from contextdb_livekit.memory.errors import MemoryLayerError, MemoryRejected
from contextdb_livekit.memory.models import ActionSlot, FactToRemember
from contextdb_livekit.stores.private_files import open_private, restrict_umask
from contextdb_livekit.stores.sqlite import stats as sqlite_stats
from contextdb_livekit.stores.sqlite.caller_data import SqliteLedgerData
from contextdb_livekit.stores.sqlite.connection import damage_of, is_damaged
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger

log = logging.getLogger("contextdb_livekit.backends.engine_service")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(value: Any, status: int = 200) -> web.Response:
    is_instance = dataclasses.is_dataclass(value) and not isinstance(value, type)
    return web.json_response(dataclasses.asdict(value) if is_instance else value, status=status)


def _idempotency_key(request: web.Request) -> str:
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise MemoryRejected("Idempotency-Key header is required", code="idempotency_key_required")
    return key


def build_app(
    engine: LocalEngine,
    activity: list[float],
    stats: sqlite_stats.StatsKeeper | None = None,
    version: str = "",
    partition: EnginePartition | None = None,
) -> web.Application:
    caller_partition = partition or sqlite_partition(engine)

    @web.middleware
    async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != "/health":  # probes must not keep an idle engine alive
            activity[0] = time.monotonic()
        try:
            return await handler(request)
        except MemoryLayerError as exc:
            return web.json_response({"code": exc.code, "message": str(exc)}, status=exc.status)
        except (KeyError, TypeError, ValueError) as exc:
            return web.json_response({"code": "invalid", "message": str(exc)}, status=422)

    async def health(_: web.Request) -> web.Response:
        return web.json_response(
            {
                "ok": True,
                "service": "contextdb-local-engine",
                "pid": os.getpid(),
                "version": version,
            }
        )

    async def recall(request: web.Request) -> web.Response:
        body = await request.json()
        result = await engine.recall(
            body["user_id"], body["query"], top_k=int(body.get("top_k", 5))
        )
        return _json(result)

    async def evaluate_action(request: web.Request) -> web.Response:
        body = await request.json()
        # Host code always decides in a slot: a request without one is invalid (422).
        decision = await engine.evaluate_action(
            body["user_id"],
            body["query"],
            slot=ActionSlot(**body["slot"]),
            top_k=int(body.get("top_k", 5)),
            request_key=body.get("request_key"),
        )
        return _json(decision)

    async def receipts(request: web.Request) -> web.Response:
        body = await request.json()
        response = await engine.report_execution(
            body["user_id"],
            body["decision_id"],
            body["action_name"],
            body["status"],
            idempotency_key=_idempotency_key(request),
            external_ref=body.get("external_ref"),
            error_code=body.get("error_code"),
        )
        return _json(response)

    async def pending(request: web.Request) -> web.Response:
        memories = await engine.pending_confirmations(request.query["user_id"])
        return _json({"memories": [dataclasses.asdict(m) for m in memories]})

    async def confirm(request: web.Request) -> web.Response:
        body = await request.json()
        memory = await engine.confirm(body["user_id"], body["memory_id"])
        return _json({"memory": dataclasses.asdict(memory)})

    async def remember_many(request: web.Request) -> web.Response:
        body = await request.json()
        facts = [FactToRemember(**item) for item in body["items"]]
        memories = await engine.remember_many(
            body["user_id"], facts, idempotency_key=_idempotency_key(request)
        )
        if stats is not None:
            # Re-analyze in the background once the store has doubled; never on this request.
            stats.note_writes(len(memories))
        return _json({"memories": [dataclasses.asdict(m) for m in memories]})

    async def forget(request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("erase_partition"):
            return await erase_partition(body)
        deleted = await engine.forget(body["user_id"], body["memory_id"])
        # The Cloud's ForgetResponse shape, so the Cloud client parses it unchanged.
        return _json(
            {
                "mode": "memory",
                "deleted": deleted,
                "verified": None,
                "request_id": "local",
                "memory_version": 0,
                "primary_wal_lsn": None,
            }
        )

    async def erase_partition(body: dict[str, Any]) -> web.Response:
        # Cloud's verified partition erasure, plus (local) the caller's ledger rows and a
        # scrub of the engine file (`backends.partition`).
        if body.get("confirmation") != body["user_id"]:
            raise MemoryRejected("confirmation must equal user_id", code="invalid")
        erased = await caller_partition.erase(body["user_id"])
        return _json(
            {
                "mode": "partition",
                "deleted": erased.changed,
                "deferred": erased.deferred,
                "verified": True,
                "request_id": "local",
                "memory_version": 0,
                "primary_wal_lsn": None,
            }
        )

    async def caller_data(request: web.Request) -> web.Response:
        # Local-only extension: everything the engine holds about one caller (export).
        items = await caller_partition.held_about(request.query["user_id"])
        return _json({"items": [dataclasses.asdict(item) for item in items]})

    async def retention(request: web.Request) -> web.Response:
        # Local-only extension: the drain's retention pass over the engine file and ledger.
        body = await request.json()
        expired = await caller_partition.expire(
            policy_from_json(body["policy"]), parse_time(body["now"])
        )
        return _json({"expired": expired})

    async def decisions(request: web.Request) -> web.Response:
        # Local-only extension: the caller's decision ledger (`LocalEngineMemory.decision_trail`,
        # which `python -m scenarios` prints after a call).
        trail = await engine.decision_trail(request.query["user_id"])
        return _json({"decisions": [dataclasses.asdict(record) for record in trail]})

    app = web.Application(middlewares=[errors])
    app.add_routes(
        [
            web.get("/health", health),
            web.post("/v1/recall", recall),
            web.post("/v1/recall_for_action", evaluate_action),
            web.post("/v1/receipts", receipts),
            web.get("/v1/pending_confirmations", pending),
            web.post("/v1/confirm", confirm),
            web.post("/v1/remember_many", remember_many),
            web.post("/v1/forget", forget),
            web.get("/v1/decisions", decisions),
            web.get("/v1/caller_data", caller_data),
            web.post("/v1/retention", retention),
        ]
    )
    return app


def sqlite_partition(engine: LocalEngine, location: str = "local engine file") -> EnginePartition:
    """The caller data of an engine on one SQLite file and its ledger beside it."""
    clients = engine.clients
    assert isinstance(clients, SqliteEngineClients)
    # The ledger's file, whatever wraps the ledger (fault tests wrap it): not its class.
    ledger_file = getattr(engine.ledger, "path", None)
    if not isinstance(ledger_file, Path):
        raise TypeError("the engine's decision ledger is not a SQLite file")

    async def scan() -> list:
        return await sqlite_memory_scan(clients.db)

    return EnginePartition(engine, SqliteLedgerData(ledger_file), location=location, scan=scan)


@contextlib.contextmanager
def exclusive_owner(db_path: Path):
    """Hold an OS lock for the process lifetime: one engine per file, released on any exit."""
    lock_path = db_path.with_name(db_path.name + ".engine.lock")
    with open_private(lock_path) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(f"another engine process already owns {db_path}") from None
        yield


async def sweep_decisions(
    engine: LocalEngine, stop: asyncio.Event, *, after_s: float, interval_s: float
) -> None:
    """Close stale open decisions until `stop`; a failed pass is logged and retried."""
    while not stop.is_set():
        try:
            await engine.sweep_open_decisions(after_s)
        except MemoryLayerError as exc:
            log.warning("decision sweep failed: %s", exc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=interval_s)


class EngineFileUnusable(Exception):
    """The engine file cannot be opened; noted beside it (`backends.engine_file`)."""


async def open_engine_file(db_path: Path, embedding_model: str) -> SqliteEngineClients:
    """The engine file, checked before pycontextdb opens it. Damage is noted for the jobs
    (which then fail fast and start no engine) and raised as `EngineFileUnusable`."""
    problem = await asyncio.to_thread(damage_of, db_path)
    if problem is None:
        try:
            clients = await SqliteEngineClients.open(db_path, embedding_model=embedding_model)
        except Exception as exc:
            if not is_damaged(exc):
                raise
            problem = str(exc)
        else:
            clear_note(db_path)
            return clients
    record_unusable(db_path, problem)
    raise EngineFileUnusable(problem)


async def serve(
    db_path: Path,
    socket_path: Path,
    idle_exit_s: float,
    embedding_model: str,
    version: str = "",
    *,
    sweep_after_s: float = 3600.0,
    sweep_interval_s: float = 60.0,
    outbox_path: Path | None = None,
) -> None:
    clients = await open_engine_file(db_path, embedding_model)
    ledger = SqliteDecisionLedger(ledger_path(db_path), outbox_path=outbox_path)
    engine = LocalEngine(clients, ledger)
    stats = sqlite_stats.StatsKeeper(clients.db, await sqlite_stats.read_state(clients.db))
    activity = [time.monotonic()]
    partition = sqlite_partition(engine, str(db_path))
    runner = web.AppRunner(build_app(engine, activity, stats, version, partition), access_log=None)
    await runner.setup()
    with contextlib.suppress(FileNotFoundError):
        socket_path.unlink()
    site = web.UnixSite(runner, str(socket_path))
    await site.start()
    # Only the worker's own user may talk to the engine: it serves every caller's memory.
    socket_path.chmod(0o600)
    log.info("local engine serving %s on %s", db_path, socket_path)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stop.set)
    sweeper = asyncio.create_task(
        sweep_decisions(engine, stop, after_s=sweep_after_s, interval_s=sweep_interval_s)
    )
    try:
        while not stop.is_set():
            idle_for = time.monotonic() - activity[0]
            if idle_for >= idle_exit_s:
                log.info("local engine idle for %.0f s, exiting", idle_for)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=min(1.0, idle_exit_s - idle_for))
    finally:
        stop.set()
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await runner.cleanup()
        with contextlib.suppress(FileNotFoundError):
            socket_path.unlink()
        await stats.close()
        await engine.close()


def _exit_now(status: int) -> NoReturn:
    """Exit at once. A failed open can leave a library's worker thread behind (aiosqlite's
    connection thread is not a daemon), and a normal exit waits for it forever: engines
    that could not open their file used to stay alive for hours."""
    logging.shutdown()
    os._exit(status)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--idle-exit-s", type=float, default=900.0)
    parser.add_argument("--embedding-model", default="mock")
    # The code/config fingerprint clients compare before reusing this process.
    parser.add_argument("--version", default="")
    parser.add_argument(
        "--sweep-after-s",
        type=float,
        default=float(os.environ.get("CONTEXTDB_DECISION_SWEEP_AFTER_S", "3600")),
    )
    parser.add_argument(
        "--sweep-interval-s",
        type=float,
        default=float(os.environ.get("CONTEXTDB_DECISION_SWEEP_INTERVAL_S", "60")),
    )
    # The worker's outbox: the sweeper leaves decisions whose receipt is queued there.
    parser.add_argument("--outbox", type=Path, default=None)
    args = parser.parse_args(argv)
    restrict_umask()  # the engine's files (SQLite, ledger, log, socket) are owner-only
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    with exclusive_owner(args.db):
        try:
            asyncio.run(
                serve(
                    args.db,
                    args.socket,
                    args.idle_exit_s,
                    args.embedding_model,
                    args.version,
                    sweep_after_s=args.sweep_after_s,
                    sweep_interval_s=args.sweep_interval_s,
                    outbox_path=args.outbox,
                )
            )
        except EngineFileUnusable as exc:
            log.error("%s", unusable_error(args.db, str(exc)))
            _exit_now(EXIT_FILE_UNUSABLE)
        except Exception:
            log.exception("local engine failed on %s", args.db)
            _exit_now(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
