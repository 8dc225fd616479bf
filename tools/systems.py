"""This line's business systems, as the call's host services carry them (`HostServices.line`),
typed end to end: a tool reads `call.host.line.calendar`, and the type checker knows it.

An action in another business system adds its client here, as one more field.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TypeAlias

from calendar_client import CalendarClient
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
    # The booking system (visits and service credits).
    calendar: CalendarClient
    # End-of-call extraction: the rules by default, `memory.llm_extract` with a model.
    extract: Extractor = field(default=rule_based_extractor)


VisitHost: TypeAlias = HostServices[VisitSystems]
VisitCall: TypeAlias = CallContext[VisitSystems]
