"""Per-call state the tools share: what was offered for confirmation, what was noted, booked."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

MAX_NOTES = 20


@dataclass
class CallState:
    """Lives in one job process for one call; never shared across callers."""

    pending_day: date | None = None
    notes: list[str] = field(default_factory=list)
    bookings: list[tuple[date, str]] = field(default_factory=list)

    def add_note(self, note: str) -> bool:
        if len(self.notes) >= MAX_NOTES or note in self.notes:
            return False
        self.notes.append(note)
        return True
