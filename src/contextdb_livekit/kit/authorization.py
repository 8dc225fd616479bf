"""Host authorization by assurance: whether a caller may act at all, and whether they may be
told what memory holds about their home and how to get in. Who may do what for whom on which
target is each action's own `authorize` (kit.actions)."""

from __future__ import annotations

from dataclasses import dataclass

from contextdb_livekit.identity import CallerIdentity


@dataclass(frozen=True)
class AssurancePolicy:
    """Caller-ID (SIP) identifies a line, not a person; by default it may not act.

    A host that accepts that risk (e.g. numbers verified at sign-up) sets
    `SIP_CALLER_ID_MAY_BOOK=true`.
    """

    caller_id_may_book: bool = False

    def may_hear_sensitive(self, identity: CallerIdentity) -> bool:
        """Where the home is, how to get in, who is there: only for a verified caller. No
        setting turns this on for caller ID — whoever spoofs a customer's number would hear
        where their spare key is; booking at worst books a visit that gets cancelled."""
        return identity.assurance == "verified"

    def permits(self, identity: CallerIdentity) -> bool:
        if identity.assurance == "verified":
            return True
        return identity.assurance == "caller_id" and self.caller_id_may_book


def refusal_reason(identity: CallerIdentity, policy: AssurancePolicy) -> str | None:
    """None when this caller's assurance lets them act; otherwise a machine reason."""
    if not policy.permits(identity):
        return "assurance_too_low"
    return None
