"""The embedded pycontextdb engine behind the same surface as ContextDB Cloud.

One `LocalEngine` is the engine's rules (the slot rule, write-ahead fact writes, receipts)
composed with two storage parts, each with a SQLite and a Postgres sibling: where a caller's
pycontextdb client comes from (`stores.engine.EngineClients`) and the decision ledger
(`stores.ledger.DecisionLedger`). `backends.sqlite_engine.open_engine` opens one on a SQLite
file (served to the job processes by `backends.engine_service`, the file's only writer);
`backends.postgres_engine.connect_engine` one on the shared Postgres, in each job process.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

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

from contextdb_livekit.memory.decisions import decide_in_slot
from contextdb_livekit.memory.errors import MemoryNotFound, MemoryRejected, MemoryUnavailable
from contextdb_livekit.memory.models import (
    ActionDecision,
    ActionSlot,
    ExecutionReceiptResponse,
    FactToRemember,
    ReceiptStatus,
)
from contextdb_livekit.stores.engine import EngineClients
from contextdb_livekit.stores.ledger import (
    DecisionLedger,
    DecisionRecord,
    ReceiptRequest,
    RecordedDecision,
)

_RECALL_CONTEXT_TOKENS = 512
# Metadata keys that tie a stored fact to the idempotent write that stored it.
_WRITE_KEY = "idempotency_key"
_WRITE_INDEX = "fact_index"
_REPLAY_SCAN_LIMIT = 1_000_000


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


def _payload_hash(user_id: str, payload: Any) -> str:
    return hashlib.sha256(json.dumps([user_id, payload], sort_keys=True).encode()).hexdigest()


ClientsT = TypeVar("ClientsT", bound=EngineClients)


class LocalEngine(Generic[ClientsT]):
    """pycontextdb plus the decision/receipt ledger, on the store its parts keep."""

    def __init__(self, clients: ClientsT, ledger: DecisionLedger) -> None:
        self.clients = clients
        self._ledger = ledger

    @property
    def ledger(self) -> DecisionLedger:
        return self._ledger

    async def client_for(self, user_id: str) -> contextdb.ContextDB:
        """The pycontextdb client serving this caller, opened on first use."""
        return await self._guard(self.clients.client_for(user_id))

    def _db_for(self, user_id: str) -> contextdb.ContextDB:
        """The client serving this caller; every public call opens it first (`_opened`)."""
        return self.clients.opened(user_id)

    def _verifier_for(self, user_id: str) -> VerifyBeforeAct:
        return VerifyBeforeAct(self._db_for(user_id))

    async def _opened(self, user_id: str) -> None:
        await self.client_for(user_id)

    async def audit_chain_verifies(self, user_id: str) -> bool:
        """pycontextdb's hash chain over every write on this store, checked end to end."""
        db = await self.client_for(user_id)
        if db.audit is None:  # pycontextdb built without its audit log: nothing to verify
            return False
        return bool(await db.audit.verify_chain())

    async def close(self) -> None:
        await self.clients.close()
        self._ledger.close()

    async def recall(self, user_id: str, query: str, *, top_k: int = 5) -> RecallResult:
        await self._opened(user_id)
        items = await self._guard(
            self._db_for(user_id).factual.recall(query, top_k=top_k, user_id=user_id)
        )
        return RecallResult(
            context=render_recalled_context(items, max_tokens=_RECALL_CONTEXT_TOKENS),
            memories=[memory_from_item(m) for m in items],
        )

    async def evaluate_action(
        self,
        user_id: str,
        query: str,
        *,
        slot: ActionSlot,
        top_k: int = 5,
        request_key: str | None = None,
    ) -> ActionDecision:
        """A recorded decision. With `request_key` (the host's key for this evaluation),
        asking again returns the decision recorded the first time: a retry after a lost
        answer never leaves a decision nobody knows about."""
        return await self._evaluate(
            user_id, query, request_key, lambda: self._decide_in_slot(user_id, query, slot, top_k)
        )

    async def _evaluate(
        self,
        user_id: str,
        query: str,
        request_key: str | None,
        decide: Callable[[], Awaitable[tuple[str, list[Any], list[str]]]],
    ) -> ActionDecision:
        await self._opened(user_id)
        if request_key is not None:
            found = await self._guard(self._ledger.find_request(user_id, request_key))
            if found is not None:
                return await self._recorded(user_id, found)
        outcome, items, pending = await decide()
        decision = await self._guard(
            self._ledger.record_decision(
                user_id=user_id,
                query=query,
                outcome=outcome,
                memories=[memory_from_item(m) for m in items],
                pending_ids=pending,
                request_key=request_key,
            )
        )
        if isinstance(decision, RecordedDecision):  # a concurrent ask with the same key
            decision = await self._recorded(user_id, decision)
        return decision

    async def _recorded(self, user_id: str, found: RecordedDecision) -> ActionDecision:
        return ActionDecision(
            decision_id=found.decision_id,
            outcome=found.outcome,
            memories=await self._load(user_id, found.memory_ids),
            pending_confirmation_ids=found.pending_ids,
        )

    async def sweep_open_decisions(self, older_than_s: float) -> list[str]:
        """Close decisions nobody closed (`stores.ledger`); returns their ids."""
        return await self._guard(self._ledger.sweep_open(older_than_s))

    async def _decide_in_slot(
        self, user_id: str, query: str, slot: ActionSlot, top_k: int
    ) -> tuple[str, list[Any], list[str]]:
        """The host's slot rule (`memory.decisions`) on one exact slot read (~1 ms).

        Unrelated trusted memories can never authorise the action, and the rule is the same
        function the Cloud adapter applies, so both backends decide alike.
        """
        in_slot = await self._guard(
            self._db_for(user_id).slot_facts(slot.entity, slot.attribute, user_id=user_id)
        )
        by_id = {m.id: m for m in in_slot}
        ruled = decide_in_slot(slot, [memory_from_item(m) for m in in_slot])
        return ruled.outcome, [by_id[m.id] for m in ruled.evidence[:top_k]], ruled.pending_ids

    async def forget(self, user_id: str, memory_id: str) -> int:
        await self._opened(user_id)
        return int(
            await self._guard(self._db_for(user_id).forget(user_id=user_id, memory_id=memory_id))
        )

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
        await self._opened(user_id)
        items = await self._guard(
            self._db_for(user_id).factual.pending_confirmations(user_id=user_id)
        )
        return [memory_from_item(m) for m in items]

    async def confirm(
        self, user_id: str, memory_id: str, *, idempotency_key: str | None = None
    ) -> Memory:
        await self._opened(user_id)
        item = await self._guard(self._db_for(user_id).factual.confirm(memory_id, user_id=user_id))
        return memory_from_item(item)

    async def remember_many(
        self, user_id: str, facts: list[FactToRemember], *, idempotency_key: str
    ) -> list[Memory]:
        """Idempotent batch write, exactly once whatever step a crash or a retry lands on.

        The ledger is a separate store, so a fact and its key cannot commit together.
        Instead the key is recorded `in_progress` before the first fact is written, and every
        fact carries the key and its index in its metadata. A replay that finds the key
        `in_progress` (the earlier attempt was killed, cancelled or failed part-way) keeps the
        facts already written, writes only the rest, then completes the record. Two sends
        with one key are serialised by the ledger's `write_guard`.
        """
        await self._opened(user_id)
        payload = [fact.as_item() for fact in facts]
        digest = _payload_hash(user_id, payload)
        async with self._ledger.write_guard(idempotency_key):
            record = await self._ledger.begin_write(idempotency_key, digest, user_id)
            if record.state == "done":
                return await self._load(user_id, record.ids)
            written = (
                await self._facts_written_under(user_id, idempotency_key)
                if record.state == "in_progress"
                else {}
            )
            stored = []
            for index, fact in enumerate(facts):
                item = written.get(index)
                if item is None:
                    item = await self._add_fact(user_id, fact, idempotency_key, index)
                stored.append(item)
            await self._ledger.complete_write(idempotency_key, [m.id for m in stored])
        return [memory_from_item(m) for m in stored]

    async def _add_fact(
        self, user_id: str, fact: FactToRemember, idempotency_key: str, index: int
    ) -> Any:
        with warnings.catch_warnings():
            # A slot the text does not support is demoted by the engine; that is the
            # intended safety net, not something to print on every call.
            warnings.simplefilter("ignore", UserWarning)
            return await self._guard(
                self._db_for(user_id).factual.add(
                    fact.content,
                    # The key travels with the fact, in the same commit as the fact itself.
                    metadata={_WRITE_KEY: idempotency_key, _WRITE_INDEX: index},
                    source=fact.source,
                    confidence=fact.confidence,
                    action_relevant=fact.action_relevant,
                    entity=fact.entity,
                    attribute=fact.attribute,
                    user_id=user_id,
                )
            )

    async def _facts_written_under(self, user_id: str, idempotency_key: str) -> dict[int, Any]:
        """Facts an interrupted attempt already stored under this key, by their index.

        A scan of the caller's facts, paid only on a replay of an interrupted write. A fact
        that landed as a corroboration or no-op carries no tag, but writing it again is a
        no-op: the engine's writes all come from one speaker, which corroborates only once.
        """
        items = await self._guard(
            self._db_for(user_id).factual.list_facts(limit=_REPLAY_SCAN_LIMIT, user_id=user_id)
        )
        found: dict[int, Any] = {}
        for item in items:
            metadata = item.metadata or {}
            if metadata.get(_WRITE_KEY) == idempotency_key:
                found.setdefault(int(metadata.get(_WRITE_INDEX, -1)), item)
        return found

    async def _load(self, user_id: str, ids: list[str]) -> list[Memory]:
        found = []
        for memory_id in ids:
            item = await self._guard(self._db_for(user_id).get(memory_id))
            if item is not None and item.user_id == user_id:
                found.append(memory_from_item(item))
        return found

    async def receipt_for(self, user_id: str, decision_id: str) -> ExecutionReceiptResponse | None:
        return await self._ledger.receipt_for(user_id, decision_id)

    async def decision_trail(self, user_id: str) -> list[DecisionRecord]:
        return await self._ledger.trail(user_id)

    async def _guard(self, awaitable: Any) -> Any:
        try:
            return await awaitable
        except (MemoryNotFoundError, ScopeConflictError, UnauthorizedError) as exc:
            raise MemoryNotFound("memory not found", status=404) from exc
        except ValueError as exc:
            raise MemoryRejected(str(exc), code="invalid", status=422) from exc
        except (ContextDBError, OSError) as exc:
            raise MemoryUnavailable(f"local engine error: {exc}", status=503) from exc
        except self.clients.unavailable_errors as exc:
            raise MemoryUnavailable(f"engine store: {exc}", code="database_unavailable") from exc
