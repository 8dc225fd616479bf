"""One engine, two storage parts (`stores.engine.EngineClients` plus a `DecisionLedger`):
the same rules run composed from the SQLite file's parts and from the shared Postgres's.
The whole backend surface runs on both through the `backend` fixture (tests/memory); this
checks the composition itself."""

from __future__ import annotations

from datetime import date

import pytest

from contextdb_livekit.memory.errors import MemoryConflict
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.engine import EngineClients
from contextdb_livekit.stores.ledger import DecisionLedger
from tests.memory.support import day_slot


@pytest.fixture(params=["local_engine", "postgres_engine"])
def engine(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return request.getfixturevalue(request.param)


async def test_the_engine_is_composed_of_the_two_contracts(engine) -> None:
    assert isinstance(engine.clients, EngineClients)
    assert isinstance(engine.ledger, DecisionLedger)


async def test_a_fact_write_and_a_decision_land_in_the_stores_parts(engine, user_id) -> None:
    facts = [FactToRemember("The boiler is in the loft", "user_stated", 0.9)]
    [stored] = await engine.remember_many(user_id, facts, idempotency_key="write-1")
    assert await engine.ledger.write_state("write-1") == "done"
    db = await engine.client_for(user_id)
    assert [m.id for m in await db.factual.list_facts(limit=10, user_id=user_id)] == [stored.id]
    with pytest.raises(MemoryConflict):
        await engine.remember_many(user_id, facts * 2, idempotency_key="write-1")

    slot = day_slot(date(2026, 12, 10))
    first = await engine.evaluate_action(user_id, "book", slot=slot, request_key="eval-1")
    again = await engine.evaluate_action(user_id, "book", slot=slot, request_key="eval-1")
    assert again.decision_id == first.decision_id
    await engine.report_execution(
        user_id, first.decision_id, "book_visit", "skipped", idempotency_key="receipt:eval-1"
    )
    [record] = await engine.decision_trail(user_id)
    assert (record.decision_id, record.status) == (first.decision_id, "skipped")
    assert await engine.audit_chain_verifies(user_id)
