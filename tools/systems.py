"""The line's business systems, as `HostServices.line` carries them for this line.

The generic host services hold them untyped (`line: Any`); the line's own code reads them
back through `systems_of`, typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import cast

from calendar_client import CalendarClient, LocalCalendar
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.models import Turn
from contextdb_livekit.memory.settings import MemorySettings
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
    # End-of-call extraction: the rules by default, `domain.llm_extract` with a model.
    extract: Extractor = field(default=rule_based_extractor)


def systems_of(host: HostServices) -> VisitSystems:
    return cast(VisitSystems, host.line)


def local_host(
    workdir: Path,
    backend: MemoryBackend,
    *,
    memory_settings: MemorySettings,
    calendar: CalendarClient | None = None,
    policy: AssurancePolicy | None = None,
    timezone: str = "UTC",
) -> HostServices:
    """This line's host on local files in `workdir` (the playground, tests and benches)."""
    line = VisitSystems(calendar or LocalCalendar(workdir / "calendar.sqlite3"))
    return HostServices.local(
        workdir,
        backend,
        memory_settings=memory_settings,
        line=line,
        policy=policy,
        timezone=timezone,
    )
