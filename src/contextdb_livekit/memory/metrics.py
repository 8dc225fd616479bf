"""Memory's own figures for one call: snapshot hits and latency, turn-recall hits,
decision outcomes, outbox depth. Recorded by the call; logged with LiveKit's per-turn
metrics at the end of the call (`contextdb_livekit.worker.metrics`)."""

from __future__ import annotations

import logging
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import prometheus_client

log = logging.getLogger("agent.metrics")

# The same figures as Prometheus series, summed over calls and job processes. Served by the
# worker's Prometheus endpoint (WORKER_PROMETHEUS_PORT): LiveKit sets the multiprocess
# directory before it starts the job processes, so their samples reach the scrape.
SNAPSHOTS = prometheus_client.Counter(
    "contextdb_snapshots", "Call-start snapshots, by whether they landed in budget", ["result"]
)
SNAPSHOT_SECONDS = prometheus_client.Histogram(
    "contextdb_snapshot_seconds",
    "Call-start snapshot latency",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.5),
)
DECISIONS = prometheus_client.Counter(
    "contextdb_decisions", "Gated-action decisions, by outcome", ["outcome"]
)
OUTBOX_DEPTH = prometheus_client.Gauge(
    "contextdb_outbox_depth", "Outbox rows not yet delivered", multiprocess_mode="mostrecent"
)
OUTBOX_PARKED = prometheus_client.Gauge(
    "contextdb_outbox_parked", "Outbox rows parked (dead)", multiprocess_mode="mostrecent"
)


@dataclass
class MemoryMetrics:
    """Memory's figures for one call; every counter starts at zero."""

    snapshot_hits: int = 0  # the snapshot landed within its budget
    snapshot_misses: int = 0  # late, unavailable or empty-handed
    snapshot_latency_ms: list[float] = field(default_factory=list)
    turn_recall_hits: int = 0  # a turn's recall added context
    turn_recall_misses: int = 0
    decisions: Counter[str] = field(default_factory=Counter)  # act / ask / abstain / …
    outbox_depth: int | None = None  # rows not yet delivered, when last counted
    outbox_parked: int | None = None  # rows parked (dead), when last counted

    def record_snapshot(self, *, hit: bool, latency_ms: float) -> None:
        if hit:
            self.snapshot_hits += 1
        else:
            self.snapshot_misses += 1
        self.snapshot_latency_ms.append(latency_ms)
        SNAPSHOTS.labels(result="hit" if hit else "miss").inc()
        SNAPSHOT_SECONDS.observe(latency_ms / 1000)

    def record_outbox(self, *, depth: int, parked: int) -> None:
        self.outbox_depth, self.outbox_parked = depth, parked
        OUTBOX_DEPTH.set(depth)
        OUTBOX_PARKED.set(parked)

    def record_turn_recall(self, *, hit: bool) -> None:
        if hit:
            self.turn_recall_hits += 1
        else:
            self.turn_recall_misses += 1

    def record_decision(self, outcome: str) -> None:
        self.decisions[outcome] += 1
        DECISIONS.labels(outcome=outcome).inc()

    def summary(self) -> dict[str, Any]:
        latencies = self.snapshot_latency_ms
        return {
            "snapshot_hits": self.snapshot_hits,
            "snapshot_misses": self.snapshot_misses,
            "snapshot_latency_ms_max": round(max(latencies), 1) if latencies else None,
            "snapshot_latency_ms_median": round(statistics.median(latencies), 1)
            if latencies
            else None,
            "turn_recall_hits": self.turn_recall_hits,
            "turn_recall_misses": self.turn_recall_misses,
            "decisions": dict(sorted(self.decisions.items())),
            "outbox_depth": self.outbox_depth,
            "outbox_parked": self.outbox_parked,
        }

    def log_summary(self, *, log_fields: dict[str, Any] | None = None) -> None:
        summary = self.summary()
        text = " ".join(f"{key}={value}" for key, value in summary.items())
        log.info("memory summary: %s", text, extra={**(log_fields or {}), **summary})
