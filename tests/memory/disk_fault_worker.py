"""Full and read-only disks under the outbox, the ledger and the startup probe.

    unshare -m --propagation private python -m tests.memory.disk_fault_worker full DIR
    unshare -m --propagation private python -m tests.memory.disk_fault_worker readonly DIR
    python -m tests.memory.disk_fault_worker fsize DIR     # no mount namespace needed

`full` and `readonly` mount a small tmpfs at DIR inside the caller's private mount
namespace (root only; nothing outside the namespace sees it). `fsize` caps the file size
with RLIMIT_FSIZE instead. Prints one JSON object with what each step raised.
"""

from __future__ import annotations

import asyncio
import json
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from contextdb_livekit.memory.errors import MemoryLayerError, OutboxUnavailable
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from contextdb_livekit.worker.startup import _PROBE_BYTES, probe_writable


def outcome(exc: BaseException | None) -> dict[str, Any]:
    if exc is None:
        return {"raised": None}
    return {"raised": type(exc).__name__, "message": str(exc)}


async def attempt(coro: Any) -> dict[str, Any]:
    try:
        await coro
    except (MemoryLayerError, Exception) as exc:
        return outcome(exc)
    return outcome(None)


async def puts(outbox: SqliteOutbox, count: int, size: int) -> dict[str, Any]:
    """Write until the first failure; what it was and how many landed before it."""
    for n in range(count):
        try:
            await outbox.put(f"receipt:bulk-{n}", "receipt", "cust-1", {"pad": "x" * size},
                             hold=False)  # fmt: skip
        except Exception as exc:
            return {**outcome(exc), "landed": n}
    return {"raised": None, "landed": count}


async def decisions(ledger: SqliteDecisionLedger, count: int) -> dict[str, Any]:
    for n in range(count):
        try:
            await ledger.record_decision(
                user_id="cust-1", query="q" * 2000, outcome="abstain", memories=[], pending_ids=[]
            )
        except Exception as exc:
            return {**outcome(exc), "landed": n}
    return {"raised": None, "landed": count}


def fill(directory: Path) -> None:
    with open(directory / "filler", "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass


async def main(mode: str, directory: Path) -> dict[str, Any]:
    report: dict[str, Any] = {"mode": mode}
    directory.mkdir(parents=True, exist_ok=True)
    if mode in ("full", "readonly"):
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(directory)],
                       check=True)  # fmt: skip
    outbox_path = directory / "outbox.sqlite3"
    outbox = SqliteOutbox(outbox_path)
    await outbox.put("receipt:before", "receipt", "cust-1", {"decision_id": "d"}, hold=False)
    ledger = SqliteDecisionLedger(directory / "memory.ledger.sqlite3")
    if mode == "full":
        fill(directory)
    elif mode == "readonly":
        ledger.close()  # an open writer keeps the mount busy
        subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
        try:
            ledger = SqliteDecisionLedger(directory / "memory.ledger.sqlite3")
        except MemoryLayerError as exc:
            report["ledger_open"] = outcome(exc)
    else:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a killed process
        current = max(p.stat().st_size for p in directory.iterdir())
        # Never above the startup probe's own write: the files already here (a ledger's WAL
        # is ~60 KB after its schema) must not lift the limit past what the probe writes.
        limit = min(current + 8192, _PROBE_BYTES - 1)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    report["outbox_put"] = await puts(outbox, 400, 4096)
    if "ledger_open" not in report:
        report["ledger_write"] = await decisions(ledger, 400)
    report["fresh_outbox"] = await attempt(SqliteOutbox(directory / "new-outbox.sqlite3").check())
    report["probe"] = probe_writable(outbox_path)
    report["rows_before_kept"] = None
    if mode == "full":
        (directory / "filler").unlink()
        report["after_freeing"] = await puts(outbox, 1, 10)
    if mode != "readonly":
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        report["rows_before_kept"] = "receipt:before" in {
            i.idempotency_key for i in await outbox.items()
        }
    report["outbox_unavailable_is_typed"] = issubclass(OutboxUnavailable, MemoryLayerError)
    return report


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], Path(sys.argv[2])))))
