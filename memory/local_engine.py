"""The embedded pycontextdb engine behind the same surface as ContextDB Cloud.

One `LocalEngine` owns one SQLite file. pycontextdb keeps its slot locks, vector index and
audit-chain head in process memory, so only one process may write a file: the worker reaches
this engine through `memory.engine_service` (one process per file) rather than opening the
file in every job process.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import contextdb
from contextdb.core.exceptions import (
    ContextDBError,
    MemoryNotFoundError,
    ScopeConflictError,
    UnauthorizedError,
)
from contextdb.integrations.act import VerifyBeforeAct
from contextdb.integrations.prompting import render_recalled_context
from contextdb_cloud_client import Memory, RecallResult

from memory import embedders, sqlite_stats
from memory.errors import MemoryNotFound, MemoryRejected, MemoryUnavailable
from memory.ledger import DecisionLedger, DecisionRecord, ReceiptRequest
from memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    FactToRemember,
    ReceiptStatus,
)

_RECALL_CONTEXT_TOKENS = 512


def memory_from_item(item: Any) -> Memory:
    """pycontextdb MemoryItem → the Cloud contract's Memory, field for field."""
    return Memory(
        id=item.id,
        content=item.content,
        user_id=item.user_id,
        epistemic_source=str(item.epistemic_source),
        confidence=float(item.confidence),
        corroboration_count=int(item.corroboration_count),
        action_relevant=bool(item.action_relevant),
        requires_confirmation=bool(item.requires_confirmation),
        confirmed=bool(item.confirmed),
        independent_corroboration=int(item.independent_corroboration),
        injection_suspect=bool(item.injection_suspect),
        entity_key=item.entity_key,
        attribute_key=item.attribute_key,
        valid_until=item.valid_until.isoformat() if item.valid_until else None,
        superseded_by=item.superseded_by,
    )


def _embedder_options(embedding_model: str) -> dict[str, Any]:
    """Engine options for a project-provided embedder (memory.embedders); none for the rest."""
    provider = embedders.provider_for(embedding_model)
    if provider is None:
        return {}
    return {"embedding_provider": provider, "embedding_dim": provider.dimension()}


def _payload_hash(user_id: str, payload: Any) -> str:
    return hashlib.sha256(json.dumps([user_id, payload], sort_keys=True).encode()).hexdigest()


class LocalEngine:
    """pycontextdb on one SQLite file, plus the decision/receipt ledger beside it."""

    def __init__(self, db: contextdb.ContextDB, ledger: DecisionLedger) -> None:
        self._db = db
        self._ledger = ledger
        self._verifier = VerifyBeforeAct(db)

    @classmethod
    async def open(
        cls, path: Path, *, embedding_model: str = "mock", statistics: bool = True
    ) -> LocalEngine:
        """Open (or create) the engine file.

        `statistics=False` skips the planner statistics step and reproduces pycontextdb's own
        open, where recall cost grows with the whole store; only the growth bench's baseline
        uses it.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        db = contextdb.init(
            storage_url=f"sqlite:///{path}",
            embedding_model=embedding_model,
            llm_model="mock",
            # The engine itself keeps the audit chain; per-read audit doubles recall cost.
            enable_read_audit=False,
            **_embedder_options(embedding_model),
        )
        # Initialise once before any concurrent use: concurrent first calls each initialise.
        await db.stats()
        if statistics:
            # Before the first recall: without statistics SQLite scans every caller's rows.
            await sqlite_stats.refresh_if_stale(db)
        return cls(db, DecisionLedger(path.with_name(path.stem + ".ledger.sqlite3")))

    @property
    def db(self) -> contextdb.ContextDB:
        return self._db

    async def close(self) -> None:
        await self._db.close()
        self._ledger.close()

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult:
        items = await self._guard(self._db.factual.recall(query, top_k=top_k, user_id=user_id))
        return RecallResult(
            context=render_recalled_context(items, max_tokens=_RECALL_CONTEXT_TOKENS),
            memories=[memory_from_item(m) for m in items],
        )

    async def evaluate_action(
        self, user_id: str, query: str, *, slot: ActionSlot | None = None, top_k: int = 5
    ) -> ActionDecision:
        if slot is None:
            decided = await self._guard(self._verifier.decide(query, user_id=user_id))
            outcome, items, pending = decided.kind, decided.memories, decided.pending_confirmation
        else:
            outcome, items, pending = await self._decide_in_slot(user_id, query, slot, top_k)
        return await self._guard(
            self._ledger.record_decision(
                user_id=user_id,
                query=query,
                outcome=outcome,
                memories=[memory_from_item(m) for m in items],
                pending_ids=pending,
            )
        )

    async def _decide_in_slot(
        self, user_id: str, query: str, slot: ActionSlot, top_k: int
    ) -> tuple[str, list[Any], list[str]]:
        """VerifyBeforeAct's act/ask/abstain rule, read from the action's slot only.

        An exact slot read (~1 ms) instead of similarity recall (~100+ ms at 1K memories),
        and unrelated trusted memories can no longer authorise the action.
        """
        # One exact slot read; the trust rule is the engine's own (what recall_for_action
        # applies to the same slot), so ask and act come from a single consistent read.
        in_slot = await self._guard(
            self._db.slot_facts(slot.entity, slot.attribute, user_id=user_id)
        )
        evidence = [m for m in in_slot if not m.injection_suspect and _matches(slot, m)]
        trusted = [m for m in evidence if self._db.trust_policy.is_trusted(m)][:top_k]
        if trusted:
            return "act", trusted, []
        candidates = evidence[:top_k]
        if candidates:
            return "ask", candidates, [m.id for m in candidates if m.requires_confirmation]
        return "abstain", [], []

    async def report_execution(
        self,
        user_id: str,
        decision_id: str,
        action_name: str,
        status: ReceiptStatus,
        *,
        idempotency_key: str,
        external_ref: str | None = None,
        error_code: str | None = None,
    ) -> ExecutionReceiptResponse:
        return await self._ledger.report(
            ReceiptRequest(
                user_id=user_id,
                decision_id=decision_id,
                action_name=action_name,
                status=status,
                idempotency_key=idempotency_key,
                external_ref=external_ref,
                error_code=error_code,
            )
        )

    async def pending_confirmations(self, user_id: str) -> list[Memory]:
        items = await self._guard(self._db.factual.pending_confirmations(user_id=user_id))
        return [memory_from_item(m) for m in items]

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory:
        item = await self._guard(self._db.factual.confirm(memory_id, user_id=user_id))
        return memory_from_item(item)

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]:
        """Idempotent batch write: a replay under the same key returns the first result."""
        payload = [fact.as_item() for fact in facts]
        digest = _payload_hash(user_id, payload)
        earlier = await self._ledger.replay_write(idempotency_key, digest)
        if earlier is not None:
            return await self._load(user_id, earlier)
        stored = []
        for fact in facts:
            with warnings.catch_warnings():
                # A slot the text does not support is demoted by the engine; that is the
                # intended safety net, not something to print on every call.
                warnings.simplefilter("ignore", UserWarning)
                item = await self._guard(
                    self._db.factual.add(
                        fact.content,
                        source=fact.source,
                        confidence=fact.confidence,
                        action_relevant=fact.action_relevant,
                        entity=fact.entity,
                        attribute=fact.attribute,
                        user_id=user_id,
                    )
                )
            stored.append(item)
        await self._ledger.record_write(idempotency_key, digest, [m.id for m in stored])
        return [memory_from_item(m) for m in stored]

    async def _load(self, user_id: str, ids: list[str]) -> list[Memory]:
        found = []
        for memory_id in ids:
            item = await self._guard(self._db.get(memory_id))
            if item is not None and item.user_id == user_id:
                found.append(memory_from_item(item))
        return found

    async def receipt_for(self, user_id: str, decision_id: str) -> ExecutionReceiptResponse | None:
        return await self._ledger.receipt_for(user_id, decision_id)

    async def decision_trail(self, user_id: str) -> list[DecisionRecord]:
        return await self._ledger.trail(user_id)

    @staticmethod
    async def _guard(awaitable: Any) -> Any:
        try:
            return await awaitable
        except (MemoryNotFoundError, ScopeConflictError, UnauthorizedError) as exc:
            raise MemoryNotFound("memory not found", status=404) from exc
        except ValueError as exc:
            raise MemoryRejected(str(exc), code="invalid", status=422) from exc
        except (ContextDBError, OSError) as exc:
            raise MemoryUnavailable(f"local engine error: {exc}", status=503) from exc


def _matches(slot: ActionSlot, item: Any) -> bool:
    """The engine's own canonical slot value decides; the memory's text is not re-read."""
    if (item.entity_key, item.attribute_key) != (slot.entity, slot.attribute):
        return False
    return (item.slot_value or "").casefold() == slot.value.casefold()
