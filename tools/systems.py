"""This line's business systems, as the call's host services carry them (`HostServices.line`),
typed end to end: a tool reads `call.host.line.calendar`, and the type checker knows it.

An action in another business system adds its client here, as one more field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from billing_client import BillingClient, BillingSettings, build_billing
from calendar_client import CalendarClient, CalendarSettings, build_calendar
from contextdb_livekit.api import CallContext, HostServices


@dataclass
class VisitSystems:
    # The booking system (visits).
    calendar: CalendarClient
    # The billing system (service credits).
    billing: BillingClient


def open_systems() -> VisitSystems:
    """Each business system's client, from its own settings (the environment and `.env`)."""
    return VisitSystems(build_calendar(CalendarSettings()), build_billing(BillingSettings()))


async def close_systems(systems: VisitSystems) -> None:
    try:
        await systems.calendar.aclose()
    finally:
        await systems.billing.aclose()


VisitHost: TypeAlias = HostServices[VisitSystems]
VisitCall: TypeAlias = CallContext[VisitSystems]
