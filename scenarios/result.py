"""What a scenario call came to, and how it falls short of the scenario's expectations: the
same for an in-process run (`python -m scenarios NAME`) and a live one (`--live`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ScenarioResult:
    transcript: list[str]
    decisions: list[list[str | None]]
    booked: bool

    def failures(self, expect: dict[str, Any]) -> list[str]:
        problems = []
        if "booked" in expect and expect["booked"] != self.booked:
            problems.append(f"expected booked={expect['booked']}, got {self.booked}")
        if "decisions" in expect and expect["decisions"] != self.decisions:
            problems.append(f"expected decisions {expect['decisions']}, got {self.decisions}")
        return problems
