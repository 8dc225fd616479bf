"""Shared test data for the memory tests: this call's request for a day, and its slot."""

from __future__ import annotations

from datetime import date

from contextdb_livekit.memory.models import ActionSlot, FactToRemember
from testkit.visit_requests import action_request, action_request_slot

CALL_ID = "call-memory-tests"


def day_request(day: date, call_id: str = CALL_ID) -> FactToRemember:
    return action_request("book_visit", "book a service visit", day, call_id, today=day)


def day_slot(day: date, call_id: str = CALL_ID) -> ActionSlot:
    return action_request_slot("book_visit", day, call_id)


def plain_fact(text: str) -> FactToRemember:
    """Context, not evidence: what an end-of-call write stores for a caller statement."""
    return FactToRemember(text, "user_stated", 0.9)
