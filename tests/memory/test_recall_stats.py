"""The engine keeps SQLite planner statistics current, so recall cost follows the caller.

Files are grown by copying engine-written rows in bulk (bench.recall_growth.copy_caller_rows),
so a few thousand rows take well under a second. Plans are read from the statements the engine
really ran during a recall, explained on the engine's own connection.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bench.recall_growth import copy_caller_rows
from contextdb_livekit.backends.engine_service import build_app
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import (
    SqliteEngineClients,
    ledger_path,
    open_client,
    open_engine,
)
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.sqlite import stats as sqlite_stats
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from memory.facts import SNAPSHOT_QUERY

TEMPLATE = "caller-template"


async def _engine_without_statistics(path: Path) -> LocalEngine[SqliteEngineClients]:
    """The engine on pycontextdb's own open, where recall cost grows with the whole store."""
    clients = SqliteEngineClients(await open_client(path))
    return LocalEngine(clients, SqliteDecisionLedger(ledger_path(path)))


async def _seed(path: Path, user_id: str = TEMPLATE, count: int = 10) -> None:
    """`count` memories for one caller, written through the engine (no statistics)."""
    engine = await _engine_without_statistics(path)
    try:
        facts = [
            FactToRemember(
                content=f"{user_id} note {i}: boiler, visit preferences and parking",
                source="user_stated",
                confidence=0.8,
            )
            for i in range(count)
        ]
        await engine.remember_many(user_id, facts, idempotency_key=f"seed-{user_id}")
    finally:
        await engine.close()


async def _recall_indexes(engine: LocalEngine[SqliteEngineClients], user_id: str) -> set[str]:
    _, plans = await sqlite_stats.traced_plans(
        engine.clients.db, engine.recall(user_id, SNAPSHOT_QUERY, top_k=8)
    )
    assert plans, "the recall ran no scoped query"
    used = set()
    for plan in plans.values():
        words = plan.replace(";", " ").split()
        used.update(words[i + 1] for i, word in enumerate(words) if word == "INDEX")
    return used


def _callers(count: int, prefix: str = "caller") -> list[str]:
    return [f"{prefix}-{i:05d}" for i in range(count)]


async def test_open_analyzes_so_scoped_recall_uses_the_user_index(tmp_path: Path) -> None:
    path = tmp_path / "engine.sqlite3"
    await _seed(path)
    copy_caller_rows(path, TEMPLATE, _callers(300), seed=1)  # 3,010 rows, 10 a caller
    assert not sqlite_stats.has_statistics(path)

    baseline = await _engine_without_statistics(path)
    try:
        # The problem this guards against: with no statistics SQLite walks the status index.
        assert "idx_memories_status" in await _recall_indexes(baseline, "caller-00042")
    finally:
        await baseline.close()

    engine = await open_engine(path)
    try:
        assert sqlite_stats.has_statistics(path)
        used = await _recall_indexes(engine, "caller-00042")
        assert "idx_memories_user_id" in used
        assert "idx_memories_status" not in used
        state = await sqlite_stats.read_state(engine.clients.db)
        assert state.rows == 3010 and not state.stale
    finally:
        await engine.close()


async def test_a_young_file_is_not_analyzed(tmp_path: Path) -> None:
    path = tmp_path / "engine.sqlite3"
    await _seed(path, count=5)
    engine = await open_engine(path)
    try:
        assert not sqlite_stats.has_statistics(path)  # below MIN_ROWS every plan is cheap
    finally:
        await engine.close()


async def _stale_engine(path: Path) -> LocalEngine:
    """An open engine whose statistics say status is more selective than user_id.

    Analyzed (at open) while one caller held 300 of the 310 rows, spread over the three
    lifecycle states; then 300 callers arrive through another connection, all active.
    """
    await _seed(path, user_id="solo", count=10)
    await _seed(path)
    copy_caller_rows(path, TEMPLATE, ["solo"] * 9, seed=2)
    copy_caller_rows(path, TEMPLATE, ["solo"] * 10, seed=3, status="ARCHIVED")
    copy_caller_rows(path, TEMPLATE, ["solo"] * 10, seed=4, status="DELETED")
    engine = await open_engine(path)
    assert sqlite_stats.has_statistics(path)
    copy_caller_rows(path, TEMPLATE, _callers(300, "new"), seed=5)
    return engine


async def test_statistics_from_another_connection_are_not_seen_by_the_engine(
    tmp_path: Path,
) -> None:
    path = tmp_path / "engine.sqlite3"
    engine = await _stale_engine(path)
    try:
        assert "idx_memories_status" in await _recall_indexes(engine, "new-00007")
        # ANALYZE through a second connection updates the file, not the engine's planner:
        # that is why sqlite_stats runs ANALYZE on the engine's own connection.
        other = sqlite3.connect(path)
        other.execute("ANALYZE memories")
        other.commit()
        other.close()
        assert "idx_memories_status" in await _recall_indexes(engine, "new-00007")
    finally:
        await engine.close()


async def test_keeper_reanalyzes_when_the_store_has_doubled(tmp_path: Path) -> None:
    path = tmp_path / "engine.sqlite3"
    engine = await _stale_engine(path)
    try:
        keeper = sqlite_stats.StatsKeeper(engine.clients.db, await _state_at_open(engine))
        assert "idx_memories_status" in await _recall_indexes(engine, "new-00007")
        assert keeper.note_writes(sqlite_stats.CHECK_EVERY_WRITES - 1) is None
        task = keeper.note_writes(1)
        assert task is not None
        await task
        assert keeper.analyze_runs == 1
        used = await _recall_indexes(engine, "new-00007")
        assert "idx_memories_user_id" in used and "idx_memories_status" not in used
        # Grown by far less than the factor since: the next check counts and does not analyze.
        again = keeper.note_writes(sqlite_stats.CHECK_EVERY_WRITES)
        assert again is not None
        await again
        assert keeper.analyze_runs == 1
        assert keeper.state.rows == 3310
    finally:
        await engine.close()


async def _state_at_open(engine: LocalEngine) -> sqlite_stats.StatsState:
    state = await sqlite_stats.read_state(engine.clients.db)
    assert state.analyzed_rows is not None and state.rows >= 2 * state.analyzed_rows
    return state


def test_staleness_rule() -> None:
    state = sqlite_stats.StatsState
    assert not state(analyzed_rows=None, rows=sqlite_stats.MIN_ROWS - 1).stale
    assert state(analyzed_rows=None, rows=sqlite_stats.MIN_ROWS).stale
    assert not state(analyzed_rows=1000, rows=1999).stale
    assert state(analyzed_rows=1000, rows=2000).stale
    assert state(analyzed_rows=1000, rows=400).stale  # shrunk: forgotten callers


async def test_engine_service_feeds_writes_to_the_keeper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "engine.sqlite3"
    engine = await _stale_engine(path)
    monkeypatch.setattr(sqlite_stats, "CHECK_EVERY_WRITES", 2)
    keeper = sqlite_stats.StatsKeeper(engine.clients.db, await _state_at_open(engine))
    client = TestClient(TestServer(build_app(engine, [0.0], keeper)))
    await client.start_server()
    try:
        body = {
            "user_id": "new-00003",
            "items": [
                {
                    "content": "new-00003 has a Baxi boiler",
                    "source": "user_stated",
                    "confidence": 0.8,
                },
                {
                    "content": "new-00003 parks on the drive",
                    "source": "user_stated",
                    "confidence": 0.8,
                },
            ],
        }
        response = await client.post(
            "/v1/remember_many", json=body, headers={"Idempotency-Key": "k1"}
        )
        assert response.status == 200
        assert keeper._task is not None
        await keeper._task
        assert keeper.analyze_runs == 1
        assert "idx_memories_status" not in await _recall_indexes(engine, "new-00007")
    finally:
        await client.close()
        await keeper.close()
        await engine.close()


# --- the optional offline embedder (requirements-embedder.txt) -----------------------------


def test_onnx_minilm_matches_the_reference_model() -> None:
    """Cosine similarities sentence-transformers documents for fp32 all-MiniLM-L6-v2."""
    from contextdb_livekit.memory.embedders import OnnxMiniLM

    left = ["The cat sits outside", "A man is playing guitar", "The new movie is awesome"]
    right = ["The dog plays in the garden", "A woman watches TV", "The new movie is so great"]
    reference = [0.2838, -0.0327, 0.8939]
    vectors = OnnxMiniLM().encode(left + right)
    assert vectors.shape == (6, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (vectors[:3] * vectors[3:]).sum(axis=1)
    # int8 weights: within a few hundredths of the fp32 model, not bit-equal.
    assert np.allclose(cosines, reference, atol=0.02), cosines


def test_onnx_minilm_refuses_a_model_file_that_is_not_the_pinned_one(tmp_path: Path) -> None:
    from contextdb_livekit.memory.embedders import EmbedderUnavailable, OnnxMiniLM, minilm_files

    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(EmbedderUnavailable, match="not the pinned"):
        OnnxMiniLM(fake, minilm_files()[1]).encode(["hello"])


async def test_local_engine_opens_with_the_onnx_embedder(tmp_path: Path) -> None:
    from contextdb_livekit.memory.embedders import ONNX_MINILM, provider_for

    assert provider_for("mock") is None
    path = tmp_path / "engine.sqlite3"
    engine = await open_engine(path, embedding_model=ONNX_MINILM)
    try:
        facts = [
            FactToRemember(content=text, source="user_stated", confidence=0.8)
            for text in (
                "The caller prefers engineer visits on Thursday mornings",
                "The invoice should be emailed, not posted",
                "There is a dog in the garden",
            )
        ]
        await engine.remember_many("c1", facts, idempotency_key="k")
        result = await engine.recall("c1", "what day suits a visit from the engineer", top_k=1)
        assert [m.content for m in result.memories] == [facts[0].content]
    finally:
        await engine.close()
    conn = sqlite3.connect(path)
    try:
        stored = conn.execute("SELECT DISTINCT embedding_dim, embedding_model_id FROM memories")
        assert stored.fetchall() == [(384, ONNX_MINILM)]
    finally:
        conn.close()


async def test_onnx_provider_caches_repeated_queries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The call-start snapshot query never changes: it must be embedded once, not per call."""
    from contextdb_livekit.memory import embedders

    calls: list[list[str]] = []
    real = embedders.OnnxMiniLM.encode

    def counting(self: embedders.OnnxMiniLM, texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return real(self, texts)

    monkeypatch.setattr(embedders.OnnxMiniLM, "encode", counting)
    provider = embedders.provider_for(embedders.ONNX_MINILM)
    assert provider is not None
    first = await provider.embed_query(SNAPSHOT_QUERY)
    again = await provider.embed_query(SNAPSHOT_QUERY)
    assert first == again and len(calls) == 1
