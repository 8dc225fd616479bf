"""A business system's local stand-in on one SQLite file: what a line's embedded client (its
calendar, its billing, ...) keeps its tables in, with the failure semantics of `HostApi`.

- The file is opened lazily, on the first call's worker thread, so constructing one inside
  the event loop never blocks on disk or on another process's lock: 0600 in a 0700 directory
  whatever the umask, WAL mode, a 10 s busy timeout; the schema, then `seed`, once a process.
- Every call runs on a thread with a connection of its own, in autocommit mode: `run` for a
  read or a single statement (`fetch_one`, `fetch_all`, `execute`), `transaction` for work
  inside `BEGIN IMMEDIATE … COMMIT` (rolled back on any error). IMMEDIATE takes the write
  lock before the first read, so job processes sharing the file never interleave a check (an
  idempotency key, a version) and the write that depends on it.
- `row`, `rows`, `row_in`: rows read back as the system's dataclasses, days as `date`s.
- `once_per_key`: a change made at most once per idempotency key, in one such transaction. A
  repeated key answers what it did the first time, when the request is the same; a different
  request under a used key is refused, since replaying would hand one caller another's result.
- Any SQLite or file-system failure (a lock held past the busy timeout included) raises the
  system's `HostSystemUnavailable`, "<name> failed (<error>)", as its REST client would.
- The system's own authorization: an actor may act for a customer unless the actor is
  blocked (`blocked_actors`, or `block_actor`) or the customer's account is on hold
  (`place_hold`). Holds live in this file: another system's file knows nothing of them, so
  each system authorises only its own actions.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from dataclasses import fields
from datetime import date
from pathlib import Path
from typing import Any, TypeVar, get_type_hints

from contextdb_livekit.kit.errors import HostSystemUnavailable
from contextdb_livekit.stores.private_files import private_file

T = TypeVar("T")
Row = TypeVar("Row")  # a dataclass a row is read back as

_BUSY_TIMEOUT_S = 10.0
_AUTHORIZATION = """
CREATE TABLE IF NOT EXISTS blocked_actors (actor_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS account_holds (customer_id TEXT PRIMARY KEY);
"""


class HostSqlite:
    # How failures name the system ("local calendar"), what they raise, and its tables: a
    # subclass may name them once here instead of passing them to the constructor.
    name: str = "local business system"
    unavailable: type[HostSystemUnavailable] = HostSystemUnavailable
    schema: str = ""

    def __init__(
        self,
        path: Path,
        *,
        name: str | None = None,
        unavailable: type[HostSystemUnavailable] | None = None,
        schema: str | None = None,
        seed: Callable[[sqlite3.Connection], None] | None = None,
        blocked_actors: frozenset[str] = frozenset(),
    ) -> None:
        self.path = Path(path)
        self.name = name or self.name
        self.unavailable = unavailable or self.unavailable
        self._schema = (self.schema if schema is None else schema) + _AUTHORIZATION
        self._seed = seed
        self._blocked_actors = frozenset(blocked_actors)
        self._prepared = False
        self._prepare_lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: transactions are the explicit BEGIN IMMEDIATE, nothing implicit.
        return sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)

    def _prepare(self) -> None:
        with self._prepare_lock:
            if self._prepared:
                return
            private_file(self.path)
            with closing(self._connect()) as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(self._schema)
                if self._seed is not None:
                    _in_transaction(conn, self._seed)
            self._prepared = True

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` on a connection of its own, on a worker thread."""

        def run() -> T:
            try:
                self._prepare()
                with closing(self._connect()) as conn:
                    return work(conn)
            except (sqlite3.Error, OSError) as exc:
                raise self.unavailable(f"{self.name} failed ({type(exc).__name__}: {exc})") from exc

        return await asyncio.to_thread(run)

    async def transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` inside BEGIN IMMEDIATE … COMMIT, rolled back on any error."""
        return await self.run(lambda conn: _in_transaction(conn, work))

    async def once_per_key(
        self,
        idempotency_key: str,
        *,
        earlier: Callable[[sqlite3.Connection], T | None],
        same: Callable[[T], bool],
        conflict: Exception,
        work: Callable[[sqlite3.Connection], T],
    ) -> T:
        """`work` at most once per `idempotency_key` (which must not be empty), in one
        transaction. `earlier` reads what the key already did; when it did something, that is
        the answer if `same` says it was for this request, else `conflict` is raised."""
        if not idempotency_key:
            raise ValueError("idempotency_key is required")

        def once(conn: sqlite3.Connection) -> T:
            done = earlier(conn)
            if done is None:
                return work(conn)
            if not same(done):
                raise conflict
            return done

        return await self.transaction(once)

    async def execute(self, sql: str, *params: str) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(sql, params)

        await self.run(run)

    async def fetch_one(self, sql: str, *params: object) -> Any:
        """The first row `sql` reads (a tuple), or None."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchone())

    async def fetch_all(self, sql: str, *params: object) -> list[Any]:
        """Every row `sql` reads, as tuples."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchall())

    async def row(self, into: type[Row], sql: str, *params: object) -> Row | None:
        """The first row `sql` reads as an `into` (see `row_in`), or None."""
        return await self.run(lambda conn: self.row_in(conn, into, sql, *params))

    async def rows(self, into: type[Row], sql: str, *params: object) -> list[Row]:
        """Every row `sql` reads, each as an `into` (see `row_in`)."""
        found = await self.fetch_all(sql, *params)
        return [_as(into, row) for row in found]

    @staticmethod
    def row_in(conn: sqlite3.Connection, into: type[Row], sql: str, *params: object) -> Row | None:
        """The first row `sql` reads on `conn` (inside a caller's transaction) as the dataclass
        `into`, its columns as the fields in order, ISO text read back as a `date` where the
        field is one (SQLite keeps days as text); or None."""
        found = conn.execute(sql, params).fetchone()
        return None if found is None else _as(into, found)

    async def aclose(self) -> None:
        # Connections live for one call each, so there is nothing held open to release.
        return None

    async def may_act(self, actor_id: str, customer_id: str) -> bool:
        """This system's authorization: neither the actor blocked nor the account on hold."""
        if actor_id in self._blocked_actors:
            return False

        def check(conn: sqlite3.Connection) -> bool:
            blocked = conn.execute(
                "SELECT 1 FROM blocked_actors WHERE actor_id = ?", (actor_id,)
            ).fetchone()
            return blocked is None and not self.on_hold(conn, customer_id)

        return await self.run(check)

    @staticmethod
    def on_hold(conn: sqlite3.Connection, customer_id: str) -> bool:
        """Whether the customer's account is on hold, inside a caller's own transaction."""
        held = conn.execute("SELECT 1 FROM account_holds WHERE customer_id = ?", (customer_id,))
        return held.fetchone() is not None

    async def block_actor(self, actor_id: str) -> None:
        """From now on `may_act` refuses this actor, for every instance on this file."""
        await self.execute("INSERT OR IGNORE INTO blocked_actors VALUES (?)", actor_id)

    async def place_hold(self, customer_id: str) -> None:
        """Put the customer's account on hold (e.g. unpaid): nobody may act for them here."""
        await self.execute("INSERT OR IGNORE INTO account_holds VALUES (?)", customer_id)


def _as(into: type[Row], row: tuple[Any, ...]) -> Row:
    values = (
        date.fromisoformat(value) if kind is date and isinstance(value, str) else value
        for value, kind in zip(row, _field_types(into), strict=True)
    )
    return into(*values)


_FIELD_TYPES: dict[type, tuple[object, ...]] = {}


def _field_types(into: type) -> tuple[object, ...]:
    if into not in _FIELD_TYPES:  # resolved once per dataclass: its annotations may be text
        hints = get_type_hints(into)
        _FIELD_TYPES[into] = tuple(hints[field.name] for field in fields(into))
    return _FIELD_TYPES[into]


def _in_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result
