"""The booking system's view of a visit day, and its errors."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Slot:
    day: date
    capacity: int
    booked: int
    version: int

    @property
    def is_open(self) -> bool:
        return self.booked < self.capacity


@dataclass(frozen=True)
class Booking:
    booking_id: str
    customer_id: str
    day: date


class CalendarError(Exception):
    """Base class for booking-system failures."""


class SlotChanged(CalendarError):
    """The slot's version moved between reading it and booking it."""

    def __init__(self, message: str, current: Slot | None = None) -> None:
        super().__init__(message)
        self.current = current


class SlotUnavailable(CalendarError):
    """No visits that day: full, closed, or not a working day."""


class CalendarUnavailable(CalendarError):
    """The booking system could not be reached or answered nonsense."""


class InvalidDay(ValueError):
    """The day text is not something we book on. The message is safe to speak."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "I couldn't understand that day. Please say a weekday like Thursday or a date "
            "like 2026-12-10."
        )
        self.detail = detail
