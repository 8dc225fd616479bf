"""What a store holds about one caller, and how it forgets it: the contract every store that
keeps personal data implements beside its own (`stores.sqlite.caller_data`,
`stores.postgres.caller_data`, the memory partitions in `backends.partition`).

What every implementation promises:

- `held_about(customer_id)` lists every item the store keeps about that caller, each with
  where it is, when it was written and what it says (texts as stored: secrets were already
  withheld before they were written). Nothing about another caller.
- `erase(customer_id)` removes the caller's personal data and returns how many items it
  changed. It is idempotent (a second run changes nothing and returns 0) and safe while
  calls run (no store is closed, replaced or locked for longer than one statement).
  Records that exactly-once delivery still needs survive *without* personal data: a
  decision, its receipt and a queued receipt keep their ids and keys, and the customer id
  becomes `pseudonym(decision_id)` — the same value in every store, so a queued receipt
  still finds its decision, and nothing links two of them to each other or to the caller.
  A decision still open (no receipt yet) is left as it is: the call that made it may still
  close it; `erase` reports it as deferred and a rerun after the call strips it.
- `expire(policy, now)` applies the retention policy (`RetentionPolicy`) at `now`; an
  injected clock in tests, the drain's own on its schedule.

SQLite stores also scrub their files after a change (`stores.sqlite.caller_data.scrub`):
deleted text is overwritten in the file, its free pages and its WAL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol, runtime_checkable

ERASED_PREFIX = "erased-"


def pseudonym(record_id: str) -> str:
    """The customer id an erased caller's surviving record carries: derived from the record
    itself (a decision id), so every store agrees on it and reruns write the same value."""
    return f"{ERASED_PREFIX}{record_id}"


@dataclass(frozen=True)
class HeldItem:
    """One thing a store keeps about a caller, as the export shows it."""

    # Which store: "memory", "decision", "receipt", "outbox", "spill", "attestation",
    # "directory", ...
    store: str
    # Where exactly: a file path or a table name.
    location: str
    # What it is: "memory", "decision", "receipt", "queued_write", "queued_receipt",
    # "attestation", "phone_number", ...
    kind: str
    item_id: str
    # When it was written (ISO 8601), when the store knows.
    at: str | None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ErasedCount:
    """What one store's `erase` did."""

    changed: int = 0
    # Records left as they were because a running call may still need them (open decisions).
    deferred: int = 0


@dataclass(frozen=True)
class SlotRetention:
    """Facts in slots `entity`/`attribute_prefix*` are kept for `keep`, then forgotten."""

    entity: str
    attribute_prefix: str
    keep: timedelta

    def matches(self, entity: str | None, attribute: str | None) -> bool:
        return entity == self.entity and (attribute or "").startswith(self.attribute_prefix)


@dataclass(frozen=True)
class RetentionPolicy:
    """How long each kind of personal data is kept (`caller_data.settings` builds it)."""

    # Memory facts by slot; the first rule that matches wins, else `facts_default`.
    slots: tuple[SlotRetention, ...]
    facts_default: timedelta
    # Attestations, decisions and receipts: kept whole for this audit period, then stripped
    # of personal data (the ids and outcomes stay).
    audit: timedelta
    # Outbox rows parked as dead (a human never re-drove them): their payload is dropped.
    parked: timedelta
    # The words of an attestation (the host's read-back, the caller's answer) may quote any
    # fact ("I'll note the access code is on file and ..."), so they go after this, before
    # the audit period ends; who, when and which memories stay for the audit period.
    evidence_text: timedelta

    def keep_fact(self, entity: str | None, attribute: str | None) -> timedelta:
        for rule in self.slots:
            if rule.matches(entity, attribute):
                return rule.keep
        return self.facts_default

    def audit_cutoff(self, now: datetime) -> datetime:
        return now - self.audit

    def evidence_text_cutoff(self, now: datetime) -> datetime:
        return now - min(self.evidence_text, self.audit)


@runtime_checkable
class CallerDataStore(Protocol):
    # Named in the export and in erase's progress ("attestations", "outbox", ...).
    name: str

    async def held_about(self, customer_id: str) -> list[HeldItem]: ...

    async def erase(self, customer_id: str) -> ErasedCount: ...

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        """Apply the retention policy at `now`; how many items changed."""
        ...
