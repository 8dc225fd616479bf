"""Who vouches for a fact, how much, and the date stamp its text carries ("(said 2026-12-03)"):
the Cloud contract returns no timestamps, so the day a fact was said travels in its text.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Final

from contextdb_livekit.memory.models import EpistemicSource, Memory


class Confidence:
    """Who vouches, and how much: the write policy in one table. A flagged note vouches for
    nothing; the caller's own words never authorise anything by themselves."""

    CALLER: Final = 0.9
    AGENT: Final = 0.6
    HOST: Final = 0.95
    FLAGGED: Final = 0.0
    # A change the caller confirmed to the host's own read-back.
    CONFIRMED: Final = 0.95
    # The caller's words, kept as said: not a fact until confirmed.
    UNCONFIRMED: Final = 0.5


SOURCE_VERB: Final[dict[EpistemicSource, str]] = {
    "user_stated": "said",
    "agent_inferred": "noted",
    "third_party": "recorded",
}
_STAMP = re.compile(r"\s*\((said|confirmed|noted|recorded) (\d{4}-\d{2}-\d{2})\)\s*$")


def stamp(source: EpistemicSource, confidence: float, day: date) -> str:
    """The stamp a fact's sentence ends with: " (said 2026-12-03)"; a caller's word confirmed to
    the host's read-back is "confirmed"."""
    verb = SOURCE_VERB[source]
    if source == "user_stated" and confidence >= Confidence.CONFIRMED:
        verb = "confirmed"
    return f" ({verb} {day.isoformat()})"


def observed_on(memory: Memory) -> date | None:
    """The day a stored fact was said, from its stamp."""
    match = _STAMP.search(memory.content)
    return date.fromisoformat(match.group(2)) if match else None


def plain_text(memory: Memory) -> str:
    """The fact's sentence without its date stamp."""
    return _STAMP.sub("", memory.content).strip()
