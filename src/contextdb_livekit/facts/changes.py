"""What a call would change in the caller's memory, with a line's fact kinds: the changes its
review tool reads back (`kit.review.build_review_tool`) and how the caller's answer settles
them (`kit.review.settle_changes`).

A change is a fact the caller stated about themselves (`user_stated`, not words kept as said)
whose slot memory does not hold, or holds with another sentence. Notes, quotes and the host's
own records are never read back. Once the call is over:

- a fact memory already holds is not written again (a restatement never replaces what the
  caller confirmed before with a plain "said");
- a change the caller confirmed to the host's read-back is written as a confirmed fact;
- a change they said no to is dropped: memory keeps what it held;
- any other change (not read back, no answer, hang-up) is kept only as the caller's quoted
  words (the line's `quote`): never a fact.

With `MEMORY_CHANGE_READBACK=false` the facts are stored as the extractor read them.

The line keeps only its words: how the host says each change to the caller (`spoken`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from contextdb_livekit.facts.cautions import says_day_does_not_work
from contextdb_livekit.facts.kinds import FactKinds, TypedFact
from contextdb_livekit.facts.stamps import Confidence, plain_text
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.kit.review import settle_changes
from contextdb_livekit.memory.models import Memory, is_current
from contextdb_livekit.reading.turn_cues import says_routine_changed

# One of the line's facts.
F = TypeVar("F", bound=TypedFact[Any])

Slot = tuple[str, str]
# The only source a change can have: what the caller says about themselves.
_REVIEWED_SOURCE = "user_stated"


def change_key(fact: TypedFact[Any]) -> str:
    """A change as the review names it: its slot and what it would say there."""
    entity, attribute = fact.slot
    return f"{entity}/{attribute}={fact.sentence}"


@dataclass(frozen=True)
class FactChanges(Generic[F]):
    # The line's fact kinds (reads a stored memory's kind and sentence).
    kinds: FactKinds[Any]
    # A change the caller did not confirm, as the caller's own words (the line's quote kind).
    quote: Callable[[F], F]
    # A keyed yes/no kind (weekdays that work or not) that a change of routine switches:
    # "we've swapped, it's Tuesdays from now on" (`with_switched_days`); None: no such kind.
    switched_kind: str | None = None

    def held(self, call: CallContext) -> dict[Slot, str]:
        """What memory holds now, by slot: the current fact's sentence (nothing when the
        call-start snapshot did not land)."""
        memories: list[Memory] = call.snapshot.memories if call.snapshot is not None else []
        return {
            (m.entity_key or "", m.attribute_key or ""): plain_text(m)
            for m in memories
            if is_current(m) and self.kinds.kind_of(m) is not None
        }

    def is_reviewed(self, fact: F) -> bool:
        """The caller's own word about themselves: not a note, a quote or a host record."""
        return fact.source == _REVIEWED_SOURCE and self.kinds.spec(fact.kind).words is None

    def changes(self, call: CallContext, facts: Sequence[F]) -> list[F]:
        """The caller's own facts that add to or change what memory holds (all of them when
        the snapshot did not land: nothing shows they are not changes)."""
        held = self.held(call)
        return [f for f in facts if self.is_reviewed(f) and held.get(f.slot) != f.sentence]

    def with_switched_days(self, call: CallContext, facts: Sequence[F]) -> list[F]:
        """A change of routine across calls: the keys memory holds as "yes" for the switched
        kind, and this call did not name, become "no" (read back like any other change)."""
        kind = self.switched_kind
        switches = [
            f
            for f in facts
            if f.kind == kind
            and f.polarity == "positive"
            and f.source == _REVIEWED_SOURCE
            and says_routine_changed(f.said)
        ]
        if not switches or call.snapshot is None:
            return list(facts)
        named = {f.key for f in facts if f.kind == kind}
        held_yes = [
            m.attribute_key
            for m in call.snapshot.memories
            if is_current(m)
            and self.kinds.kind_of(m) == kind
            and not says_day_does_not_work(self.kinds, m, m.attribute_key or "")
            and m.attribute_key not in named
        ]
        said = switches[-1]
        # "unavailable": the value of a "no"; the kind's sentence says it from key and polarity.
        return [
            *facts,
            *(
                dataclasses.replace(said, key=key, value="unavailable", polarity="negative")
                for key in held_yes
            ),
        ]

    def read_back(
        self, call: CallContext, facts: Sequence[F], spoken: Callable[[F, bool], str]
    ) -> list[tuple[str, str]]:
        """What the review tool reads back: the changes among `facts` as (key, the change in
        the host's words). `spoken(fact, replaces)`: `replaces` when memory held something
        else in its slot ("Thursdays no longer work for you")."""
        held = self.held(call)
        pending = self.changes(call, self.with_switched_days(call, facts))
        return [(change_key(f), spoken(f, f.slot in held)) for f in pending]

    def settle(self, call: CallContext, facts: Sequence[F]) -> list[F]:
        """The facts to write, once the caller's answer to the review is known (or not)."""
        facts = self.with_switched_days(call, facts)
        if not call.host.memory_settings.change_readback:
            return facts
        held = self.held(call)
        return settle_changes(
            call,
            facts,
            changes=self.changes(call, facts),
            key=change_key,
            # The caller's words restating what memory holds (a quote too) are not kept again.
            held=lambda f: f.source == _REVIEWED_SOURCE and held.get(f.slot) == f.sentence,
            confirmed=lambda f: dataclasses.replace(f, confidence=Confidence.CONFIRMED),
            unconfirmed=self.quote,
        )
