"""A line's instructions with what is recalled about the caller (`LineProfile.instructions`).

The line writes its own words: what the agent does (`base`), what it may do for a caller who
could not be verified (`unverified`), and what it is told when facts on file are withheld
from a caller identified only by the number they call from (`withheld`). How the recalled
snapshot joins them is the same for every line.
"""

from __future__ import annotations

from dataclasses import dataclass

from contextdb_livekit.memory.models import MemorySnapshot


@dataclass(frozen=True)
class Instructions:
    base: str
    unverified: str
    withheld: str

    def __call__(self, snapshot: MemorySnapshot | None, *, verified: bool) -> str:
        if not verified:
            return self.base + "\n" + self.unverified
        if snapshot is None or not snapshot.available:
            return self.base + "\nNo caller history is available for this call."
        # Some facts are kept from a caller on caller ID alone (memory.snapshot): the model is
        # told so, never what they are, so it neither guesses them nor says there are none.
        withheld = "\n" + self.withheld if snapshot.withheld else ""
        if not snapshot.context:
            return self.base + (withheld or "\nThis caller has no history on file.")
        # `memory.snapshot` rendered and escaped the block; nothing inside can close it.
        return self.base + "\nWhat we know about this caller:\n" + snapshot.context + withheld
