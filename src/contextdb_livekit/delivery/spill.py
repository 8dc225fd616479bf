"""The shared outbox with a local spill: nothing is lost while the shared Postgres is away.

With DATABASE_URL the outbox lives in Postgres (`stores.postgres.outbox`), so a database that stops
answering used to take the outbox with it: an end-of-call write whose direct send failed had
nowhere durable to go. `SpillingOutbox` keeps the shared outbox's contract and adds a local
SQLite spill on the host's own disk (`MEMORY_SPILL_PATH`, a plain `SqliteOutbox`, so
the spill is leased, redacted by the same callers, and keeps parked rows with their reasons):

- A row whose first write cannot reach Postgres (refused, dropped, no answer within
  `primary_timeout_s`) is written to the spill instead, and every later step of that row in
  this process (its send's outcome, a newer payload) stays in the spill.
- Once Postgres answers again, the flusher's next pass (a call's, or
  `python drain.py` on the same host) moves spilled rows into the
  shared table under their own keys (`PostgresOutbox.adopt`), then deletes them from the spill.
  From there any host delivers them.
- Exactly once: a move interrupted between the insert and the delete is repeated, and the
  key makes the repeat a no-op (the same payload) or a second delivery the backend answers
  from its idempotency record. Decisions and facts are keyed end to end, so neither is
  stored twice.

After a failure the shared database is not asked again for `probe_after_s`: a host whose
database is gone pays one timeout, not one per row.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

from contextdb_livekit.memory.errors import Failure, OutboxUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import (
    PARKED_STATES,
    Outbox,
    OutboxItem,
    OutboxKind,
    OutboxState,
)
from contextdb_livekit.stores.outbox_policy import config_fingerprint
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox

log = logging.getLogger("contextdb_livekit.delivery.spill")


class SpillingOutbox:
    """The `Outbox` contract over the shared `PostgresOutbox`, with a local `SqliteOutbox`
    as the spill."""

    def __init__(
        self,
        primary: PostgresOutbox,
        spill: SqliteOutbox,
        *,
        primary_timeout_s: float = 2.0,
        probe_after_s: float = 2.0,
        move_lease_s: float = 30.0,
    ) -> None:
        self.primary = primary
        self.spill = spill
        # Rows this host holds in the shared table are held under the shared outbox's owner.
        self.owner = primary.owner
        self.config_fingerprint = primary.config_fingerprint
        self.primary_timeout_s = primary_timeout_s
        self.probe_after_s = probe_after_s
        self.move_lease_s = move_lease_s
        # Keys this process wrote to the spill: their later steps go there too.
        self._spilled: set[str] = set()
        self._down_until = 0.0

    @classmethod
    def for_settings(
        cls, settings: MemorySettings, database: SharedDatabase, **kwargs: Any
    ) -> SpillingOutbox:
        fingerprint = config_fingerprint(settings)
        return cls(
            PostgresOutbox(database, config_fingerprint=fingerprint),
            SqliteOutbox(settings.spill_path, config_fingerprint=fingerprint),
            **kwargs,
        )

    # -- the shared database, bounded -----------------------------------------------------

    async def _primary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self._down_until:
            raise OutboxUnavailable(self.primary.path, "did not answer a moment ago")
        try:
            async with asyncio.timeout(self.primary_timeout_s):
                return await getattr(self.primary, method)(*args, **kwargs)
        except TimeoutError as exc:
            self._down_until = time.monotonic() + self.probe_after_s
            raise OutboxUnavailable(
                self.primary.path, f"no answer within {self.primary_timeout_s:.1f} s"
            ) from exc
        except OutboxUnavailable:
            self._down_until = time.monotonic() + self.probe_after_s
            raise
        except Exception as exc:  # the spill is the fallback for any failure of the database
            self._down_until = time.monotonic() + self.probe_after_s
            raise OutboxUnavailable(self.primary.path, f"{type(exc).__name__}: {exc}") from exc

    async def _write(self, method: str, key: str, *args: Any, **kwargs: Any) -> Any:
        """A row's first write: the shared table if it answers, else the spill."""
        if key not in self._spilled:
            try:
                return await self._primary(method, key, *args, **kwargs)
            except OutboxUnavailable as exc:
                log.warning("shared outbox unavailable; row %s kept in the local spill %s: %s",
                            key, self.spill.path, exc.reason)  # fmt: skip
        self._spilled.add(key)
        return await getattr(self.spill, method)(key, *args, **kwargs)

    async def _step(self, method: str, key: str, *args: Any, **kwargs: Any) -> Any:
        """A later step of a row this process wrote: where the row went."""
        if key in self._spilled:
            return await getattr(self.spill, method)(key, *args, **kwargs)
        return await self._primary(method, key, *args, **kwargs)

    async def check(self) -> None:
        try:
            await self._primary("check")
        except OutboxUnavailable as exc:
            log.warning("shared outbox unavailable at start (%s); the spill takes rows", exc.reason)
            await self.spill.check()

    # -- writes by a row's owner -----------------------------------------------------------

    async def record_intent(
        self, key: str, kind: OutboxKind, user_id: str, payload: dict[str, Any]
    ) -> None:
        await self._write("record_intent", key, kind, user_id, payload)

    async def put(
        self,
        key: str,
        kind: OutboxKind,
        user_id: str,
        payload: dict[str, Any],
        *,
        hold: bool = True,
    ) -> bool:
        return bool(await self._write("put", key, kind, user_id, payload, hold=hold))

    async def mark_done(self, key: str, *, version: int | None = None) -> None:
        if key in self._spilled:
            await self.spill.mark_done(key, version=version)
            if version is None:
                # A copy written to the shared table before the spill took over is done too;
                # if it cannot be reached, it is delivered again under its key (deduped).
                with contextlib.suppress(OutboxUnavailable):
                    await self._primary("mark_done", key)
            return
        await self._primary("mark_done", key, version=version)

    async def settle(
        self,
        key: str,
        error: BaseException | Failure,
        *,
        delay_s: float | None = None,
    ) -> OutboxState | None:
        return await self._step("settle", key, error, delay_s=delay_s)

    async def mark_dead(self, key: str, error: str) -> None:
        await self._step("mark_dead", key, error)

    # -- flusher side: only the shared table is claimed; the spill is moved into it first -----

    async def claim_due(self, *, limit: int = 10, lease_s: float = 30.0) -> list[OutboxItem]:
        try:
            await self.move_spilled()
        except OutboxUnavailable as exc:
            log.warning("spilled rows not moved yet: %s", exc.reason)
        return await self._primary("claim_due", limit=limit, lease_s=lease_s)

    async def renew(self, item: OutboxItem, lease_s: float) -> bool:
        return bool(await self._primary("renew", item, lease_s))

    async def resolve_intent(self, item: OutboxItem, payload: dict[str, Any]) -> OutboxItem | None:
        return await self._primary("resolve_intent", item, payload)

    async def finish_claim(self, item: OutboxItem) -> None:
        await self._primary("mark_done", item.idempotency_key, version=item.version)

    async def settle_claim(
        self, item: OutboxItem, failure: Failure, *, delay_s: float | None = None
    ) -> OutboxState | None:
        return await self._primary("settle", item.idempotency_key, failure, delay_s=delay_s)

    async def move_spilled(self, *, limit: int = 100) -> int:
        """Move every spilled row nobody holds into the shared table; returns how many.
        Raises `OutboxUnavailable` when the shared table does not answer (the rows stay)."""
        items = await self.spill.claim_movable(limit=limit, lease_s=self.move_lease_s)
        moved = 0
        try:
            for item in items:
                # The wait a spilled row still had (a backoff, a Retry-After) comes along.
                wait_s = max(0.0, item.next_attempt_at - time.time())
                max_wait_s = self.primary.policy.backoff.max_s
                await self._primary("adopt", item, wait_s=min(wait_s, max_wait_s))
                await self.spill.mark_done(item.idempotency_key, version=item.version)
                self._spilled.discard(item.idempotency_key)
                moved += 1
        finally:
            for item in items[moved:]:
                await self.spill.release(item)
            if moved:
                log.info("moved %d spilled row(s) into the shared outbox", moved)
        return moved

    async def redrive_config(self, fingerprint: str | None = None) -> int:
        local = await self.spill.redrive_config(fingerprint)
        return local + int(await self._primary("redrive_config", fingerprint))

    async def redrive(self, keys: Sequence[str] | None = None) -> int:
        local = await self.spill.redrive(keys)
        return local + int(await self._primary("redrive", keys))

    # -- reads -----------------------------------------------------------------------------

    async def items(self, *, states: Sequence[str] | None = None) -> list[OutboxItem]:
        """Spilled rows first, then the shared table's (which must answer)."""
        spilled = await self.spill.items(states=states)
        return spilled + list(await self._primary("items", states=states))

    async def parked(self) -> list[OutboxItem]:
        return await self.items(states=PARKED_STATES)

    async def has_due(self) -> bool:
        return await self.spill.has_movable() or bool(await self._primary("has_due"))


def open_outbox(settings: MemorySettings, database: SharedDatabase | None) -> Outbox:
    """The host's outbox: the shared Postgres table with this host's spill, or (one host)
    the local SQLite file."""
    if database is not None:
        return SpillingOutbox.for_settings(settings, database)
    return SqliteOutbox.for_settings(settings)
