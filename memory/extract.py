"""End-of-call extraction by the rules: the call's transcript and notes → this line's typed
caller facts (`contextdb_livekit.api.LineFacts`: the library's reader with this line's
`memory.equipment`, the last word per slot, quotes and flagged notes). Offline, it is the floor
that `memory.llm_extract` falls back to; scored by `python -m bench.extraction`.
"""

from __future__ import annotations

from contextdb_livekit.api import LineFacts
from contextdb_livekit.api import Turn as Turn  # the transcript a call leaves (re-exported)
from memory.equipment import EQUIPMENT
from memory.facts import KINDS, STATED_KINDS, CallerFact, FactKind

# Of the kinds kept as the caller's sentence, those a turn may say more than one thing of,
# and those whose sentences add up within a call ("side gate; the dog barks"; "a parrot. He
# swears": what follows the animal, the person or the place does not replace it).
CALL_FACTS: LineFacts[FactKind, CallerFact] = LineFacts(
    KINDS,
    CallerFact,
    STATED_KINDS,
    EQUIPMENT,
    several=frozenset({"access_notes", "parking", "pets", "who_home", "meter_location"}),
    adds_up=frozenset({"access_notes", "pets", "who_home", "parking", "meter_location"}),
)
# Typed facts a finished call leaves behind; one per slot, the call's last word wins.
extract_call_facts = CALL_FACTS.extract
quote = CALL_FACTS.quote  # the caller's own words, kept as said: never a typed fact
