"""What the caller's history says against a visit on one day, read with this line's kinds and
equipment words (`contextdb_livekit.api.day_caution`): the caution a read-back speaks first
("You told us on 3 December that Thursdays no longer work for you").
"""

from __future__ import annotations

from datetime import date

from contextdb_livekit.api import Memory, day_caution
from memory.equipment import EQUIPMENT
from memory.facts import KINDS


def conflict_reason(memories: list[Memory], day: date) -> str | None:
    """Why a request for `day` goes against what the caller told us before, if it does."""
    return day_caution(KINDS, memories, day, EQUIPMENT)
