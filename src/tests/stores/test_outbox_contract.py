"""The outbox contract (`stores.outbox.Outbox`), one suite run against every store: the
SQLite file, the shared Postgres table, and the worker's spilling outbox over Postgres.

Two outboxes made by one `make_outbox` share one store: they behave like two hosts (or two
job processes of one host) writing and claiming the same rows.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from contextdb_livekit.delivery.spill import SpillingOutbox
from contextdb_livekit.memory.errors import MemoryRejected, MemoryUnavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.outbox_policy import config_fingerprint
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.outbox import PostgresOutbox
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox

PAYLOAD = {"decision_id": "dec-1", "action_name": "book_visit", "status": "skipped"}


@pytest.fixture(params=["sqlite", "postgres", "spilling"])
def make_outbox(request, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Outboxes on one store. The worker's own outbox with DATABASE_URL is the spilling one
    (each host its own spill)."""

    database = request.getfixturevalue("shared_database") if request.param != "sqlite" else None
    hosts = iter(range(100))

    def make(**policy):  # type: ignore[no-untyped-def]
        if database is None:
            return SqliteOutbox(tmp_path / "outbox.sqlite3", **policy)
        if request.param == "spilling":
            spill = SqliteOutbox(tmp_path / f"spill-{next(hosts)}.sqlite3")
            return SpillingOutbox(PostgresOutbox(database, **policy), spill)
        return PostgresOutbox(database, **policy)

    return make


async def test_every_store_keeps_the_whole_contract(make_outbox) -> None:
    outbox = make_outbox()
    assert isinstance(outbox, Outbox)
    await outbox.check()
    assert await outbox.items() == [] and not await outbox.has_due()


async def test_a_held_row_is_not_claimed_until_its_lease_runs_out(make_outbox) -> None:
    owner, flusher = make_outbox(owner_lease_s=0.5), make_outbox()
    assert await owner.put("k-1", "receipt", "cust-1", PAYLOAD) is True
    assert await flusher.claim_due() == []
    await asyncio.sleep(0.6)
    [claimed] = await flusher.claim_due()
    assert claimed.idempotency_key == "k-1" and claimed.payload == PAYLOAD
    # A second claimer gets nothing while the first claim's lease is live.
    assert await make_outbox().claim_due() == []


async def test_a_second_owner_never_takes_a_live_hold(make_outbox) -> None:
    first, second = make_outbox(), make_outbox()
    assert await first.put("k-1", "receipt", "cust-1", PAYLOAD) is True
    # Another host writing the same key meanwhile: the row is theirs to send, not ours.
    assert await second.put("k-1", "receipt", "cust-1", PAYLOAD) is False
    [row] = await first.items()
    assert row.lease_owner == first.owner


async def test_a_row_a_flusher_holds_is_not_taken_by_an_owner(make_outbox) -> None:
    owner, flusher = make_outbox(), make_outbox()
    await owner.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    [claimed] = await flusher.claim_due()
    assert await owner.put("k-1", "receipt", "cust-1", PAYLOAD) is False
    [row] = await owner.items()
    assert row.lease_owner == claimed.lease_owner != owner.owner


async def test_rewriting_a_row_in_flight_keeps_the_newer_payload(make_outbox) -> None:
    outbox = make_outbox()
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    [claimed] = await outbox.claim_due()
    await outbox.put("k-1", "receipt", "cust-1", {**PAYLOAD, "status": "failed"}, hold=False)
    assert await outbox.renew(claimed, 30) is False  # changed meanwhile: do not send
    await outbox.finish_claim(claimed)
    [left] = await outbox.items()
    assert left.payload["status"] == "failed"
    # Released by the stale finish: due again for the next pass.
    [again] = await outbox.claim_due()
    assert again.version == claimed.version + 1


async def test_a_claim_is_renewed_delivered_and_gone(make_outbox) -> None:
    outbox = make_outbox()
    for key in ("k-1", "k-2", "k-3"):
        await outbox.put(key, "receipt", "cust-1", PAYLOAD, hold=False)
    first = await outbox.claim_due(limit=2)
    assert [item.idempotency_key for item in first] == ["k-1", "k-2"]  # oldest first
    assert await outbox.renew(first[0], 30) is True
    await outbox.finish_claim(first[0])
    assert [item.idempotency_key for item in await outbox.claim_due()] == ["k-3"]
    await outbox.mark_done("k-2")  # without a version: whatever payload it has
    assert [item.idempotency_key for item in await outbox.items()] == ["k-3"]


async def test_failures_back_off_honour_retry_after_and_park(make_outbox) -> None:
    outbox = make_outbox(max_attempts=3)
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    hinted = MemoryUnavailable("429", status=429, retry_after_s=42)
    assert await outbox.settle("k-1", hinted) == "pending"
    [row] = await outbox.items()
    assert 41 <= row.next_attempt_at - time.time() <= 43
    assert not await outbox.has_due()
    assert await outbox.settle("k-1", MemoryUnavailable("down")) == "pending"
    assert await outbox.settle("k-1", MemoryUnavailable("down")) == "dead"
    [parked] = await outbox.parked()
    assert parked.last_error.startswith("gave up after 3 attempts")
    assert await outbox.put("k-1", "receipt", "cust-1", PAYLOAD) is False  # parked stays
    assert await outbox.redrive(["k-1"]) == 1
    [due] = await outbox.claim_due()
    assert due.state == "pending" and due.attempts == 0


async def test_a_claimed_rows_failure_is_settled_on_it(make_outbox) -> None:
    outbox = make_outbox()
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    [claimed] = await outbox.claim_due()
    await outbox.put("k-2", "receipt", "cust-1", PAYLOAD, hold=False)
    rejected = MemoryRejected("action_name bad", code="invalid", status=422)
    assert await outbox.settle_claim(claimed, rejected) == "dead"
    [row] = await outbox.parked()  # only the parked row, not the pending one
    assert (row.idempotency_key, row.attempts, row.lease_owner) == ("k-1", 1, None)
    assert await outbox.settle("gone", MemoryUnavailable("x")) is None  # no such row


async def test_rows_parked_for_configuration_wait_for_a_new_key(make_outbox) -> None:
    outbox = make_outbox(config_fingerprint="key-1")
    await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
    unauthorized = MemoryUnavailable("x")
    unauthorized.disposition = "needs_config"  # type: ignore[misc]
    assert await outbox.settle("k-1", unauthorized) == "needs_config"
    assert await outbox.redrive_config() == 0  # same key: stays parked
    assert await make_outbox(config_fingerprint="key-2").redrive_config() == 1
    assert await outbox.has_due()


async def test_an_intent_is_resolved_under_its_claim(make_outbox) -> None:
    outbox = make_outbox(intent_grace_s=0)
    await outbox.record_intent("k-1", "receipt", "cust-1", {**PAYLOAD, "day": "2026-12-10"})
    # Recording it again (a retried call step) keeps the first intent.
    await outbox.record_intent("k-1", "receipt", "cust-1", {**PAYLOAD, "day": "2026-12-11"})
    [intent] = await outbox.claim_due()
    assert intent.state == "intent" and intent.payload["day"] == "2026-12-10"
    resolved = await outbox.resolve_intent(intent, {**PAYLOAD, "status": "succeeded"})
    assert resolved is not None and resolved.state == "pending"
    assert await outbox.resolve_intent(intent, PAYLOAD) is None  # stale claim
    await outbox.mark_done("k-1", version=resolved.version)
    assert await outbox.items() == []


async def test_a_young_intent_belongs_to_its_call(make_outbox) -> None:
    owner, flusher = make_outbox(intent_grace_s=60), make_outbox()
    await owner.record_intent("k-1", "receipt", "cust-1", PAYLOAD)
    assert await flusher.claim_due() == []
    # The call learns the outcome and sends it itself.
    assert await owner.put("k-1", "receipt", "cust-1", {**PAYLOAD, "status": "succeeded"})


async def test_a_parked_intent_is_redriven_as_an_intent(make_outbox) -> None:
    outbox = make_outbox(intent_grace_s=0)
    await outbox.record_intent("k-1", "receipt", "cust-1", PAYLOAD)
    await outbox.mark_dead("k-1", "resolver gave up")
    [parked] = await outbox.parked()
    assert (parked.state, parked.last_error) == ("dead", "resolver gave up")
    assert [item.state for item in await outbox.items(states=["dead"])] == ["dead"]
    assert await outbox.items(states=["pending"]) == []
    assert await outbox.redrive() == 1
    [again] = await outbox.claim_due()
    assert again.state == "intent"  # resolved again, never sent as it was
    # Parked by a failed resolution: the same.
    rejected = MemoryRejected("no such booking", code="invalid", status=422)
    assert await outbox.settle_claim(again, rejected) == "dead"
    assert await outbox.redrive(["k-1"]) == 1
    assert [item.state for item in await outbox.claim_due()] == ["intent"]


async def test_the_outbox_for_settings_reads_its_rows(
    shared_database: SharedDatabase, tmp_path: Path
) -> None:
    """Each store's `for_settings` gives a working outbox carrying the settings' key."""
    settings = MemorySettings(_env_file=None, MEMORY_OUTBOX_PATH=str(tmp_path / "o.sqlite3"))
    for outbox in (
        SqliteOutbox.for_settings(settings),
        PostgresOutbox.for_settings(settings, shared_database),
    ):
        assert outbox.config_fingerprint == config_fingerprint(settings)
        await outbox.put("k-1", "receipt", "cust-1", PAYLOAD, hold=False)
        [row] = await outbox.items()
        assert row.idempotency_key == "k-1" and row.payload == PAYLOAD
