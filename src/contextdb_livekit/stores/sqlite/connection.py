"""SQLite files the worker keeps on local disk: shared WAL connections, and what to do when a
file is damaged (moved aside and recreated) or cannot be written (a typed error, not a raw one).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from contextdb_livekit.stores.private_files import open_private, private_file

log = logging.getLogger("contextdb_livekit.stores.sqlite.connection")

_DAMAGE_MARKERS = (
    "file is not a database",
    "database disk image is malformed",
    "malformed database schema",
)
_UNWRITABLE_MARKERS = (
    "database or disk is full",
    "attempt to write a readonly database",
    "unable to open database file",
    "disk i/o error",
    "readonly database",
)


@contextlib.contextmanager
def shared_sqlite(path: Path) -> Iterator[sqlite3.Connection]:
    """Autocommit connection; WAL lets readers and one writer from any process proceed, and
    the busy timeout turns write contention into waiting instead of `database is locked`.
    The file is created 0600 (stores.private_files); SQLite's -wal/-shm take its mode."""
    private_file(path)
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA busy_timeout=30000")
        yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def immediate_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT. On error, roll back only if SQLite has not already done so
    (it does on a full disk), so the original error is the one that propagates."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def is_damaged(exc: BaseException) -> bool:
    """The file's bytes are not (or no longer) a usable SQLite database."""
    return isinstance(exc, sqlite3.DatabaseError) and any(
        marker in str(exc).lower() for marker in _DAMAGE_MARKERS
    )


def is_missing_schema(exc: BaseException) -> bool:
    """The file exists but its tables do not: it was deleted and SQLite made an empty one."""
    return isinstance(exc, sqlite3.OperationalError) and "no such table" in str(exc).lower()


def is_unwritable(exc: BaseException) -> bool:
    """Disk full, read-only file system or directory, or a path that cannot be opened."""
    if isinstance(exc, OSError):
        return True
    return isinstance(exc, sqlite3.OperationalError) and any(
        marker in str(exc).lower() for marker in _UNWRITABLE_MARKERS
    )


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """`PRAGMA quick_check` (O(file size), no index cross-checks): None when the file is sound."""
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        if is_damaged(exc):
            return str(exc)
        raise
    result = "; ".join(str(row[0]) for row in rows)
    return None if result == "ok" else result[:300]


def damage_of(path: Path) -> str | None:
    """What is wrong with the file at `path`, or None when it is sound or does not exist."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path, timeout=30.0)
        try:
            return integrity_problem(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if is_damaged(exc):
            return str(exc)
        raise


@contextlib.contextmanager
def file_repair_lock(path: Path) -> Iterator[None]:
    """Serialise repairs of one file across the job processes that share it."""
    lock_path = path.with_name(path.name + ".repair.lock")
    with open_private(lock_path) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def quarantine(path: Path, reason: str, *, label: str) -> Path:
    """Move a damaged file (and its WAL/SHM) aside so a fresh one can be created; the moved
    copy stays for a human. Returns where it went. Call under `file_repair_lock`."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}-{time.monotonic_ns() % 10**6:06d}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(str(path) + suffix)
        with contextlib.suppress(FileNotFoundError):
            source.rename(Path(str(target) + suffix))
    log.error(
        "%s file %s is damaged (%s); moved it aside to %s and created a new one",
        label,
        path,
        reason,
        target,
    )
    return target
