"""Test helper: find a planted secret anywhere at rest under some directories.

    hits = find_planted("4111111111111111", [tmp_path])   # [] when nothing holds it

Every file is searched as raw bytes (UTF-8 and UTF-16, ASCII case folded), which covers logs,
JSON files, SQLite pages the SQL layer no longer shows (deleted rows, free pages), and the
`-wal` / `-journal` files beside a database. Each SQLite database is also read through SQL,
from a copy taken together with its `-wal` (so rows not yet checkpointed count too):
every table (FTS shadow tables included), every column, TEXT, JSON and BLOB alike, with JSON
escapes undone. A secret written with separators ("4111 1111 1111 1111") is also looked for
as its bare digits, because storage may normalise it.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"


def secret_variants(secret: str) -> list[str]:
    """The forms of `secret` worth looking for: itself, and its bare digits if it has separators."""
    if not secret:
        raise ValueError("secret must not be empty")
    variants = [secret]
    digits = re.sub(r"[\s\-\u2013.]", "", secret)
    if digits != secret and digits.isdigit() and len(digits) >= 4:
        variants.append(digits)
    return variants


def _files(roots: list[Path]) -> Iterator[Path]:
    for root in roots:
        if not root.exists():
            raise FileNotFoundError(f"scan root {root} does not exist")
        if root.is_file():
            yield root
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink():
                yield path


def _raw_hits(path: Path, data: bytes, variants: list[str]) -> list[str]:
    folded = data.lower()
    hits: list[str] = []
    for variant in variants:
        for encoding in ("utf-8", "utf-16-le", "utf-16-be"):
            needle = variant.lower().encode(encoding)
            offset = folded.find(needle)
            if offset >= 0:
                hits.append(f"{path}: raw bytes ({encoding}) at offset {offset}")
    return hits


_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _value_holds(value: object, variants: list[str]) -> bool:
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value).lower()
        return any(v.lower().encode(enc) in raw for v in variants for enc in ("utf-8", "utf-16-le"))
    text = "" if value is None else str(value)
    # JSON writers may escape characters ("\u0034" for "4"): look at the unescaped text too.
    unescaped = _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return any(v.casefold() in t.casefold() for v in variants for t in (text, unescaped))


def _sql_hits(path: Path, variants: list[str]) -> list[str]:
    hits: list[str] = []
    with tempfile.TemporaryDirectory(prefix="secret-scan-") as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        for suffix in ("-wal", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                shutil.copyfile(side, copy.with_name(copy.name + suffix))
        conn = sqlite3.connect(copy)
        try:
            conn.execute("PRAGMA query_only = ON")
            tables = [
                row[0]
                for row in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
                )
            ]
            for table in tables:
                quoted = '"' + table.replace('"', '""') + '"'
                try:
                    cursor = conn.execute(f"SELECT * FROM {quoted}")
                except sqlite3.OperationalError as exc:
                    if "no such module" not in str(exc):
                        raise
                    # A virtual table whose module this sqlite lacks: its rows live in shadow
                    # tables, which are plain tables and are read in this loop.
                    continue
                columns = [d[0] for d in cursor.description or ()]
                for n, row in enumerate(cursor):
                    for column, value in zip(columns, row, strict=True):
                        if _value_holds(value, variants):
                            hits.append(f"{path}: table {table} column {column} row {n}")
        finally:
            conn.close()
    return hits


def find_planted(secret: str, roots: list[Path]) -> list[str]:
    """Where `secret` (or its bare digits) is found under `roots`; [] when nowhere."""
    variants = secret_variants(secret)
    hits: list[str] = []
    for path in _files(roots):
        data = path.read_bytes()
        hits += _raw_hits(path, data, variants)
        if data.startswith(SQLITE_MAGIC):
            try:
                hits += _sql_hits(path, variants)
            except sqlite3.DatabaseError as exc:
                # A database the scan cannot read is a failed scan, never a clean one.
                raise RuntimeError(f"cannot read SQLite file {path}: {exc}") from exc
    return hits
