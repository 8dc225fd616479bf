"""The act / ask / abstain rule for a consequential action, one function for both backends.

ContextDB decides; the host applies this rule to the evidence the decision returned, so
Cloud and the local engine behave the same by construction:

- **act** only on current, unflagged evidence in the action's own slot that the caller
  confirmed out loud (`confirmed`). Corroboration or a high-confidence first-party write is
  not enough here: a request repeated in two calls, or a wish stored at 1.0, never acts.
- **ask** when the slot holds evidence that is not confirmed yet; its ids are pending, so
  every `ask` has something the caller can confirm.
- **abstain** when the slot holds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from contextdb_livekit.memory.models import ActionSlot, Memory


@dataclass(frozen=True)
class SlotDecision:
    outcome: str
    evidence: list[Memory]
    pending_ids: list[str]


def decide_in_slot(slot: ActionSlot, memories: Iterable[Memory]) -> SlotDecision:
    evidence = [m for m in memories if slot.is_evidence(m)]
    confirmed = [m for m in evidence if m.confirmed]
    if confirmed:
        return SlotDecision("act", confirmed, [])
    if evidence:
        return SlotDecision("ask", evidence, [m.id for m in evidence])
    return SlotDecision("abstain", [], [])
