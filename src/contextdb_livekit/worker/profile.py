"""The seam between the generic worker and one line's domain.

The worker (this package) knows calls, rooms, memory and the outbox; it does not know what
the line is for. Everything that does — the prompt, the tools and the gated actions behind
them, how stored facts read, which facts a call leaves behind, the business systems the
tools act on and their settings — comes in as one `LineProfile`, which the composition root
(agent.py) picks and passes down:

    from line import LINE
    prepare_worker(sys.argv, LINE)        # its settings are checked at start-up
    host = await open_host_services(settings, LINE)
    call = Call.open(host, LINE, identity=..., ...)

A fork retargets the worker by writing its own profile; nothing under worker/ or memory/
changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from livekit.agents.llm import FunctionTool
from pydantic_settings import BaseSettings

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.models import FactToRemember, MemorySnapshot, Turn
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.memory.snapshot import FactView
from contextdb_livekit.stores.outbox import IntentResolver
from contextdb_livekit.worker.host_state import HostState
from contextdb_livekit.worker.settings import WorkerSettings

# The line's business systems (`HostServices.line`), as the line types them.
L = TypeVar("L")


class InstructionsFor(Protocol):
    """The agent's instructions: with the recalled snapshot (None: nothing recalled) for a
    verified caller, or the unverified variant (also what a revoked call falls back to)."""

    def __call__(self, snapshot: MemorySnapshot | None, *, verified: bool) -> str: ...


class ToolsFor(Protocol[L]):
    """The call's LLM tools: gated ones only for an authenticated caller. A realtime model
    gets no per-turn recall, so the profile may give it a recall tool instead."""

    def __call__(
        self, identity: CallerIdentity | None, host: HostServices[L], *, realtime: bool
    ) -> list[FunctionTool]: ...


class FactsSoFar(Protocol[L]):
    """The facts a call has produced so far, cheap enough to run after every caller turn
    (the checkpoint a killed process leaves in the outbox)."""

    def __call__(self, call: CallContext[L], turns: list[Turn]) -> list[FactToRemember]: ...


class FactsAtEnd(Protocol[L]):
    """The call's facts at its end (may ask a model; bounded by the profile itself)."""

    def __call__(
        self, call: CallContext[L], turns: list[Turn]
    ) -> Awaitable[list[FactToRemember]]: ...


@dataclass(frozen=True)
class HostParts:
    """What the worker opens for every line before the profile adds its business systems."""

    worker: WorkerSettings
    memory_settings: MemorySettings
    backend: MemoryBackend
    state: HostState

    def services(self, line: L, *, timezone: str) -> HostServices[L]:
        """The call's host services: these parts, the line's business systems and the
        caller's time zone."""
        worker = self.worker
        return HostServices(
            backend=self.backend,
            outbox=self.state.outbox,
            line=line,
            attestations=self.state.attestations,
            policy=AssurancePolicy(caller_id_may_book=worker.sip_caller_id_may_book),
            memory_settings=self.memory_settings,
            timezone=timezone,
            directory=self.state.directory,
            claims=self.state.claims,
            database=self.state.database,
            erasures=self.state.erasures,
            extraction_model=self.memory_settings.extraction_model(
                worker.openai_api_key, base_url=worker.openai_base_url, model=worker.llm_model
            ),
        )


class OpenHost(Protocol[L]):
    """The call's host services: the generic parts plus the line's business systems."""

    def __call__(self, parts: HostParts) -> Awaitable[HostServices[L]]: ...


@dataclass(frozen=True)
class LineProfile(Generic[L]):
    """One line's domain, as the generic worker consumes it (see the module docstring)."""

    instructions: InstructionsFor
    tools: ToolsFor[L]
    # The name of the tool the caller's answer to a read-back goes through (kit.confirmation).
    confirm_tool: str
    # The outbox's crash recovery for every gated action, by action name.
    intent_resolvers: Callable[[HostServices[L]], Mapping[str, IntentResolver]]
    # How stored memories read (memory.snapshot) and the call-start recall's query.
    facts: FactView
    snapshot_query: str
    facts_so_far: FactsSoFar[L]
    facts_at_end: FactsAtEnd[L]
    open_host: OpenHost[L]
    # Closes what `open_host` added (the worker closes its own parts).
    close_host: Callable[[HostServices[L]], Awaitable[None]]
    # The line's own settings classes, built and checked by the start-up check...
    settings: Sequence[type[BaseSettings]] = ()
    # ...and the data files they name, probed for writability: (setting name, path).
    data_paths: Callable[[Sequence[BaseSettings]], list[tuple[str, Path]]] = lambda _: []
