"""Who vouches for a fact, and how much it may be trusted before the caller confirms it.

pycontextdb trusts a `user_stated` fact at confidence >= 0.7 for action at once, so "I'd
like to come in Thursday" written at 1.0 would authorise a booking from a mere wish. Every
write the worker makes goes through these constructors so that only confirmed or
host-verified facts become actionable.
"""

from __future__ import annotations

from datetime import date

from memory.models import ActionSlot, FactToRemember

VISIT_DAY_ENTITY = "caller"
VISIT_DAY_ATTRIBUTE = "preferred_visit_day"

# Below pycontextdb's action threshold (0.7): stored, recalled, but needs a spoken yes.
UNCONFIRMED_CONFIDENCE = 0.6
AGENT_NOTE_CONFIDENCE = 0.5
HOST_RECORD_CONFIDENCE = 0.95


def visit_day_slot(day: date) -> ActionSlot:
    """The evidence a booking on `day` needs: the caller's preferred visit day is that weekday.

    The value is the weekday because that is the engine's canonical value for this slot: it
    folds "Thursday", "thursday afternoon" and "Thursday 2026-12-10" into one fact.
    """
    return ActionSlot(VISIT_DAY_ENTITY, VISIT_DAY_ATTRIBUTE, day.strftime("%A").lower())


def requested_visit_day(day: date) -> FactToRemember:
    """The day the caller asked for during the call: action-relevant, pending confirmation.

    The wording keeps pycontextdb's slotter on `caller/preferred_visit_day` (a wish verb and a
    weekday); otherwise it would move the fact to another slot and demote it.
    """
    return FactToRemember(
        content=f"Caller would prefer a service visit on {day.strftime('%A')} {day.isoformat()}",
        source="agent_inferred",
        confidence=UNCONFIRMED_CONFIDENCE,
        action_relevant=True,
        entity=VISIT_DAY_ENTITY,
        attribute=VISIT_DAY_ATTRIBUTE,
    )


def caller_said(content: str) -> FactToRemember:
    """The caller's own words. `user_stated`, but never actionable without confirmation."""
    return FactToRemember(content=content, source="user_stated", confidence=UNCONFIRMED_CONFIDENCE)


def agent_noted(content: str) -> FactToRemember:
    """Something the model inferred and chose to note; lower confidence than the caller's words."""
    return FactToRemember(
        content=content, source="agent_inferred", confidence=AGENT_NOTE_CONFIDENCE
    )


def host_recorded(content: str) -> FactToRemember:
    """An outcome read from the host's system of record (the calendar), not from the call."""
    return FactToRemember(content=content, source="third_party", confidence=HOST_RECORD_CONFIDENCE)
