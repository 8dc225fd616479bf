"""Embedded billing system on SQLite: idempotent service credits, account holds, blocked actors.

Every credit is one `BEGIN IMMEDIATE` transaction that checks its idempotency key first, so
job processes sharing the file never apply one key twice. An actor may credit a customer
unless the actor is blocked (constructor argument or `block_actor`) or the customer's account
is on hold (`place_hold`, e.g. unpaid).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import uuid
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TypeVar

from billing_client.models import BillingError, BillingUnavailable, Credit, CreditRefused
from contextdb_livekit.api import private_file

_T = TypeVar("_T")

_BUSY_TIMEOUT_S = 10.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS credits (
    credit_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    pence INTEGER NOT NULL CHECK (pence > 0),
    idempotency_key TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS credits_by_customer ON credits(customer_id);
CREATE TABLE IF NOT EXISTS blocked_actors (actor_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS account_holds (customer_id TEXT PRIMARY KEY);
"""


class LocalBilling:
    def __init__(self, path: Path, *, blocked_actors: frozenset[str] = frozenset()) -> None:
        self.path = Path(path)
        self._blocked_actors = frozenset(blocked_actors)
        # Opened lazily on the first call's worker thread: constructing it never blocks the loop.
        self._prepared = False
        self._prepare_lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: transactions are the explicit BEGIN IMMEDIATE below, nothing implicit.
        return sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)

    def _prepare(self) -> None:
        with self._prepare_lock:
            if self._prepared:
                return
            private_file(self.path)  # 0600 in a 0700 directory, whatever the umask
            with closing(self._connect()) as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
            self._prepared = True

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        def run() -> _T:
            try:
                self._prepare()
                with closing(self._connect()) as conn:
                    return work(conn)
            except (sqlite3.Error, OSError) as exc:
                raise BillingUnavailable(
                    f"local billing failed ({type(exc).__name__}: {exc})"
                ) from exc

        return await asyncio.to_thread(run)

    # -- BillingClient ------------------------------------------------------------------

    async def can_credit(self, actor_id: str, customer_id: str, pence: int) -> bool:
        if actor_id in self._blocked_actors:
            return False

        def check(conn: sqlite3.Connection) -> bool:
            blocked = conn.execute(
                "SELECT 1 FROM blocked_actors WHERE actor_id = ?", (actor_id,)
            ).fetchone()
            held = conn.execute(
                "SELECT 1 FROM account_holds WHERE customer_id = ?", (customer_id,)
            ).fetchone()
            return blocked is None and held is None

        return await self._run(check)

    async def apply_credit(self, customer_id: str, pence: int, *, idempotency_key: str) -> Credit:
        if not customer_id:
            raise ValueError("customer_id is required")
        if not idempotency_key:
            raise ValueError("idempotency_key is required")
        if pence <= 0:
            raise CreditRefused("a credit must be positive")

        def apply(conn: sqlite3.Connection) -> Credit:
            conn.execute("BEGIN IMMEDIATE")
            try:
                credit = _credit_locked(conn, customer_id, pence, idempotency_key)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return credit

        return await self._run(apply)

    async def credits_for(self, customer_id: str) -> list[Credit]:
        def read(conn: sqlite3.Connection) -> list[Credit]:
            rows = conn.execute(
                "SELECT credit_id, customer_id, pence FROM credits WHERE customer_id = ?"
                " ORDER BY rowid",
                (customer_id,),
            ).fetchall()
            return [Credit(*row) for row in rows]

        return await self._run(read)

    async def credit_for_key(self, idempotency_key: str) -> Credit | None:
        def read(conn: sqlite3.Connection) -> Credit | None:
            row = conn.execute(
                "SELECT credit_id, customer_id, pence FROM credits WHERE idempotency_key = ?",
                (idempotency_key,),
            ).fetchone()
            return Credit(*row) if row else None

        return await self._run(read)

    async def aclose(self) -> None:
        # Connections live for one call each, so there is nothing held open to release.
        return None

    # -- seeding helpers for hosts and tests --------------------------------------------

    async def block_actor(self, actor_id: str) -> None:
        """From now on `can_credit` refuses this actor, for every instance on this file."""
        await self._execute("INSERT OR IGNORE INTO blocked_actors VALUES (?)", actor_id)

    async def place_hold(self, customer_id: str) -> None:
        """Put the customer's account on hold (e.g. unpaid): nobody may credit it."""
        await self._execute("INSERT OR IGNORE INTO account_holds VALUES (?)", customer_id)

    async def _execute(self, sql: str, *params: str) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(sql, params)

        await self._run(run)


def _credit_locked(
    conn: sqlite3.Connection, customer_id: str, pence: int, idempotency_key: str
) -> Credit:
    earlier = conn.execute(
        "SELECT credit_id, customer_id, pence FROM credits WHERE idempotency_key = ?",
        (idempotency_key,),
    ).fetchone()
    if earlier is not None:
        replay = Credit(*earlier)
        if (replay.customer_id, replay.pence) != (customer_id, pence):
            # Replaying would hand one customer another's credit; refuse loudly instead.
            raise BillingError("idempotency key was already used for a different credit")
        return replay
    if conn.execute("SELECT 1 FROM account_holds WHERE customer_id = ?", (customer_id,)).fetchone():
        raise CreditRefused("the account is on hold")
    credit = Credit(f"cr_{uuid.uuid4().hex[:12]}", customer_id, pence)
    conn.execute(
        "INSERT INTO credits VALUES (?, ?, ?, ?)",
        (credit.credit_id, customer_id, pence, idempotency_key),
    )
    return credit
