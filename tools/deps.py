"""What the call's tools are built from. One instance per call, made after authentication."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from calendar_client import CalendarClient, today_in
from memory.service import CallerMemory
from tools.attestations import AttestationStore
from tools.authorization import AssurancePolicy
from tools.state import CallState


@dataclass
class ToolDeps:
    # None only for an unverified caller, who gets no gated tools.
    memory: CallerMemory | None
    calendar: CalendarClient
    attestations: AttestationStore
    policy: AssurancePolicy
    timezone: str = "UTC"
    horizon_days: int = 60
    state: CallState = field(default_factory=CallState)

    @property
    def caller_memory(self) -> CallerMemory:
        if self.memory is None:
            raise RuntimeError("gated tools need an authenticated caller's memory")
        return self.memory

    def today(self) -> date:
        return today_in(self.timezone)
