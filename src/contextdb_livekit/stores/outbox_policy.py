"""Outbox policy: the rules every outbox store applies alike, whatever keeps its rows.

An outbox (`stores.outbox.Outbox`) keeps receipts and fact writes that could not reach
ContextDB yet; a row is deleted only after the backend accepted it, and its idempotency key
travels with it, so a replay after a crash is exactly-once in effect. The stores are
`stores.sqlite.outbox` (one host's file) and `stores.postgres.outbox` (shared by every
host); the flusher is `delivery.flusher`, the command line `delivery.outbox`:

    python -m contextdb_livekit.delivery.outbox list | parked | redrive KEY... | redrive --all
        [--path FILE]

Here, once for both stores: how long an owner holds a row and an intent waits, how a failure
settles a row (`memory.errors.classify_failure`: retry later with backoff or the backend's
Retry-After, park `needs_config` until the configured key changes (401/403), park `dead`
(422, 404, 409, or after `max_attempts`)), and the fingerprint of the configured key.
"""

from __future__ import annotations

import hashlib
import os
import random
import uuid
from dataclasses import dataclass, field
from typing import TypedDict

from contextdb_livekit.memory.errors import Failure
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import PARKED_STATES, OutboxState


def config_fingerprint(settings: MemorySettings) -> str:
    """Identifies the configured backend and key without revealing the key: rows parked as
    `needs_config` under one fingerprint are re-driven once it changes."""
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    material = f"{settings.backend_name}|{settings.base_url}|{key}|{settings.local_path}"
    return hashlib.sha256(material.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Backoff:
    base_s: float = 1.0
    max_s: float = 300.0

    def delay(self, attempts: int, retry_after_s: float | None = None) -> float:
        if retry_after_s is not None and retry_after_s >= 0:
            # The backend said when; capped so a bogus hint cannot park a row for a day.
            return min(retry_after_s, self.max_s * 4)
        delay = min(self.max_s, self.base_s * 2 ** min(attempts, 30))
        return delay * random.uniform(0.5, 1.0)


@dataclass(frozen=True)
class Settlement:
    """What one failed delivery does to its row."""

    state: OutboxState
    reason: str
    wait_s: float
    # The state a parked row goes back to when re-driven (None: not parked).
    parked_from: str | None


class PolicyOptions(TypedDict, total=False):
    """`OutboxPolicy`'s fields, as keyword arguments of a store's constructor."""

    intent_grace_s: float
    owner_lease_s: float
    max_attempts: int
    config_fingerprint: str | None
    backoff: Backoff


@dataclass(frozen=True)
class OutboxPolicy:
    # An intent younger than this belongs to a live call that is still booking.
    intent_grace_s: float = 120.0
    # How long a direct sender holds its row; far above the gate/shutdown budgets.
    owner_lease_s: float = 30.0
    max_attempts: int = 20
    config_fingerprint: str | None = None
    backoff: Backoff = field(default_factory=Backoff)

    def settle(
        self, failure: Failure, attempts: int, current: str, delay_s: float | None
    ) -> Settlement:
        """A failed row's next state after its `attempts`-th try, from `current`."""
        if failure.disposition == "needs_config":
            state: OutboxState = "needs_config"
        elif failure.disposition == "dead" or attempts >= self.max_attempts:
            state = "dead"
        else:
            state = "intent" if current == "intent" else "pending"
        reason = failure.reason
        if failure.disposition == "retry" and state == "dead":
            reason = f"gave up after {attempts} attempts: {reason}"
        wait = delay_s if delay_s is not None else self.backoff.delay(
            attempts - 1, failure.retry_after_s
        )  # fmt: skip
        parked_from = current if state in PARKED_STATES else None
        return Settlement(state, reason[:500], wait, parked_from)


def owner_token() -> str:
    """A lease token for one outbox owner (a job process's direct sends)."""
    return f"owner:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def claim_token() -> str:
    """A lease token for one flusher claim."""
    return f"claim:{os.getpid()}:{uuid.uuid4().hex[:12]}"
