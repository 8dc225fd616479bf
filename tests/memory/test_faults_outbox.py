"""SqliteOutbox under faults: each error class from a fake Cloud (the real CloudClient and
CloudMemory over respx), per-row isolation, bounded calls and shutdown, leases against a
second sender, intent resolution by key, parked rows and re-drive (issue 14, issue 11 #3)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from contextdb_cloud_client import CloudClient

from billing_client import LocalBilling
from calendar_client import CalendarUnavailable, LocalCalendar
from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.delivery.flusher import OutboxFlusher
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.memory.models import receipt_idempotency_key
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox
from tests.memory.support import day_slot as visit_day_slot
from tests.memory.support import plain_fact as caller_said
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://cloud.test"
DAY = date(2026, 12, 10)
RECEIPT_OK = {
    "decision_id": "dec-1",
    "outcome": "act",
    "receipt": {
        "id": "rcpt_1",
        "decision_id": "dec-1",
        "action_name": "book_visit",
        "status": "skipped",
        "policy_alignment": "aligned",
        "external_ref": None,
        "error_code": None,
        "request_id": "req_1",
        "created_at": "2026-12-03T10:00:00Z",
    },
}
REMEMBER_OK = {"memories": [], "memory_version": 1, "primary_wal_lsn": None}

# What the Cloud answers → what the outbox row becomes.
ERROR_CLASSES: dict[str, tuple[Any, str]] = {
    "500": (httpx.Response(500, json={"code": "internal", "message": "boom"}), "pending"),
    "503-html": (httpx.Response(503, text="<html>unavailable</html>"), "pending"),
    "429": (httpx.Response(429, json={"code": "rate_limited", "message": "slow"}), "pending"),
    "200-non-json": (httpx.Response(200, text="<html>maintenance</html>"), "pending"),
    "200-wrong-shape": (httpx.Response(200, json={"unexpected": True}), "pending"),
    "reset": (httpx.ReadError("connection reset by peer"), "pending"),
    "timeout": (httpx.ReadTimeout("slow"), "pending"),
    "401": (httpx.Response(401, json={"code": "unauthorized", "message": "bad"}), "needs_config"),
    "403": (httpx.Response(403, json={"code": "forbidden", "message": "no"}), "needs_config"),
    "422": (httpx.Response(422, json={"code": "invalid", "message": "action_name bad"}), "dead"),
    "409": (httpx.Response(409, json={"code": "receipt_exists", "message": "other"}), "dead"),
    "404": (httpx.Response(404, json={"code": "decision_not_found", "message": "no"}), "dead"),
}  # fmt: skip


def receipt_row(decision_id: str = "dec-1") -> dict[str, Any]:
    return {"decision_id": decision_id, "action_name": "book_visit", "status": "skipped"}


async def queue_both_kinds(outbox: SqliteOutbox, user_id: str = "cust-1") -> None:
    await outbox.put("receipt:dec-1", "receipt", user_id, receipt_row(), hold=False)
    facts = {"facts": [caller_said("My boiler is in the loft").as_item()]}
    await outbox.put("facts:call-1", "remember_many", user_id, facts, hold=False)


def states(items: list[Any]) -> dict[str, tuple[str, int]]:
    return {i.idempotency_key: (i.state, i.attempts) for i in items}


@pytest.mark.parametrize("case", sorted(ERROR_CLASSES))
async def test_each_cloud_error_class_gets_its_disposition(tmp_path: Path, case: str) -> None:
    answer, expected = ERROR_CLASSES[case]
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", config_fingerprint="key-1")
    await queue_both_kinds(outbox)
    cloud = CloudMemory(CloudClient(BASE, "cdb_fault_test", timeout=2.0))
    flusher = OutboxFlusher(outbox, cloud, {}, base_delay_s=0, max_delay_s=0)
    with respx.mock(base_url=BASE) as api:
        for path in ("/v1/receipts", "/v1/remember_many"):
            route = api.post(path)
            route.mock(side_effect=answer) if isinstance(answer, Exception) else route.mock(
                return_value=answer
            )
        assert await flusher.flush_once() == 0
    rows = await outbox.items()
    assert {r.state for r in rows} == {expected}, states(rows)
    assert all(r.attempts == 1 and r.last_error for r in rows)
    if case == "422":
        assert all("action_name bad" in (r.last_error or "") for r in rows)

    # The backend recovers. Retryable rows go out on the next pass; rows parked for
    # configuration wait for a new key; dead rows wait for a person.
    with respx.mock(base_url=BASE, assert_all_called=False) as api:
        api.post("/v1/receipts").respond(200, json=RECEIPT_OK)
        api.post("/v1/remember_many").respond(200, json=REMEMBER_OK)
        landed = await flusher.flush_once()
        if expected == "pending":
            assert landed == 2
        elif expected == "needs_config":
            assert landed == 0
            rekeyed = SqliteOutbox(outbox.path, config_fingerprint="key-2")
            assert await OutboxFlusher(rekeyed, cloud, {}).flush_once() == 2
        else:
            assert landed == 0
            assert {r.idempotency_key for r in await outbox.parked()} == {
                "receipt:dec-1",
                "facts:call-1",
            }
            assert await outbox.redrive(["receipt:dec-1"]) == 1
            assert await flusher.flush_once() == 1
    await cloud.close()


async def test_retryable_failures_park_after_max_attempts(tmp_path: Path) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", max_attempts=3)
    await outbox.put("receipt:dec-1", "receipt", "cust-1", receipt_row(), hold=False)

    class Down:
        async def report_execution(self, *args: Any, **kwargs: Any) -> None:
            raise MemoryUnavailable("still down", code="network")

    flusher = OutboxFlusher(outbox, Down(), {}, base_delay_s=0, max_delay_s=0)  # type: ignore[arg-type]
    for _ in range(5):
        await flusher.flush_once()
    [row] = await outbox.items()
    assert (row.state, row.attempts) == ("dead", 3)
    assert row.last_error == "gave up after 3 attempts: network: still down"


async def test_one_bad_row_never_stops_the_others(tmp_path: Path, local_engine, user_id) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    good = await local_engine.evaluate_action(user_id, "book", slot=visit_day_slot(DAY))
    # 1: an intent whose resolver fails (calendar down); 2: an old payload missing a field;
    # 3: a row the backend chokes on with a non-memory error; 4: a valid receipt, last.
    await outbox.record_intent("receipt:intent-1", "receipt", user_id, receipt_row("d-1"))
    await outbox.put("receipt:old-shape", "receipt", user_id, {"action_name": "x"}, hold=False)
    await outbox.put("receipt:weird", "receipt", user_id, receipt_row("weird"), hold=False)
    key = receipt_idempotency_key(good.decision_id)
    await outbox.put(key, "receipt", user_id, receipt_row(good.decision_id), hold=False)

    class Picky:
        async def report_execution(self, uid: str, decision_id: str, *a: Any, **kw: Any) -> Any:
            if decision_id == "weird":
                raise RuntimeError("unexpected payload type")
            return await local_engine.report_execution(uid, decision_id, *a, **kw)

    async def calendar_down(payload: dict[str, Any]) -> dict[str, Any]:
        raise CalendarUnavailable("booking system timed out")

    flusher = OutboxFlusher(outbox, Picky(), {"book_visit": calendar_down})  # type: ignore[arg-type]
    assert await flusher.flush_once() == 1
    assert await local_engine.receipt_for(user_id, good.decision_id) is not None
    reasons = {i.idempotency_key: (i.state, i.last_error) for i in await outbox.items()}
    assert reasons == {
        "receipt:intent-1": ("intent", "CalendarUnavailable: booking system timed out"),
        "receipt:old-shape": ("pending", "KeyError: 'decision_id'"),
        "receipt:weird": ("pending", "RuntimeError: unexpected payload type"),
    }


class Hanging:
    async def report_execution(self, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(60)


async def test_every_call_in_the_flusher_is_bounded(tmp_path: Path) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    await outbox.put("receipt:hang", "receipt", "cust-1", receipt_row(), hold=False)
    await outbox.record_intent("receipt:resolve-hang", "receipt", "cust-1", receipt_row("d-2"))

    async def resolver_hangs(payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(60)
        return {}

    flusher = OutboxFlusher(
        outbox, Hanging(), {"book_visit": resolver_hangs}, lease_s=2, call_timeout_s=0.2
    )  # type: ignore[arg-type]
    started = time.monotonic()
    assert await flusher.flush_once() == 0
    assert time.monotonic() - started < 5  # two 60 s hangs, each cut at 0.2 s
    assert {i.last_error for i in await outbox.items()} == {
        "timeout: the call did not finish in time"
    }


async def test_stop_returns_within_its_budget_while_a_send_hangs(tmp_path: Path) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    await outbox.put("receipt:hang", "receipt", "cust-1", receipt_row(), hold=False)
    flusher = OutboxFlusher(outbox, Hanging(), {}, lease_s=120, call_timeout_s=60)  # type: ignore[arg-type]
    flusher.start(interval_s=0.05)
    await asyncio.sleep(0.3)  # the send is in flight now
    started = time.monotonic()
    await flusher.stop(timeout_s=0.2)
    assert time.monotonic() - started < 2
    [row] = await outbox.items()
    assert row.lease_until > time.time()  # still leased: re-sent after expiry, same key


async def test_a_row_held_by_its_owner_is_not_sent_by_a_flusher(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    owner, other = SqliteOutbox(path), SqliteOutbox(path)
    sent: list[str] = []

    class Counting:
        async def report_execution(self, *args: Any, idempotency_key: str, **kw: Any) -> None:
            sent.append(idempotency_key)

    flusher = OutboxFlusher(other, Counting(), {})  # type: ignore[arg-type]
    assert await owner.put("receipt:owned", "receipt", "cust-1", receipt_row()) is True
    assert await flusher.flush_once() == 0  # the owner is sending it directly
    await owner.record_intent("receipt:booking", "receipt", "cust-1", receipt_row("d-3"))
    assert await flusher.flush_once() == 0  # a live call's intent is the call's
    # The owner's direct send failed: released with a reason, due for any flusher.
    await owner.settle("receipt:owned", MemoryUnavailable("down"), delay_s=0)
    assert await flusher.flush_once() == 1
    assert sent == ["receipt:owned"]
    # A flusher holding a row is never overridden by an owner's put.
    await owner.put("receipt:late", "receipt", "cust-1", receipt_row(), hold=False)
    assert len(await other.claim_due(limit=1)) == 1
    assert await owner.put("receipt:late", "receipt", "cust-1", receipt_row()) is False


async def test_two_flusher_processes_never_send_one_row_twice(tmp_path: Path) -> None:
    """Slow deliveries (100 ms) and a short lease (0.6 s) on 20-row claims of 50 rows:
    without per-row renewal the tail of a claim expires while its holder is still working
    through it, and the other process, idle by then, claims and re-sends it."""
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    for n in range(50):
        await outbox.put(f"receipt:race-{n}", "receipt", "cust-1", receipt_row(), hold=False)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.memory.race_flush_worker",
                str(outbox.path),
                name,
                "0.08",
                "0.6",
                "20",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    outputs = [await asyncio.to_thread(p.communicate, timeout=120) for p in procs]
    for proc, (_, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
    starts = Counter(
        line.split()[1]
        for out, _ in outputs
        for line in out.splitlines()
        if line.startswith("start")
    )
    senders = {line.split()[2] for out, _ in outputs for line in out.splitlines()}
    sent_twice = sum(1 for count in starts.values() if count > 1)
    print(f"rows: 50, sent: {len(starts)}, sent twice: {sent_twice}, senders: {sorted(senders)}")
    assert len(starts) == 50
    assert sent_twice == 0
    assert senders == {"a", "b"}  # both really took part
    assert await outbox.items() == []


async def test_intent_is_resolved_by_this_attempts_key(
    tmp_path: Path, local_engine, user_id
) -> None:
    calendar = LocalCalendar(tmp_path / "calendar.sqlite3", today=date(2026, 12, 7))
    # An earlier, unrelated booking the same day under another attempt's key.
    earlier = await calendar.book(user_id, DAY, 1, idempotency_key="receipt:earlier-call")
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3", intent_grace_s=0)
    resolvers = LINE_ACTIONS.resolvers(
        VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
    )
    decisions = []
    for _ in range(2):
        decision = await local_engine.evaluate_action(user_id, "book", slot=visit_day_slot(DAY))
        decisions.append(decision)
        await outbox.record_intent(
            receipt_idempotency_key(decision.decision_id),
            "receipt",
            user_id,
            {**receipt_row(decision.decision_id), "customer_id": user_id,
             "host_key": receipt_idempotency_key(decision.decision_id), "intent": True},
        )  # fmt: skip
    # The first attempt died before booking; the second after booking (under its key).
    booked = await calendar.book(
        user_id, DAY, 2, idempotency_key=receipt_idempotency_key(decisions[1].decision_id)
    )
    assert await OutboxFlusher(outbox, local_engine, resolvers).flush_once() == 2
    first = await local_engine.receipt_for(user_id, decisions[0].decision_id)
    second = await local_engine.receipt_for(user_id, decisions[1].decision_id)
    assert (first.receipt.status, first.receipt.error_code) == (
        "failed",
        "interrupted_before_booking",
    )
    assert (second.receipt.status, second.receipt.external_ref) == ("succeeded", booked.booking_id)
    assert earlier.booking_id not in {first.receipt.external_ref, second.receipt.external_ref}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "contextdb_livekit.delivery.outbox", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


async def test_parked_rows_are_listed_and_redriven_by_command(tmp_path: Path) -> None:
    outbox = SqliteOutbox(tmp_path / "outbox.sqlite3")
    await queue_both_kinds(outbox)
    await outbox.settle("receipt:dec-1", MemoryUnavailable("x"), delay_s=60)
    await outbox.mark_dead("facts:call-1", "invalid: content too long")
    path = str(outbox.path)
    listed = run_cli("--path", path, "list")
    assert listed.returncode == 0
    assert "receipt:dec-1" in listed.stdout and "facts:call-1" in listed.stdout
    parked = run_cli("--path", path, "parked")
    assert "facts:call-1" in parked.stdout and "invalid: content too long" in parked.stdout
    assert "receipt:dec-1" not in parked.stdout
    assert run_cli("--path", path, "redrive").returncode == 2  # needs KEY or --all
    missing = run_cli("--path", path, "redrive", "nope")
    assert missing.returncode == 1 and "re-driven: 0" in missing.stdout
    redriven = run_cli("--path", path, "redrive", "--all")
    assert redriven.returncode == 0 and "re-driven: 1" in redriven.stdout
    assert {i.state for i in await outbox.items()} == {"pending"}
    assert run_cli("--path", str(tmp_path / "absent.sqlite3"), "list").returncode == 1
