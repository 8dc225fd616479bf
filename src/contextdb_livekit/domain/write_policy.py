"""Who vouches for a write, and what a consequential action reads: in one place.

pycontextdb trusts a `user_stated` fact at confidence >= 0.7 for action at once, and counts
the same fact written in two sessions as corroboration. Neither may ever book a visit, so:

- a request for a consequential action is a fact of *this call* in its own slot
  (`domain.facts`), written as `agent_inferred` below the action threshold; it becomes
  evidence only once the caller confirms it out loud (`confirm`, after the host stored the
  attestation), and the action consumes it;
- everything the caller told us (availability, address, equipment …) is context for the
  snapshot, never evidence for an action (`action_relevant=False`).
"""

from __future__ import annotations

from datetime import date

from contextdb_livekit.domain.facts import REQUEST_CONFIDENCE, CallerFact, request_attribute
from contextdb_livekit.memory.models import ActionSlot, FactToRemember


def action_request_slot(action: str, day: date, call_id: str) -> ActionSlot:
    """The evidence `action` on `day` needs: this call's confirmed request for it."""
    return ActionSlot("request", request_attribute(action, day, call_id))


def action_request(
    action: str, phrase: str, day: date, call_id: str, *, today: date
) -> FactToRemember:
    """What the caller asked for in this call: action-relevant, pending confirmation."""
    return CallerFact(
        kind="request",
        value=phrase,
        source="agent_inferred",
        confidence=REQUEST_CONFIDENCE,
        observed_on=today,
        key=day.isoformat(),
        call_id=call_id,
        action=action,
    ).to_write()
