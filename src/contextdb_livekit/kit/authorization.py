"""Host authorization for consequential actions: who may book for whom, at what assurance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from contextdb_livekit.domain.calendar import CalendarClient
from contextdb_livekit.identity import CallerIdentity


@dataclass(frozen=True)
class AssurancePolicy:
    """Caller-ID (SIP) identifies a line, not a person; by default it may not book.

    A host that accepts that risk (e.g. numbers verified at sign-up) sets
    `SIP_CALLER_ID_MAY_BOOK=true`.
    """

    caller_id_may_book: bool = False

    def permits(self, identity: CallerIdentity) -> bool:
        if identity.assurance == "verified":
            return True
        return identity.assurance == "caller_id" and self.caller_id_may_book


async def refusal_reason(
    identity: CallerIdentity, day: date, calendar: CalendarClient, policy: AssurancePolicy
) -> str | None:
    """None when the action may proceed for this caller on `day`; otherwise a machine reason."""
    if not policy.permits(identity):
        return "assurance_too_low"
    slot = await calendar.get_slot(day)
    if not await calendar.can_book(identity.actor_id, identity.customer_id, slot):
        return "not_authorized"
    return None
