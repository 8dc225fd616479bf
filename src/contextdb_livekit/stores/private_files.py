"""Data at rest is the worker's: every directory it creates is 0700 and every file 0600,
whatever the umask it was started with.

Three layers, each enough on its own for what it covers:
- `restrict_umask()` at process start (the worker's startup, the engine service): anything
  created afterwards by this process or its children (job processes, the engine, SQLite's
  -wal/-shm/-journal, aiosqlite in pycontextdb, logs) is owner-only;
- `private_dir` / `private_file` where the worker creates its own files, so a caller that
  never went through startup (a test, a bench, an operator tool) gets the same modes;
- `tighten_data_files` at startup: files and directories left by an earlier version (or a
  copy, a restore) are brought to 0700/0600, and what cannot be is reported.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077
DIR_MODE = 0o700
FILE_MODE = 0o600
# Files kept next to a data file: SQLite's, the engine's, the repair and spawn locks.
_SIBLING_SUFFIXES = ("-wal", "-shm", "-journal")


def restrict_umask() -> int:
    """Owner-only for everything this process (and what it starts) creates. Returns the old."""
    return os.umask(PRIVATE_UMASK)


def private_dir(path: Path) -> Path:
    """`path` exists as a directory; every level created here is 0700 whatever the umask.
    Existing directories are left as they are (the startup check reports and tightens)."""
    missing: list[Path] = []
    current = path
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    path.mkdir(parents=True, exist_ok=True)
    for created in missing:
        with contextlib.suppress(OSError):  # lost a race with another process: theirs is 0700
            os.chmod(created, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """`path` exists as a 0600 file (an empty one if new; never truncated), in a directory
    made by `private_dir`. SQLite gives its -wal/-shm/-journal files the database's mode."""
    private_dir(path.parent if str(path.parent) else Path("."))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
    try:
        info = os.fstat(fd)
        if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) & 0o077:
            os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return path


def open_private(path: Path, mode: str = "a+"):
    """`open(path, mode)` for a text or binary append/read file created 0600."""
    private_file(path)
    return open(path, mode)  # the caller closes it


def sibling_files(path: Path) -> list[Path]:
    """The files that belong to data file `path`: itself, SQLite's journals, and everything
    named after it in its directory (`memory.sqlite3.engine.log`, `memory.ledger.sqlite3`…)."""
    parent = path.parent if str(path.parent) else Path(".")
    found = {path, *(Path(str(path) + suffix) for suffix in _SIBLING_SUFFIXES)}
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            if entry.name.startswith((path.name, path.stem + ".")):
                found.add(entry)
    return sorted(p for p in found if p.exists() or p.is_symlink())


def tighten_data_files(path: Path) -> list[str]:
    """Bring `path`'s directory to 0700 and its files to 0600 where they are ours; one message
    for each that is open to other users and cannot be tightened."""
    problems: list[str] = []
    parent = path.parent if str(path.parent) else Path(".")
    targets = [(parent, DIR_MODE)] + [(p, FILE_MODE) for p in sibling_files(path)]
    for target, mode in targets:
        try:
            info = os.lstat(target)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(info.st_mode):
            continue  # never follow a link to chmod something else; its target is checked
        if not stat.S_IMODE(info.st_mode) & 0o077:
            continue
        if info.st_uid == os.geteuid():
            try:
                os.chmod(target, mode)
                continue
            except OSError as exc:
                reason = exc.strerror or str(exc)
        else:
            reason = f"owned by uid {info.st_uid}, not the worker (uid {os.geteuid()})"
        problems.append(
            f"{target} is readable by other users (mode {stat.S_IMODE(info.st_mode):04o}) "
            f"and cannot be made private: {reason}"
        )
    return problems


def exposed(path: Path) -> bool:
    """True when other users have any access to `path` (tests, checks)."""
    return bool(stat.S_IMODE(os.lstat(path).st_mode) & 0o077)
