"""A line's gated actions, registered in one place: their tools, the one confirmation tool
their read-backs are answered through, and the outbox's crash recovery, each with the
forget (`caller_data.forget`) that every line offers beside its own actions; and a call's
whole tool list (`call_tools`: with the note, review and recall tools; `for_call` on a call's
host, as `LineProfile.tools`).

    LINE_ACTIONS = LineActions([...], confirm_tool="confirm", confirm_description=...)

A new gated action is one more `GatedTool`; its tool, its confirmation and its recovery (in
a call, in the flusher and in the drain) follow from the list. It lives here, not in `kit/`,
because it registers the forget, which erases across the caller-data stores.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from livekit.agents import RunContext
from livekit.agents.llm import FunctionTool

from contextdb_livekit.caller_data.forget import ACTION_NAME as FORGET_ACTION
from contextdb_livekit.caller_data.forget import (
    build_forget_tool,
    forget_action,
    forget_intent_resolver,
)
from contextdb_livekit.caller_data.stores import for_host, open_caller_data
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.action_tool import GatedTool
from contextdb_livekit.kit.actions import GatedAction, intent_resolver
from contextdb_livekit.kit.confirmation import build_confirmation_tool
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.kit.notes import build_note_tool
from contextdb_livekit.kit.recall import build_recall_tool
from contextdb_livekit.kit.review import build_review_tool
from contextdb_livekit.stores.outbox import IntentResolver

# The line's business systems, which its actions are built from.
S = TypeVar("S")


@dataclass(frozen=True)
class LineActions(Generic[S]):
    # Every consequential action of the line: its tool, the confirmation it is read back
    # through, and the outbox's crash recovery.
    gated: Sequence[GatedTool[S]]
    # The tool the caller's answer to a read-back goes through, as the model sees it.
    confirm_tool: str
    confirm_description: str
    # What the model may note for the end-of-call write, in the line's words (`kit.notes`).
    note_description: str = ""
    # What the review reads back before goodbye: the call's changes, as (key, the change in
    # the host's words) (`kit.review.build_review_tool`); None: no review tool.
    review_changes: Callable[[RunContext[Any]], Sequence[tuple[str, str]]] | None = None
    # The line's tools without a consequence (no gate), each built afresh for a call: the
    # only ones an unverified caller gets (`for_call`).
    ungated: Sequence[Callable[[], FunctionTool]] = ()

    def actions(self, systems: S) -> list[GatedAction[Any]]:
        return [gated.action(systems) for gated in self.gated]

    def resolvers(self, systems: S) -> dict[str, IntentResolver]:
        """The outbox's crash recovery, by action name (for the flusher and the drain)."""
        return {action.name: intent_resolver(action) for action in self.actions(systems)}

    def call_resolvers(self, host: HostServices[S]) -> dict[str, IntentResolver]:
        """A call's crash recovery: the line's actions and the forget (its stores looked up
        only when an interrupted forget is found)."""

        async def forget(payload: dict[str, Any]) -> dict[str, Any]:
            return await forget_intent_resolver(for_host(host))(payload)

        return {**self.resolvers(host.line), FORGET_ACTION: forget}

    @contextlib.asynccontextmanager
    async def drain_resolvers(
        self, open_systems: Callable[[], S], close_systems: Callable[[S], Awaitable[None]]
    ) -> AsyncIterator[dict[str, IntentResolver]]:
        """The crash recovery of a process without calls (the drain): the business systems'
        clients opened by `open_systems`, closed when the process is done, and the forget's."""
        systems = open_systems()
        try:
            yield {**self.resolvers(systems), FORGET_ACTION: _forget_on_demand()}
        finally:
            with contextlib.suppress(Exception):
                await close_systems(systems)

    def tools(
        self, identity: CallerIdentity, systems: S, host: HostServices[S] | None
    ) -> list[FunctionTool]:
        """A verified caller's gated tools and the confirmation tool; with the call's `host`,
        the caller can also ask to be forgotten."""
        actions = [(gated, gated.action(systems)) for gated in self.gated]
        gated_tools = [gated.tool(action, identity) for gated, action in actions]
        confirmable = [action for _, action in actions]
        if host is not None:
            forget = forget_action(host)
            gated_tools.append(build_forget_tool(forget, identity))
            confirmable.append(forget)
        confirm = build_confirmation_tool(
            identity, confirmable, name=self.confirm_tool, description=self.confirm_description
        )
        return [*gated_tools, confirm]

    def call_tools(
        self,
        identity: CallerIdentity | None,
        systems: S,
        ungated: Sequence[FunctionTool],
        *,
        realtime: bool = False,
        host: HostServices[S] | None = None,
    ) -> list[FunctionTool]:
        """A call's tools: only the line's `ungated` ones when nobody was authenticated. A
        verified caller also gets the gated tools with the confirmation tool (`tools`), the
        note tool and the review tool; a realtime model, which gets no per-turn recall, a
        read-only recall tool as well."""
        if identity is None:
            return list(ungated)
        review = self.review_changes
        return [
            *ungated,
            *([build_recall_tool()] if realtime else []),
            *self.tools(identity, systems, host),
            *([build_note_tool(self.note_description)] if self.note_description else []),
            *([build_review_tool(identity, review)] if review is not None else []),
        ]

    def for_call(
        self, identity: CallerIdentity | None, host: HostServices[S], *, realtime: bool
    ) -> list[FunctionTool]:
        """A call's whole tool list on its host (`LineProfile.tools`): `call_tools` with the
        line's `ungated` tools, and the forget on that host."""
        ungated = [build() for build in self.ungated]
        return self.call_tools(identity, host.line, ungated, realtime=realtime, host=host)


def _forget_on_demand() -> IntentResolver:
    """The forget's recovery for the drain, opening the caller-data stores only when an
    interrupted forget is found (an idle drain keeps no memory backend open)."""

    async def resolve(payload: dict[str, Any]) -> dict[str, Any]:
        opened = await open_caller_data()
        try:
            return await forget_intent_resolver(opened.stores)(payload)
        finally:
            await opened.close()

    return resolve
