"""A visit request's slot and fact, as the kit writes them (`kit.request_slots`), for a day.

Used by the memory tests and benches that need "this call's request for Thursday" without a
call; the gated actions write the same through `kit.actions`.
"""

from __future__ import annotations

from datetime import date

from contextdb_livekit.kit.request_slots import request_fact, request_slot
from contextdb_livekit.memory.models import ActionSlot, FactToRemember
from tools.visit_day import VISIT_DAY


def action_request_slot(action: str, day: date, call_id: str) -> ActionSlot:
    """The evidence `action` on `day` needs: this call's confirmed request for it."""
    return request_slot(action, VISIT_DAY.key(day), call_id)


def action_request(
    action: str, phrase: str, day: date, call_id: str, *, today: date
) -> FactToRemember:
    """What the caller asked for in this call: action-relevant, pending confirmation."""
    request = f"{phrase} {VISIT_DAY.spoken(day)}"
    return request_fact(action, request, VISIT_DAY.key(day), call_id, today=today)
