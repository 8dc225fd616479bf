"""Memory's own figures for one call: snapshot hits and latency, turn-recall hits,
decision outcomes, outbox depth. Recorded by the call; logged with LiveKit's per-turn
metrics at the end of the call (`worker.metrics`)."""

from __future__ import annotations

import logging
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("agent.metrics")


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

    def record_snapshot(self, *, hit: bool, latency_ms: float) -> None:
        if hit:
            self.snapshot_hits += 1
        else:
            self.snapshot_misses += 1
        self.snapshot_latency_ms.append(latency_ms)

    def record_turn_recall(self, *, hit: bool) -> None:
        if hit:
            self.turn_recall_hits += 1
        else:
            self.turn_recall_misses += 1

    def record_decision(self, outcome: str) -> None:
        self.decisions[outcome] += 1

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
        }

    def log_summary(self, *, log_fields: dict[str, Any] | None = None) -> None:
        summary = self.summary()
        text = " ".join(f"{key}={value}" for key, value in summary.items())
        log.info("memory summary: %s", text, extra={**(log_fields or {}), **summary})
