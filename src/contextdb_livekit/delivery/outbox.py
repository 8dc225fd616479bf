"""`python -m contextdb_livekit.delivery.outbox list | parked | redrive KEY... | redrive --all`
(`--path FILE` for another outbox file).

With DATABASE_URL set (and no --path) it reads the shared Postgres outbox and this host's
spill (rows kept while Postgres did not answer, contextdb_livekit.delivery.spill).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.memory.errors import OutboxUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import PARKED_STATES, Outbox, OutboxItem
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox


def _age(ts: float) -> str:
    delta = ts - time.time()
    return f"in {delta:.0f}s" if delta >= 1 else "due"


def _print_rows(rows: Sequence[OutboxItem]) -> None:
    if not rows:
        print("(no rows)")
        return
    print(f"{'KEY':<52} {'KIND':<14} {'STATE':<13} {'TRIES':>5} {'NEXT':<10} REASON")
    for row in rows:
        print(
            f"{row.idempotency_key[:52]:<52} {row.kind:<14} {row.state:<13} {row.attempts:>5}"
            f" {'-' if row.state in PARKED_STATES else _age(row.next_attempt_at):<10}"
            f" {row.last_error or '-'}"
        )


async def _cli(args: argparse.Namespace) -> int:
    settings = MemorySettings()
    if args.path is None and settings.database_dsn is not None:
        # DATABASE_URL: the one queue every host shares.
        database = SharedDatabase(settings.database_dsn)
        try:
            # This host's spill (rows kept while Postgres did not answer) is listed too.
            return await _command(args, SpillingOutbox.for_settings(settings, database))
        finally:
            await database.close()
    path = args.path or settings.outbox_path
    if not Path(path).exists():
        print(f"no outbox at {path}", file=sys.stderr)
        return 1
    return await _command(args, SqliteOutbox(Path(path)))


async def _command(args: argparse.Namespace, outbox: Outbox) -> int:
    if args.command == "list":
        _print_rows(await outbox.items())
    elif args.command == "parked":
        _print_rows(await outbox.parked())
    else:
        if not args.all and not args.keys:
            print("redrive needs KEY... or --all", file=sys.stderr)
            return 2
        count = await outbox.redrive(None if args.all else args.keys)
        print(f"re-driven: {count} row(s) due now; a running drain or call delivers them")
        if not args.all and count < len(args.keys):
            print("some keys were not parked (or do not exist)", file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m contextdb_livekit.delivery.outbox", description="Outbox rows."
    )
    parser.add_argument("--path", type=Path, help="outbox file (default MEMORY_OUTBOX_PATH)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every row")
    sub.add_parser("parked", help="rows parked as dead or needs_config, with their reason")
    redrive = sub.add_parser("redrive", help="make parked rows due now")
    redrive.add_argument("keys", nargs="*")
    redrive.add_argument("--all", action="store_true")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_cli(args))
    except OutboxUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except ValueError as exc:  # settings that do not validate (pydantic's error is one)
        print(f"invalid settings: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
