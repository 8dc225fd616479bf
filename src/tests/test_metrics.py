"""Per-call metrics: LiveKit's per-turn figures and memory's own, logged with the call's fields."""

from __future__ import annotations

import logging

import prometheus_client
import pytest
from livekit.agents import AgentSession, llm
from livekit.agents.voice.events import ConversationItemAddedEvent

from contextdb_livekit.worker.metrics import MemoryMetrics, attach_call_metrics

FIELDS = {"room": "call-1", "caller": "abc123"}


def assistant_turn(**metrics: float) -> ConversationItemAddedEvent:
    message = llm.ChatMessage(role="assistant", content=["Booked."], metrics=metrics)
    return ConversationItemAddedEvent(item=message)


async def test_each_turn_is_logged_with_the_call_fields(caplog: pytest.LogCaptureFixture):
    session = AgentSession()
    metrics = attach_call_metrics(session, log_fields=FIELDS)
    caplog.set_level(logging.INFO, logger="agent.metrics")
    session.emit("conversation_item_added", assistant_turn(llm_node_ttft=0.0321, e2e_latency=1.2))
    session.emit("conversation_item_added", assistant_turn())  # no figures: not a turn record

    assert metrics.turns == [{"llm_node_ttft": 0.032, "e2e_latency": 1.2}]
    [record] = [r for r in caplog.records if r.getMessage().startswith("turn metrics")]
    assert "e2e_latency=1.2" in record.getMessage()
    assert record.room == "call-1" and record.caller == "abc123"  # type: ignore[attr-defined]
    assert record.e2e_latency == 1.2  # type: ignore[attr-defined]


async def test_close_logs_usage_and_memory_summary(caplog: pytest.LogCaptureFixture):
    session = AgentSession()
    metrics = attach_call_metrics(session, log_fields=FIELDS)
    metrics.memory.record_snapshot(hit=True, latency_ms=12.5)
    metrics.memory.record_decision("ask")
    metrics.memory.record_decision("act")
    caplog.set_level(logging.INFO, logger="agent.metrics")
    metrics.on_close(session)
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("usage summary: 0 turns") for m in messages)
    [summary] = [m for m in messages if m.startswith("memory summary")]
    assert "snapshot_hits=1" in summary and "decisions={'act': 1, 'ask': 1}" in summary


def test_memory_metrics_count_each_figure():
    memory = MemoryMetrics()
    memory.record_snapshot(hit=True, latency_ms=10)
    memory.record_snapshot(hit=False, latency_ms=300)
    memory.record_turn_recall(hit=True)
    memory.record_turn_recall(hit=False)
    memory.record_turn_recall(hit=False)
    memory.outbox_depth = 2
    summary = memory.summary()
    assert summary == {
        "snapshot_hits": 1,
        "snapshot_misses": 1,
        "snapshot_latency_ms_max": 300,
        "snapshot_latency_ms_median": 155.0,
        "turn_recall_hits": 1,
        "turn_recall_misses": 2,
        "decisions": {},
        "outbox_depth": 2,
        "outbox_parked": None,
    }


def test_memory_figures_are_prometheus_series():
    registry = prometheus_client.REGISTRY

    def value(name: str, **labels: str) -> float:
        return registry.get_sample_value(name, labels) or 0.0

    hits, misses = (
        value("contextdb_snapshots_total", result="hit"),
        value("contextdb_snapshots_total", result="miss"),
    )
    observed = value("contextdb_snapshot_seconds_count")
    asks = value("contextdb_decisions_total", outcome="ask")
    memory = MemoryMetrics()
    memory.record_snapshot(hit=True, latency_ms=12)
    memory.record_snapshot(hit=False, latency_ms=300)
    memory.record_decision("ask")
    memory.record_outbox(depth=3, parked=1)
    assert value("contextdb_snapshots_total", result="hit") == hits + 1
    assert value("contextdb_snapshots_total", result="miss") == misses + 1
    assert value("contextdb_snapshot_seconds_count") == observed + 2
    assert value("contextdb_decisions_total", outcome="ask") == asks + 1
    assert value("contextdb_outbox_depth") == 3
    assert value("contextdb_outbox_parked") == 1
    assert memory.summary()["outbox_parked"] == 1
