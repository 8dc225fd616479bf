"""The visit day: the target of booking and cancelling, a calendar day within the booking
window (`CalendarDays`: the model's strict forms, "on Thursday 10 December", and the days a
caller's reply names)."""

from __future__ import annotations

from contextdb_livekit.api import CalendarDays

BOOKING_HORIZON_DAYS = 60

VISIT_DAY = CalendarDays(horizon_days=BOOKING_HORIZON_DAYS)
