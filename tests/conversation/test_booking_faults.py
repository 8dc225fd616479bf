"""The booking's side effect under faults: lost answers, a down booking system, the order of
evidence and confirmation."""

from __future__ import annotations

import sqlite3

import pytest

from billing_client import LocalBilling
from calendar_client import CalendarOutcomeUnknown, CalendarUnavailable
from contextdb_livekit.delivery.flusher import OutboxFlusher
from tests.conversation.conftest import caller, next_weekday, tool_outputs
from tools.registry import LINE_ACTIONS
from tools.systems import VisitSystems


class LosingCalendar:
    """The booking system books, but the answer is lost on the way back (`after=True`),
    or the request never arrives (`after=False`). `resolvable=False`: lookups fail too."""

    def __init__(self, inner, *, after: bool, resolvable: bool = True) -> None:  # type: ignore[no-untyped-def]
        self._inner, self.after, self.resolvable = inner, after, resolvable
        self.lost = 0

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def book(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.lost == 0:
            self.lost += 1
            if self.after:
                await self._inner.book(*args, **kwargs)
            raise CalendarOutcomeUnknown("read timeout")
        return await self._inner.book(*args, **kwargs)

    async def booking_for_key(self, key):  # type: ignore[no-untyped-def]
        if not self.resolvable:
            raise CalendarUnavailable("down")
        return await self._inner.booking_for_key(key)


async def test_a_lost_answer_after_booking_is_resolved_to_booked(make_call, calendar, local_engine):
    identity = caller()
    lossy = LosingCalendar(calendar, after=True)
    harness = await make_call(identity, calendar=lossy)
    await harness.say("book a visit on thursday")
    result = await harness.say("yes")
    [text] = tool_outputs(result, "confirm_read_back")
    assert text.startswith("Booked a service visit")
    [booking] = await calendar.bookings_for(identity.customer_id)
    trail = await local_engine.decision_trail(identity.customer_id)
    assert (trail[-1].status, trail[-1].external_ref) == ("succeeded", booking.booking_id)


async def test_a_request_that_never_arrived_is_reported_as_not_done(
    make_call, calendar, local_engine
):
    identity = caller()
    harness = await make_call(identity, calendar=LosingCalendar(calendar, after=False))
    await harness.say("book a visit on thursday")
    [text] = tool_outputs(await harness.say("yes"), "confirm_read_back")
    assert text.startswith("That did not go through")
    assert await calendar.bookings_for(identity.customer_id) == []
    trail = await local_engine.decision_trail(identity.customer_id)
    assert (trail[-1].status, trail[-1].error_code) == ("failed", "interrupted_before_booking")


async def test_unknown_outcome_waits_for_recovery_by_key(make_call, calendar, local_engine):
    identity = caller()
    lossy = LosingCalendar(calendar, after=True, resolvable=False)
    harness = await make_call(identity, calendar=lossy)
    await harness.say("book a visit on thursday")
    [text] = tool_outputs(await harness.say("yes"), "confirm_read_back")
    assert "can't tell yet" in text
    trail = await local_engine.decision_trail(identity.customer_id)
    assert trail[-1].status is None  # no guess: the receipt waits for the facts

    # Later, the flusher resolves the intent by the booking's own key and reports it.
    outbox = harness.host.outbox
    [intent] = await outbox.items()
    assert intent.state == "intent"
    with sqlite3.connect(outbox.path) as conn:  # the intent's grace period has passed
        conn.execute("UPDATE outbox SET lease_until = 0")
    flusher = OutboxFlusher(
        outbox,
        local_engine,
        LINE_ACTIONS.resolvers(
            VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
        ),
    )
    assert await flusher.flush_once() == 1
    [booking] = await calendar.bookings_for(identity.customer_id)
    trail = await local_engine.decision_trail(identity.customer_id)
    assert (trail[-1].status, trail[-1].external_ref) == ("succeeded", booking.booking_id)


async def test_recovery_never_reports_an_earlier_booking_that_day(
    make_call, calendar, local_engine
):
    identity = caller()
    # An unrelated, earlier booking on the same day for the same customer.
    slot = await calendar.get_slot((await calendar.open_days(calendar_today(), 10))[3].day)
    earlier = await calendar.book(
        identity.customer_id, slot.day, slot.version, idempotency_key="old-1"
    )
    resolver = LINE_ACTIONS.resolvers(
        VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
    )["book_visit"]
    outcome = await resolver(
        {
            "customer_id": identity.customer_id,
            "day": slot.day.isoformat(),
            "host_key": "new-attempt",
        }
    )
    assert outcome["status"] == "failed"
    again = await resolver(
        {"customer_id": identity.customer_id, "day": slot.day.isoformat(), "host_key": "old-1"}
    )
    assert again == {"status": "succeeded", "external_ref": earlier.booking_id}


def calendar_today():  # type: ignore[no-untyped-def]
    from contextdb_livekit.api import today_in

    return today_in("UTC")


class OrderCheckingBackend:
    """Fails the test's expectation if ContextDB hears of a yes the host has not kept."""

    def __init__(self, inner, attestations, customer_id) -> None:  # type: ignore[no-untyped-def]
        self._inner, self._attestations, self._customer = inner, attestations, customer_id
        self.confirmed_without_evidence = 0

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)

    async def confirm(self, user_id, memory_id, **kwargs):  # type: ignore[no-untyped-def]
        kept = await self._attestations.for_customer(self._customer)
        if not any(memory_id in a.memory_ids for a in kept):
            self.confirmed_without_evidence += 1
        return await self._inner.confirm(user_id, memory_id, **kwargs)


async def test_the_attestation_is_kept_before_contextdb_is_told(make_call, local_engine, tmp_path):
    from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore

    identity = caller()
    attestations = SqliteAttestationStore(tmp_path / "attestations.sqlite3")
    checking = OrderCheckingBackend(local_engine, attestations, identity.customer_id)
    harness = await make_call(identity, backend=checking)
    await harness.say("book a visit on thursday", "yes")
    assert len(await harness.calendar.bookings_for(identity.customer_id)) == 1
    assert checking.confirmed_without_evidence == 0


async def _flush_expired(harness, backend) -> int:  # type: ignore[no-untyped-def]
    """What the drain does once the dead call's leases run out."""
    outbox = harness.host.outbox
    with sqlite3.connect(outbox.path) as conn:
        conn.execute("UPDATE outbox SET lease_until = 0")
    flusher = OutboxFlusher(
        outbox,
        backend,
        LINE_ACTIONS.resolvers(
            VisitSystems(
                harness.calendar, LocalBilling(harness.calendar.path.with_name("billing.sqlite3"))
            )
        ),
    )
    return await flusher.flush_once()


async def test_a_call_killed_mid_way_keeps_what_was_said(make_call, local_engine):
    """SIGKILL after the grace period: no end-of-call write ever runs."""
    identity = caller()
    harness = await make_call(identity)
    await harness.say("we moved to 14 oak lane last month", "and thursdays don't work for me")
    await harness.call._checkpoint_task  # the last turn's checkpoint (cheap, in the background)
    rows = await harness.host.outbox.items()
    assert len(rows) == 1 and ":checkpoint:" in rows[0].idempotency_key  # one live checkpoint
    # ... the process dies here: no finish(). Later, the drain delivers the checkpoint.
    assert await _flush_expired(harness, local_engine) == 1
    later = await make_call(identity)
    # Nothing was confirmed before the process died: the caller's words are kept as said,
    # quoted, never as facts (tools.review).
    shown = later.agent.instructions
    assert '"we moved to 14 oak lane last month"' in shown
    assert '"and thursdays don\'t work for me"' in shown
    assert "14 Oak Lane" not in shown and "Thursdays do not work" not in shown


async def test_the_end_of_call_write_supersedes_its_checkpoints(make_call, local_engine):
    identity = caller()
    harness = await make_call(identity)
    await harness.say("we have two boilers", "sorry, three boilers now")
    await harness.call._checkpoint_task
    await harness.confirm_and_hang_up()
    assert await harness.host.outbox.items() == []  # nothing left to replay
    facts = await local_engine.clients.db.factual.list_facts(limit=50, user_id=identity.customer_id)
    current = [f.content for f in facts if f.entity_key == "equipment" and f.superseded_by is None]
    assert len(current) == 1 and "3 boilers" in current[0]


async def test_recovery_reads_only_the_attempts_own_key(calendar):
    """An intent always names the key it executed under; the receipt's key, under which
    nothing was ever booked by the kit, is never looked up in its place."""
    slot = await calendar.get_slot((await calendar.open_days(calendar_today(), 10))[3].day)
    await calendar.book("cust-1", slot.day, slot.version, idempotency_key="receipt-key")
    resolver = LINE_ACTIONS.resolvers(
        VisitSystems(calendar, LocalBilling(calendar.path.with_name("billing.sqlite3")))
    )["book_visit"]
    with pytest.raises(KeyError):
        await resolver({"customer_id": "cust-1", "idempotency_key": "receipt-key"})


async def test_a_barge_in_after_the_yes_still_books_once(make_call, local_engine, monkeypatch):
    """The caller speaks after "yes" but before the booking starts: LiveKit's
    `disallow_interruptions` raises "SpeechHandle is already interrupted". The confirmed
    booking is not lost, and its decision gets exactly one receipt."""
    from livekit.agents.voice.events import RunContext

    def interrupted(self: RunContext) -> None:  # type: ignore[type-arg]
        raise RuntimeError("SpeechHandle is already interrupted")

    monkeypatch.setattr(RunContext, "disallow_interruptions", interrupted)
    identity = caller()
    harness = await make_call(identity)
    await harness.say("book a visit on thursday")
    result = await harness.say("yes please")
    [booked] = tool_outputs(result, "confirm_read_back")  # no internal error
    assert booked.startswith("Booked")
    [booking] = await harness.calendar.bookings_for(identity.customer_id)
    assert booking.day == next_weekday("thursday")
    trail = await local_engine.decision_trail(identity.customer_id)
    assert [(d.outcome, d.status) for d in trail][-1] == ("act", "succeeded")
    assert trail[-1].external_ref == booking.booking_id
