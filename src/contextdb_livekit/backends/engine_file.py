"""A local engine file the engine cannot open: said once, by the engine, and read by every
job before it tries again.

A damaged engine file (garbage bytes, a truncated copy) used to cost every call the
engine's whole start timeout (20 s), and every engine process that failed to open it stayed
alive. Now the engine process that fails to open the file writes why into a note beside it
(`<file>.damaged`) and exits; the job that started it sees the exit at once, and later jobs
read the note instead of starting another engine. The note is bound to the file it describes
(its inode, size and modification time): once an operator restores, moves or replaces the
file, the note no longer matches and the engine is started again.

The memory file is never moved aside or recreated automatically (the decision ledger and
the outbox are, being recoverable): it is the callers' memory, and a person decides.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.private_files import private_file

# The engine process's exit status when it cannot open its file.
EXIT_FILE_UNUSABLE = 3


def note_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".damaged")


def _identity(db_path: Path) -> list[int] | None:
    try:
        info = os.stat(db_path)
    except OSError:
        return None
    return [info.st_ino, info.st_size, info.st_mtime_ns]


def record_unusable(db_path: Path, reason: str) -> None:
    """The engine could not open `db_path`: note why, for the jobs that would start it."""
    note = note_path(db_path)
    private_file(note)
    note.write_text(json.dumps({"file": _identity(db_path), "reason": reason[:500]}))


def known_unusable(db_path: Path) -> str | None:
    """Why the engine could not open `db_path`, if noted for this very file; else None."""
    try:
        noted = json.loads(note_path(db_path).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(noted, dict) or noted.get("file") != _identity(db_path):
        return None  # the file was restored or replaced since: try it again
    return str(noted.get("reason", "unknown"))


def clear_note(db_path: Path) -> None:
    """The engine opened the file: any earlier note is obsolete."""
    with contextlib.suppress(FileNotFoundError):
        note_path(db_path).unlink()


def unusable_error(db_path: Path, reason: str) -> MemoryUnavailable:
    """What a call is told (and the log says): what is wrong and what to do about it."""
    return MemoryUnavailable(
        f"local engine file {db_path} cannot be opened ({reason}). Calls go on without "
        f"memory until it is fixed: stop the worker, move {db_path} aside (keep it: it holds "
        f"the callers' memory) and restore it from a backup, or leave it moved to start with "
        f"an empty memory; then start the worker again. Details: {db_path}.engine.log",
        code="engine_file_unusable",
    )
