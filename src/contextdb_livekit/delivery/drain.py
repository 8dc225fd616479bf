"""Drain the outbox without calls: a worker-level loop and a long-running process.

A host whose calls have ended (or that is idle, or scaled down to one process) still
delivers what it queued. Two ways to run it, same code:

    python drain.py         # long-running; SIGTERM/SIGINT stop it
    python drain.py --once  # deliver what is due now, print counts

or, from the worker's own setup, `asyncio.create_task(run_drain_loop(settings, stop,
resolvers))`. This module knows no domain: the crash-recovery resolvers (one per gated
action) come from whoever composes the process (the starter's `drain.py` passes its registry's).

It opens the memory backend only when a row is due, so an idle drain never starts (or keeps
alive) the local engine process. With DATABASE_URL it also moves this host's spilled rows
(written while Postgres did not answer, `delivery.spill`) into the shared outbox once it is
back. Intents left by a crashed call are resolved through the host system by the attempt's
own idempotency key.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from contextdb_livekit.backends.factory import open_memory_backend
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.delivery.spill import open_outbox
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.errors import MemoryLayerError, OutboxUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import IntentResolver, Outbox
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.ledger import PostgresDecisionLedger

log = logging.getLogger("contextdb_livekit.delivery.drain")


@dataclass
class DrainReport:
    delivered: int = 0
    passes: int = 0
    last_error: str | None = None
    # Decisions nobody closed, closed by this drain's sweeps (shared Postgres engine only).
    swept: int = 0


# Opens what the resolvers need (e.g. the booking system's client) and closes it after.
Recovery = Callable[[], AbstractAsyncContextManager[Mapping[str, IntentResolver]]]
# Run on every pass after delivery (e.g. `caller_data.retention.RetentionSchedule`, which
# decides itself whether it is due). It may raise: the pass logs it and goes on.
Housekeeping = Callable[[], Awaitable[object]]


async def drain_due(
    outbox: Outbox,
    backend: MemoryBackend,
    resolvers: Mapping[str, IntentResolver],
    stop: asyncio.Event | None = None,
    **flusher_kwargs: Any,
) -> int:
    """Flush until nothing more lands (everything due is delivered or rescheduled)."""
    flusher = OutboxFlusher(outbox, backend, resolvers, **flusher_kwargs)
    delivered = 0
    while not (stop is not None and stop.is_set()):
        landed = await flusher.flush_once(stop)
        delivered += landed
        if landed == 0:
            break
    return delivered


async def run_drain_loop(
    settings: MemorySettings,
    stop: asyncio.Event,
    resolvers: Mapping[str, IntentResolver],
    *,
    interval_s: float = 2.0,
    once: bool = False,
    housekeeping: Housekeeping | None = None,
    **flusher_kwargs: Any,
) -> DrainReport:
    """Deliver due rows every `interval_s` until `stop` is set (or once). Never raises for
    a backend, host-system or outbox fault: it logs, waits and tries again."""
    report = DrainReport()
    if not settings.enabled:
        log.info("memory disabled; nothing to drain")
        return report
    # With DATABASE_URL the queue is every host's: this drain delivers rows other hosts left.
    database = SharedDatabase(settings.database_dsn) if settings.database_dsn else None
    outbox = open_outbox(settings, database)
    # The ledger on the shared Postgres has no engine process to sweep it: the drains do.
    ledger = (
        PostgresDecisionLedger(database)
        if database is not None and settings.backend_name == "postgres"
        else None
    )
    backend: MemoryBackend | None = None
    try:
        while not stop.is_set():
            report.passes += 1
            try:
                await outbox.redrive_config()
                if await outbox.has_due():
                    if backend is None:
                        backend = await open_memory_backend(settings, database)
                    report.delivered += await drain_due(
                        outbox, backend, resolvers, stop, **flusher_kwargs
                    )
                if ledger is not None:
                    report.swept += len(await ledger.sweep_open(settings.decision_sweep_after_s))
                if housekeeping is not None:
                    await housekeeping()
                report.last_error = None
            except OutboxUnavailable as exc:
                report.last_error = str(exc)
                log.error("drain: %s", exc)
            except MemoryLayerError as exc:
                report.last_error = f"{exc.code}: {exc}"
                log.warning("drain: memory backend unavailable: %s", report.last_error)
            except Exception as exc:  # the loop outlives any single fault
                report.last_error = f"{type(exc).__name__}: {exc}"
                log.exception("drain pass failed")
            if once:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval_s)
    finally:
        if backend is not None:
            with contextlib.suppress(Exception):
                await backend.close()
        if database is not None:
            await database.close()
    return report


async def _main(
    args: argparse.Namespace, recovery: Recovery, housekeeping: Housekeeping | None = None
) -> int:
    async with recovery() as resolvers:
        return await _drain_until_stopped(args, resolvers, housekeeping)


async def _drain_until_stopped(
    args: argparse.Namespace,
    resolvers: Mapping[str, IntentResolver],
    housekeeping: Housekeeping | None = None,
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    settings = MemorySettings()
    task = asyncio.create_task(
        run_drain_loop(
            settings,
            stop,
            resolvers,
            interval_s=args.interval_s,
            once=args.once,
            housekeeping=housekeeping,
        )
    )
    if not args.once:
        where = "the shared Postgres" if settings.database_url else settings.outbox_path
        log.info("draining %s every %.1f s", where, args.interval_s)
        await stop.wait()
    done, _ = await asyncio.wait({task}, timeout=None if args.once else args.stop_budget_s)
    if not done:
        # Past the shutdown budget: a row in flight keeps its lease and is re-sent later.
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        print("drain stopped at its shutdown budget", file=sys.stderr)
        return 0
    report = task.result()
    print(f"delivered {report.delivered} row(s) in {report.passes} pass(es)")
    if report.swept:
        print(f"closed {report.swept} decision(s) nobody closed")
    if report.last_error:
        print(f"last error: {report.last_error}", file=sys.stderr)
        return 1
    return 0


def main(
    argv: list[str] | None,
    *,
    recovery: Recovery,
    prog: str,
    housekeeping: Callable[[], Housekeeping | None] | None = None,
) -> int:
    """The drain process; `recovery` is the composition root's (the starter's `drain.py`)."""
    parser = argparse.ArgumentParser(prog=prog, description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    parser.add_argument("--interval-s", type=float, default=2.0)
    parser.add_argument("--stop-budget-s", type=float, default=5.0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        chores = housekeeping() if housekeeping is not None else None
        return asyncio.run(_main(args, recovery, chores))
    except ValueError as exc:  # settings that do not validate
        print(f"invalid settings: {exc}", file=sys.stderr)
        return 2
