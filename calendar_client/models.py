"""The booking system's view of a visit day, and the errors callers are expected to handle.
An HTTP answer is read straight into `Slot` and `Booking`: their `Field` checks are what the
host's answer must meet (the local calendar's own rows meet them by construction)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated

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
