"""Client for a host booking system over REST. Contract (also in calendar_client/README.md):

    GET  /v1/slots/{YYYY-MM-DD}            200 {"day","capacity","booked","version"} | 404
    GET  /v1/slots?start=YYYY-MM-DD&count=N 200 {"slots": [slot, ...]}
    POST /v1/authorizations/check          {"actor_id","customer_id","day"} → {"allowed": bool}
    POST /v1/bookings  Idempotency-Key: K  {"customer_id","day","expected_version"}
                                           200/201 {"booking_id","customer_id","day"}
                                           409 {"code":"slot_changed","slot":slot}
                                           409/422 {"code":"slot_unavailable"}
    GET  /v1/customers/{id}/bookings       200 {"bookings": [booking, ...]}

Bearer auth when an API key is set. Transport failures, timeouts, 401/403, 5xx and bodies
of the wrong shape are `CalendarUnavailable`.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from calendar_client.models import (
    Booking,
    CalendarUnavailable,
    Slot,
    SlotChanged,
    SlotUnavailable,
)


class _SlotBody(BaseModel):
    day: date
    capacity: int
    booked: int
    version: int

    def to_slot(self) -> Slot:
        return Slot(self.day, self.capacity, self.booked, self.version)


class _SlotsBody(BaseModel):
    slots: list[_SlotBody]


class _BookingBody(BaseModel):
    booking_id: str
    customer_id: str
    day: date

    def to_booking(self) -> Booking:
        return Booking(self.booking_id, self.customer_id, self.day)


class _BookingsBody(BaseModel):
    bookings: list[_BookingBody]


class _AuthorizationBody(BaseModel):
    allowed: bool


class _ConflictBody(BaseModel):
    code: str
    slot: _SlotBody | None = None


class HttpCalendar:
    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 3.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s, transport=transport
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return await self._http.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise CalendarUnavailable("booking system timed out") from exc
        except httpx.TransportError as exc:
            raise CalendarUnavailable(f"booking system unreachable: {type(exc).__name__}") from exc

    @staticmethod
    def _parse(response: httpx.Response, model: type[BaseModel]) -> Any:
        if response.status_code in (401, 403):
            raise CalendarUnavailable(
                f"booking system refused our credentials ({response.status_code})"
            )
        if not response.is_success:
            raise CalendarUnavailable(f"booking system error {response.status_code}")
        try:
            return model.model_validate(response.json())
        except (ValueError, ValidationError) as exc:
            raise CalendarUnavailable("booking system sent an unexpected response") from exc

    async def get_slot(self, day: date) -> Slot:
        response = await self._request("GET", f"/v1/slots/{day.isoformat()}")
        if response.status_code == 404:
            raise SlotUnavailable(f"no visits on {day.isoformat()}")
        return self._parse(response, _SlotBody).to_slot()

    async def can_book(self, actor_id: str, customer_id: str, slot: Slot) -> bool:
        response = await self._request(
            "POST",
            "/v1/authorizations/check",
            json={"actor_id": actor_id, "customer_id": customer_id, "day": slot.day.isoformat()},
        )
        return self._parse(response, _AuthorizationBody).allowed

    async def book(
        self, customer_id: str, day: date, expected_version: int, *, idempotency_key: str
    ) -> Booking:
        response = await self._request(
            "POST",
            "/v1/bookings",
            json={
                "customer_id": customer_id,
                "day": day.isoformat(),
                "expected_version": expected_version,
            },
            headers={"Idempotency-Key": idempotency_key},
        )
        if response.status_code in (409, 422):
            conflict = self._parse_conflict(response)
            if conflict.code == "slot_changed":
                current = conflict.slot.to_slot() if conflict.slot else None
                raise SlotChanged(f"{day.isoformat()} changed since it was read", current)
            if conflict.code == "slot_unavailable":
                raise SlotUnavailable(f"{day.isoformat()} is fully booked")
            raise CalendarUnavailable(f"booking refused: {conflict.code}")
        return self._parse(response, _BookingBody).to_booking()

    @staticmethod
    def _parse_conflict(response: httpx.Response) -> _ConflictBody:
        try:
            return _ConflictBody.model_validate(response.json())
        except (ValueError, ValidationError) as exc:
            raise CalendarUnavailable("booking system sent an unexpected conflict") from exc

    async def open_days(self, start: date, count: int) -> list[Slot]:
        response = await self._request(
            "GET", "/v1/slots", params={"start": start.isoformat(), "count": str(count)}
        )
        return [slot.to_slot() for slot in self._parse(response, _SlotsBody).slots]

    async def bookings_for(self, customer_id: str) -> list[Booking]:
        response = await self._request(
            "GET", f"/v1/customers/{quote(customer_id, safe='')}/bookings"
        )
        return [b.to_booking() for b in self._parse(response, _BookingsBody).bookings]
