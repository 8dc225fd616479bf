"""Client for a host booking system over REST: the contract, each endpoint with its answers
and errors, is calendar_client/README.md's ("REST contract").

The failures are the library's `HostApi`'s: a change that may have been sent but got no answer
raises `CalendarOutcomeUnknown` (look the booking up by its key before saying anything); any
other failure raises `CalendarUnavailable`, whose message never carries the key.
"""

from __future__ import annotations

from datetime import date

import httpx

from calendar_client.base import (
    Booking,
    CalendarOutcomeUnknown,
    CalendarUnavailable,
    Slot,
    SlotChanged,
    SlotUnavailable,
)
from contextdb_livekit.api import HostApi, Refusal, path_segment


class _RefusalBody(Refusal):
    slot: Slot | None = None


class HttpCalendar(HostApi):
    name = "booking system"
    unavailable = CalendarUnavailable
    outcome_unknown = CalendarOutcomeUnknown

    # -- CalendarClient -----------------------------------------------------------------

    async def get_slot(self, day: date) -> Slot:
        absent = SlotUnavailable(f"no visits on {day.isoformat()}")
        slot = await self.get(f"/v1/slots/{day.isoformat()}", Slot, absent=absent)
        return self.echoing(slot, {"day": day}, "day")

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        return await self.allowed(
            "/v1/authorizations/check",
            actor_id=actor_id,
            customer_id=customer_id,
            day=slot.day.isoformat(),
        )

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        return await self.change(
            "/v1/bookings",
            Booking,
            idempotency_key=idempotency_key,
            json={
                "customer_id": customer_id,
                "day": day.isoformat(),
                "expected_version": expected_version,
            },
            refused=lambda response: self._refused(response, day),
            echoes={"customer_id": customer_id, "day": day},
            what="booking",
        )

    async def open_days(self, start: date, count: int) -> list[Slot]:
        if count <= 0:
            return []
        return await self.get_listed(
            "/v1/slots", "slots", Slot, start=start.isoformat(), count=str(count)
        )

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        path = f"/v1/customers/{path_segment(customer_id)}/bookings"
        return await self.get_listed(path, "bookings", Booking)

    async def booking_for_key(self, idempotency_key: str) -> Booking | None:
        return await self._by_key("/v1/bookings", idempotency_key)

    async def cancel(self, customer_id: str, booking_id: str, *, idempotency_key: str) -> Booking:
        return await self.change(
            f"/v1/bookings/{path_segment(booking_id)}/cancel",
            Booking,
            idempotency_key=idempotency_key,
            json={"customer_id": customer_id},
            refused=lambda _: SlotUnavailable("no such booking for this customer"),
            refused_on=(404, 409, 422),
            echoes={"customer_id": customer_id, "booking_id": booking_id},
            what="booking",
        )

    async def cancellation_for_key(self, idempotency_key: str) -> Booking | None:
        return await self._by_key("/v1/cancellations", idempotency_key)

    async def _by_key(self, path: str, idempotency_key: str) -> Booking | None:
        return await self.one_for_key(path, idempotency_key, field="bookings", item=Booking)

    def _refused(self, response: httpx.Response, day: date) -> Exception:
        codes = ("slot_changed", "slot_unavailable")
        refusal = self.read_refusal(response, _RefusalBody, codes=codes)
        if refusal.code == "slot_changed":
            return SlotChanged(f"{day.isoformat()} changed since it was read", refusal.slot)
        return SlotUnavailable(f"{day.isoformat()} is fully booked")
