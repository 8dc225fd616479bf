"""The erasure journal: which callers were erased in the last day, so a call that was already
running when its caller was erased keeps nothing (no checkpoint, no end-of-call write).

An erasure (`python -m contextdb_livekit.caller_data erase`, or the drain finishing an
interrupted forget) notes the caller first; a running call asks `erased_since(customer_id,
the call's start)` before each write it would make. A subject is the SHA-256 of the customer
id, never the id itself, and is kept only `KEEP_S`: past that no call that started before the
erasure can still be running (LiveKit ends a job long before), so the note is deleted.

What every implementation (stores.sqlite.erasures, stores.postgres.erasures) promises:

- after `note(customer_id)` returns, `erased_since(customer_id, t)` is True on every handle to
  the same store for any `t` before the note (the erasure's wall-clock time), and False for
  a `t` after it; unknown callers are False;
- `forget_before(cutoff)` deletes notes older than `cutoff` (epoch seconds);
- a store that cannot answer raises `ErasuresUnavailable`; a call then writes as it would
  have (the erasure's own rerun, or retention, still removes it).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Protocol

from contextdb_livekit.stores.caller_data import ErasedCount, HeldItem, RetentionPolicy

KEEP_S = 24 * 3600.0


class ErasuresUnavailable(Exception):
    """The journal could not be read or written."""


def subject(customer_id: str) -> str:
    return hashlib.sha256(f"erasure|{customer_id}".encode()).hexdigest()


class ErasureJournal(Protocol):
    async def note(self, customer_id: str) -> None: ...

    async def erased_since(self, customer_id: str, since: float) -> bool: ...

    async def forget_before(self, cutoff: float) -> int: ...


class ErasureJournalData:
    """The journal as a caller-data store (`stores.caller_data`), first in an erasure's
    order: the caller is noted before anything is erased, so a call still running sees it."""

    name = "erasures"

    def __init__(self, journal: ErasureJournal) -> None:
        self.journal = journal

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        return []  # a hash and a time, for a day: nothing that says anything about the caller

    async def erase(self, customer_id: str) -> ErasedCount:
        await self.journal.note(customer_id)
        return ErasedCount()

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        return await self.journal.forget_before(now.timestamp() - KEEP_S)
