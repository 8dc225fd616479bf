"""What one call needs from memory, bound to one authenticated caller.

`CallerMemory` is created per job after authentication; every method is scoped to that
caller's partition, so nothing the model says can point it at someone else's memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import time

from contextdb_livekit.kit.bounded_write import WriteOutcome, write_within
from contextdb_livekit.kit.gate import ActionGate
from contextdb_livekit.memory import snapshot
from contextdb_livekit.memory.backend import MemoryBackend
from contextdb_livekit.memory.caller_text import clean_caller_text
from contextdb_livekit.memory.errors import MemoryLayerError
from contextdb_livekit.memory.models import FactToRemember, Memory, MemorySnapshot
from contextdb_livekit.memory.secrets import redact_bounded
from contextdb_livekit.stores.outbox import Outbox

log = logging.getLogger("contextdb_livekit.kit.caller_memory")

# The call-start recall's search query when the line names none (a line's profile words it
# in its own terms: line).
SNAPSHOT_QUERY = "what the caller told us before: preferences, details and history"
# Enough for a caller with 50 facts; the renderer keeps only current ones within its budget.
SNAPSHOT_TOP_K = 60
TURN_RECALL_MAX_TOKENS = 160
# A caller turn used as a search query; longer turns say nothing more worth searching for.
MAX_QUERY_CHARS = 500
MAX_FACT_CHARS = 2000


async def recall_within(
    backend: MemoryBackend,
    user_id: str,
    query: str,
    *,
    budget_ms: int,
    top_k: int = 8,
    max_tokens: int = snapshot.DEFAULT_MAX_TOKENS,
    facts: snapshot.FactView = snapshot.PLAIN_MEMORIES,
) -> MemorySnapshot:
    """Recall under a time budget. Never raises: a miss is an empty snapshot with a reason."""
    started = time.perf_counter()
    try:
        result = await asyncio.wait_for(
            backend.recall(user_id, query, top_k=top_k), timeout=budget_ms / 1000
        )
    except TimeoutError:
        return MemorySnapshot.unavailable(f"timed out after {budget_ms} ms", _ms(started))
    except MemoryLayerError as exc:
        return MemorySnapshot.unavailable(f"{exc.code}: {exc}", _ms(started))
    except Exception as exc:  # a snapshot is optional; the call must go on
        log.exception("recall failed")
        return MemorySnapshot.unavailable(f"unexpected error: {type(exc).__name__}", _ms(started))
    memories = list(result.memories)
    context, shown = snapshot.render(memories, facts=facts, max_tokens=max_tokens)
    return MemorySnapshot(
        context=context,
        memories=shown,
        elapsed_ms=_ms(started),
        withheld=snapshot.withheld(memories, facts),
    )


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class CallerMemory:
    def __init__(
        self,
        backend: MemoryBackend,
        outbox: Outbox,
        user_id: str,
        *,
        facts: snapshot.FactView = snapshot.PLAIN_MEMORIES,
        snapshot_query: str = SNAPSHOT_QUERY,
        turn_recall_budget_ms: int = 120,
        gate_timeout_s: float = 1.5,
    ) -> None:
        self.backend = backend
        self.outbox = outbox
        self.user_id = user_id
        # The line's fact model reads what is recalled; its words make the call-start query.
        self.facts = facts
        self.snapshot_query = snapshot_query
        self.gate = ActionGate(
            backend, outbox, evaluate_timeout_s=gate_timeout_s, report_timeout_s=gate_timeout_s
        )
        self._turn_recall_budget_ms = turn_recall_budget_ms

    def prefetch_snapshot(self, budget_ms: int) -> asyncio.Task[MemorySnapshot]:
        """Start the call-start recall now; await the task later. It never raises."""
        return asyncio.create_task(
            recall_within(
                self.backend,
                self.user_id,
                self.snapshot_query,
                budget_ms=budget_ms,
                top_k=SNAPSHOT_TOP_K,
                facts=self.facts,
            ),
            name="memory-snapshot-prefetch",
        )

    async def recall_for_turn(self, query: str) -> MemorySnapshot:
        # The caller's words become a search query: no secret goes out in it (or into the
        # engine's debug logs).
        return await recall_within(
            self.backend,
            self.user_id,
            redact_bounded(query, MAX_QUERY_CHARS),
            budget_ms=self._turn_recall_budget_ms,
            top_k=5,
            max_tokens=TURN_RECALL_MAX_TOKENS,
            facts=self.facts,
        )

    async def confirm(self, memory_id: str, *, attestation_id: str) -> Memory:
        """Tell ContextDB the caller confirmed; the host stored the attestation first."""
        return await self.backend.confirm(
            self.user_id, memory_id, idempotency_key=f"confirm:{attestation_id}"
        )

    async def write_now(self, facts: list[FactToRemember], *, idempotency_key: str) -> list[Memory]:
        """A write the call depends on right away (an action's request); no outbox."""
        return await self.backend.remember_many(
            self.user_id, redacted(facts), idempotency_key=idempotency_key
        )

    async def remember(
        self, facts: list[FactToRemember], *, idempotency_key: str, timeout_s: float
    ) -> WriteOutcome:
        """Write now if the backend answers in time, else keep the facts in the outbox; all
        of it (outbox row, send, settle) within `timeout_s` (`kit.bounded_write`)."""
        facts = redacted(facts)
        if not facts:
            return WriteOutcome(0, 0)
        return await write_within(
            self.backend,
            self.outbox,
            self.user_id,
            facts,
            idempotency_key=idempotency_key,
            budget_s=timeout_s,
        )


def redacted(facts: list[FactToRemember]) -> list[FactToRemember]:
    """No secret reaches the outbox, the engine or Cloud: redaction before any write. No NUL
    or other control character either (Postgres refuses NUL; one such fact failed the whole
    call's write), and nothing longer than MAX_FACT_CHARS."""
    kept = []
    for fact in facts:
        content = redact_bounded(
            clean_caller_text(fact.content, MAX_FACT_CHARS * 4), MAX_FACT_CHARS
        )
        if content.strip():
            kept.append(dataclasses.replace(fact, content=content))
    return kept


def call_write_key(user_id: str, call_id: str) -> str:
    """One stable key per call's shutdown write, so a retried write is never stored twice."""
    digest = hashlib.sha256(f"{user_id}|{call_id}".encode()).hexdigest()[:40]
    return f"facts:{digest}"
