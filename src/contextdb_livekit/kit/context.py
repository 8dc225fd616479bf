"""The per-call context: one typed object, LiveKit's `userdata`, read by every tool.

    session = AgentSession[CallContext](userdata=call.context, ...)
    async def book_visit(context: RunContext[CallContext], day: str): call = context.userdata

Everything a call's tools need lives here: who the caller is (set by the host after
authentication, never by the model), their memory, the host systems, and what happened in
this call so far (the open offer, notes, what the host's systems did).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Generic, Literal, Protocol, TypeVar
from zoneinfo import ZoneInfo

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.caller_memory import CallerMemory
from contextdb_livekit.kit.caller_turns import CallerTurns
from contextdb_livekit.kit.readback import ReadBack
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.metrics import MemoryMetrics
from contextdb_livekit.memory.models import FactToRemember, MemorySnapshot
from contextdb_livekit.memory.settings import ExtractionModel, MemorySettings
from contextdb_livekit.stores.attestations import AttestationStore
from contextdb_livekit.stores.claims import ClaimRegistry
from contextdb_livekit.stores.directory import CustomerDirectory
from contextdb_livekit.stores.erasures import ErasureJournal
from contextdb_livekit.stores.outbox import Outbox
from contextdb_livekit.stores.postgres.connection import SharedDatabase

MAX_NOTES = 20

# The line's own business systems (its booking client, its extractor...), typed by the line.
L = TypeVar("L")


@dataclass
class HostServices(Generic[L]):
    """The host systems a call uses. LiveKit runs each job (call) in its own process, so
    these are opened per call and closed at its end."""

    backend: MemoryBackend
    outbox: Outbox
    # The line's own business systems, as the line's profile opened them. The kit and the
    # worker never look inside: the line's actions and tools close over what they need.
    line: L
    attestations: AttestationStore
    policy: AssurancePolicy
    memory_settings: MemorySettings
    timezone: str = "UTC"
    # Who may call (SIP numbers) and which sign-ins were used: read before the call starts.
    directory: CustomerDirectory | None = None
    claims: ClaimRegistry | None = None
    # The shared Postgres with DATABASE_URL (stores.postgres.connection.SharedDatabase),
    # closed last.
    database: SharedDatabase | None = None
    # Callers erased in the last day (stores.erasures): a call whose caller was erased while
    # it ran keeps nothing.
    erasures: ErasureJournal | None = None
    # The model the end-of-call extraction calls (`MemorySettings.extraction_model`); None:
    # the line's rules.
    extraction_model: ExtractionModel | None = None


class HostRecord(Protocol):
    """What the call keeps of a success for its end-of-call write (a host-vouched fact);
    None when it is no fact (`kit.keep_nothing.KeepNothing`)."""

    def to_write(self) -> FactToRemember | None: ...


# The caller's answer to the host's review read-back of memory changes (`kit.review`).
ReviewAnswer = Literal["yes", "no", "unanswered"]


@dataclass(frozen=True)
class Review:
    """One host read-back of memory changes: the speech and the changes it named (the line's
    keys, compared exactly at the end of the call)."""

    readback: ReadBack
    keys: frozenset[str]


@dataclass
class Offer:
    """What the last `ask` put to the caller; only this can be confirmed, and only by an
    answer to its latest host read-back."""

    action_name: str
    target: Any  # the action's target (a `kit.target.TargetKind` value)
    memory_ids: tuple[str, ...]
    # The host's latest read-back of this offer; asking again replaces it (a fresh window).
    readback: ReadBack
    reason: str | None = None


@dataclass
class CallContext(Generic[L]):
    call_id: str
    host: HostServices[L]
    identity: CallerIdentity | None
    memory: CallerMemory | None
    # The call-start snapshot once it landed (None if it missed its budget).
    snapshot: MemorySnapshot | None = None
    offer: Offer | None = None
    # The host's latest read-back of what this call would change in memory (`kit.review`),
    # and the caller's answer to it, read once the call is over.
    review: Review | None = None
    review_answer: ReviewAnswer | None = None
    notes: list[str] = field(default_factory=list)
    # What the gated actions did, as each action records it (`GatedAction.remember`): kept by
    # the end-of-call write as host facts.
    records: list[HostRecord] = field(default_factory=list)
    # The tool a caller's answer to a read-back goes to (`kit.confirmation`), named in the
    # tools' messages to the model.
    confirm_tool: str = "confirm"
    metrics: MemoryMetrics = field(default_factory=MemoryMetrics)
    # Parallel tool calls (the OpenAI default) for one caller run one at a time.
    action_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # On a realtime session: the caller's audio turns by item id, so the confirmation can wait
    # for words the provider transcribes after it already called the tool. None on a pipeline.
    caller_turns: CallerTurns | None = None

    def today(self) -> date:
        """The date in the caller's time zone (validated by the settings that name it)."""
        return datetime.now(ZoneInfo(self.host.timezone)).date()

    def add_note(self, note: str) -> bool:
        if len(self.notes) >= MAX_NOTES or note in self.notes:
            return False
        self.notes.append(note)
        return True

    def is_caller(self, identity: CallerIdentity) -> bool:
        """Whether `identity` is still this call's authenticated caller (re-checked on every
        gated tool: a replaced participant that failed re-authentication loses the tools)."""
        return self.identity is not None and self.identity == identity and self.memory is not None
