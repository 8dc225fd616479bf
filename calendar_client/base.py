"""The booking system as the worker sees it. Implemented by `LocalCalendar` and `HttpCalendar`.

Every method may also raise `CalendarUnavailable` when the booking system can't be used.
"""

from __future__ import annotations

from datetime import date
from typing import Protocol

from calendar_client.models import Booking, Slot


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
