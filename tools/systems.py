"""This line's business systems, as the call's host services carry them (`HostServices.line`),
typed end to end: a tool reads `call.host.line.calendar`, and the type checker knows it.

An action in another business system adds its client here, as one more field.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TypeAlias

from billing_client import BillingClient, BillingSettings, build_billing
from calendar_client import CalendarClient, CalendarSettings, build_calendar
from contextdb_livekit.api import CallContext, HostServices, Turn
from memory.extract import extract_call_facts
from memory.facts import CallerFact

Extractor = Callable[..., Awaitable[list[CallerFact]]]


async def rule_based_extractor(
    turns: list[Turn], notes: list[str], *, today: date, call_id: str
) -> list[CallerFact]:
    return extract_call_facts(turns, notes, today=today, call_id=call_id)


@dataclass
class VisitSystems:
    # The booking system (visits).
    calendar: CalendarClient
    # The billing system (service credits).
    billing: BillingClient
    # End-of-call extraction: the rules by default, `memory.llm_extract` with a model.
    extract: Extractor = field(default=rule_based_extractor)


def open_systems(extract: Extractor = rule_based_extractor) -> VisitSystems:
    """Each business system's client, from its own settings (the environment and `.env`)."""
    return VisitSystems(
        build_calendar(CalendarSettings()), build_billing(BillingSettings()), extract
    )


async def close_systems(systems: VisitSystems) -> None:
    try:
        await systems.calendar.aclose()
    finally:
        await systems.billing.aclose()


VisitHost: TypeAlias = HostServices[VisitSystems]
VisitCall: TypeAlias = CallContext[VisitSystems]
