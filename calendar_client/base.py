"""The booking system as the worker sees it: its records, the errors callers are expected to
handle, and the protocol `LocalCalendar` and `HttpCalendar` implement. Every method may also
raise `CalendarUnavailable` when the booking system can't be used.

An HTTP answer is read straight into `Slot` and `Booking`: their `Field` checks are what the
host's answer must meet (the local calendar's own rows meet them by construction).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Protocol

from pydantic import Field

from contextdb_livekit.api import HostSystemUnavailable, OutcomeUnknown


@dataclass(frozen=True)
class Slot:
    """One day's visits. `version` moves on every change, so a booking made against a stale
    read can be refused instead of silently overbooking."""

    day: date
    capacity: Annotated[int, Field(ge=0)]
    booked: Annotated[int, Field(ge=0)]
    version: int

    @property
    def is_open(self) -> bool:
        return self.booked < self.capacity


@dataclass(frozen=True)
class Booking:
    booking_id: Annotated[str, Field(min_length=1, max_length=200)]
    customer_id: str
    day: date


class CalendarError(Exception):
    """Base class for booking-system failures."""


class SlotChanged(CalendarError):
    """The slot's version moved between reading it and booking it."""

    def __init__(self, message: str, current: Slot | None = None) -> None:
        super().__init__(message)
        # The slot as it is now, when the booking system told us; lets the caller re-offer it.
        self.current = current


class SlotUnavailable(CalendarError):
    """No visit can be had that day: fully booked, closed, or not a working day."""


class CalendarUnavailable(CalendarError, HostSystemUnavailable):
    """The booking system could not be reached, failed, or answered something we can't trust.
    Messages never carry credentials, so they are safe to log."""


class CalendarOutcomeUnknown(CalendarUnavailable, OutcomeUnknown):
    """The request may have reached the booking system, but no answer came back (a read
    timeout, a reset after sending). The booking may or may not exist: look it up by its
    idempotency key before saying anything, and retry only with the same key."""


class CalendarClient(Protocol):
    async def get_slot(self, day: date) -> Slot:
        """The day's slot; `SlotUnavailable` when the day has none."""
        ...

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        """Host authorization: may this actor book this slot for this customer?"""
        ...

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        """Book one visit if the slot is still at `expected_version`.

        `SlotChanged` when the version moved, `SlotUnavailable` when the day is full or has no
        slot. Repeating an `idempotency_key` returns the original booking instead of booking
        twice."""
        ...

    async def open_days(self, start: date, count: int) -> list[Slot]:
        """Up to `count` slots that still have room, from `start` on, earliest first."""
        ...

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        """The customer's bookings, earliest day first."""
        ...

    async def booking_for_key(self, idempotency_key: str) -> Booking | None:
        """The booking made under `idempotency_key`, if any (cancelled ones included: crash
        recovery asks what happened to *this attempt*, never about an earlier, unrelated
        booking of the same customer on the same day)."""
        ...

    async def cancel(self, customer_id: str, booking_id: str, *, idempotency_key: str) -> Booking:
        """Cancel one of the customer's bookings. `SlotUnavailable` when there is no such
        booking for this customer; repeating `idempotency_key` returns the same result."""
        ...

    async def cancellation_for_key(self, idempotency_key: str) -> Booking | None:
        """The booking cancelled under `idempotency_key`, if that cancellation happened."""
        ...

    async def aclose(self) -> None: ...
