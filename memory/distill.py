"""Which facts a finished call leaves behind, and who vouches for each.

- The caller's own first-person statements → `user_stated`, verbatim, below the action
  threshold (a stated wish still needs a yes before anything acts on it).
- Details the model chose to note → `agent_inferred`.
- Bookings read back from the calendar → `third_party` (the host's system of record).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from memory.models import FactToRemember
from memory.write_policy import agent_noted, caller_said, host_recorded

MAX_CALLER_STATEMENTS = 5
MAX_STATEMENT_CHARS = 300
_FIRST_PERSON = re.compile(r"\b(i|i'm|i am|i've|my|we|we're|our|mine)\b", re.IGNORECASE)
_SMALL_TALK = re.compile(
    r"^\s*(yes|yeah|no|ok(ay)?|thanks?|thank you|bye|hello|hi|sure)\b[\s\W]*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Turn:
    role: Literal["user", "assistant"]
    text: str


def is_durable_statement(text: str) -> bool:
    """A first-person statement of some substance, not a question or a pleasantry."""
    stripped = text.strip()
    return (
        len(stripped.split()) >= 4
        and not stripped.endswith("?")
        and not _SMALL_TALK.match(stripped)
        and bool(_FIRST_PERSON.search(stripped))
    )


def distill_call_facts(
    turns: Iterable[Turn], notes: Iterable[str], bookings: Iterable[tuple[date, str]]
) -> list[FactToRemember]:
    facts: list[FactToRemember] = []
    seen: set[str] = set()
    statements = 0
    for turn in turns:
        text = " ".join(turn.text.split())[:MAX_STATEMENT_CHARS]
        if turn.role != "user" or text in seen or not is_durable_statement(text):
            continue
        if statements == MAX_CALLER_STATEMENTS:
            break
        facts.append(caller_said(text))
        seen.add(text)
        statements += 1
    facts.extend(agent_noted(note) for note in notes)
    facts.extend(
        host_recorded(
            f"Service visit booked for {day.strftime('%A')} {day.isoformat()} (reference {ref})"
        )
        for day, ref in bookings
    )
    return facts
