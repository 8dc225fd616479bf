"""What a consequential action reads: this call's confirmed request for it, and nothing else.

pycontextdb trusts a `user_stated` fact at confidence >= 0.7 for action at once, and counts
the same fact written in two sessions as corroboration. Neither may ever act, so a request
for a gated action is a fact of *this call* in its own slot, `<action>_<target key>_call_<call
tag>`, written as `agent_inferred` below the action threshold; it becomes evidence only once
the caller confirms it out loud (`confirm`, after the host stored the attestation), and the
action consumes it. Everything else a caller says is context (`action_relevant=False`).
"""

from __future__ import annotations

import hashlib
from datetime import date

from contextdb_livekit.memory.models import ActionSlot, FactToRemember

REQUEST_ENTITY = "request"
# Below pycontextdb's action threshold (0.7): a request alone never acts.
REQUEST_CONFIDENCE = 0.6


def call_tag(call_id: str) -> str:
    """A short stable tag for a call, used in per-call slot names."""
    return hashlib.sha256(call_id.encode()).hexdigest()[:10]


def request_slot(action: str, target_key: str, call_id: str) -> ActionSlot:
    """The evidence `action` on this target needs: this call's confirmed request for it."""
    return ActionSlot(REQUEST_ENTITY, f"{action}_{target_key}_call_{call_tag(call_id)}")


def request_fact(
    action: str, request: str, target_key: str, call_id: str, *, today: date
) -> FactToRemember:
    """What the caller asked for in this call (`request`: "book a service visit on Thursday
    10 December"): action-relevant, pending confirmation."""
    slot = request_slot(action, target_key, call_id)
    return FactToRemember(
        content=f"Caller asked in one call to {request} (noted {today.isoformat()})",
        source="agent_inferred",
        confidence=REQUEST_CONFIDENCE,
        action_relevant=True,
        entity=slot.entity,
        attribute=slot.attribute,
    )
