"""A call's facts as the worker writes them and the review tool reads them back:
`ReviewedFacts`, a line's extractors settled by the caller's answer to the review
(`FactChanges`).

- after every caller turn (`so_far`, `LineProfile.facts_so_far`): the rules only, cheap enough
  for each turn; nothing is confirmed yet, so a change is kept as the caller's words;
- at the end of the call (`at_end`, `LineProfile.facts_at_end`): the line's model extractor
  when the worker's settings name a model (`HostServices.extraction_model`), else the rules;
- before goodbye (`read_back`, `LineActions.review_changes`): the call's changes so far, by
  the rules, in the host's words.

The line keeps its extractors and its words (`spoken`); which extractor runs when, and the
settling, are the library's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from livekit.agents import RunContext

from contextdb_livekit.facts.changes import FactChanges
from contextdb_livekit.facts.kinds import TypedFact
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.caller_text import history_turns
from contextdb_livekit.memory.models import FactToRemember, Turn

F = TypeVar("F", bound=TypedFact[Any])


@dataclass(frozen=True)
class ReviewedFacts(Generic[F]):
    # Which facts are changes and how the review's answer settles them.
    changes: FactChanges[F]
    # The rules: (turns, notes, *, today, call_id) -> facts (`LineFacts.extract`).
    rules: Callable[..., Sequence[F]]
    # How the host says a change to the caller; `replaces`: memory held something else in
    # its slot (`FactChanges.read_back`).
    spoken: Callable[[F, bool], str]
    # One model call: the rules' arguments and the model's keywords (base_url, api_key, model,
    # timeout_s) (`LineFacts.from_model` with the line's instructions); None: the rules only.
    model: Callable[..., Awaitable[Sequence[F]]] | None = None

    def by_rules(self, call: CallContext[Any], turns: Sequence[Turn]) -> list[F]:
        """The call's facts so far, read by the rules from its turns and notes."""
        return list(
            self.rules(list(turns), list(call.notes), today=call.today(), call_id=call.call_id)
        )

    def so_far(self, call: CallContext[Any], turns: list[Turn]) -> list[FactToRemember]:
        """The checkpoint after a caller turn: the rules, settled (`FactChanges.settle`)."""
        return [fact.to_write() for fact in self.changes.settle(call, self.by_rules(call, turns))]

    async def at_end(self, call: CallContext[Any], turns: list[Turn]) -> list[FactToRemember]:
        """The end-of-call write's facts: the model when one is configured (it falls back to
        the rules itself), else the rules; settled by the caller's answer to the review."""
        endpoint = call.host.extraction_model
        if endpoint is None or self.model is None:
            facts = self.by_rules(call, turns)
        else:
            facts = list(
                await self.model(
                    turns,
                    list(call.notes),
                    today=call.today(),
                    call_id=call.call_id,
                    base_url=endpoint.base_url,
                    api_key=endpoint.api_key,
                    model=endpoint.model,
                    timeout_s=endpoint.timeout_s,
                )
            )
        return [fact.to_write() for fact in self.changes.settle(call, facts)]

    def read_back(self, context: RunContext[CallContext[Any]]) -> list[tuple[str, str]]:
        """What the review tool reads back: this call's changes so far, in the host's words."""
        call = context.userdata
        facts = self.by_rules(call, history_turns(context.session.history))
        return self.changes.read_back(call, facts, self.spoken)
