"""Per-call metrics: LiveKit's per-turn latencies and usage, and memory's own figures.

livekit-agents 1.8.9 deprecates the `metrics_collected` event (subscribing logs a warning
per session): per-turn latencies now ride on each `ChatMessage.metrics` (delivered with
`conversation_item_added`) and usage is `session.usage` (a `ModelUsageCollector` summary per
model). This module logs both, one line per turn and one summary line at the end of the call,
with the call's log fields, next to memory's figures (`MemoryMetrics`), which the call code
records as it goes.

The worker also serves LiveKit's own Prometheus metrics when `AgentServer(prometheus_port=…)`
is set (job processes report through `prometheus_multiproc_dir`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from livekit.agents import AgentSession, llm
from livekit.agents.voice.events import ConversationItemAddedEvent

from contextdb_livekit.memory.metrics import MemoryMetrics

log = logging.getLogger("agent.metrics")

# ChatMessage.metrics keys (seconds), in the order a turn happens.
_TURN_KEYS = (
    "transcription_delay",
    "end_of_turn_delay",
    "on_user_turn_completed_delay",
    "llm_node_ttft",
    "llm_node_ttfs",
    "tts_node_ttfb",
    "e2e_latency",
)


@dataclass
class CallMetrics:
    """What `attach_call_metrics` returns: the call's turn records and memory figures."""

    log_fields: dict[str, Any]
    memory: MemoryMetrics = field(default_factory=MemoryMetrics)
    turns: list[dict[str, float]] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)

    def on_item(self, event: ConversationItemAddedEvent) -> None:
        item = event.item
        if not isinstance(item, llm.ChatMessage) or not item.metrics:
            return
        # A TypedDict read by a key from a tuple: as the plain mapping it is at run time.
        recorded: Mapping[str, object] = item.metrics
        figures = {
            key: round(float(value), 3)
            for key in _TURN_KEYS
            if isinstance(value := recorded.get(key), int | float)
        }
        if not figures:
            return
        self.turns.append(figures)
        text = " ".join(f"{key}={value}" for key, value in figures.items())
        log.info(
            "turn metrics (%s): %s",
            item.role,
            text,
            extra={**self.log_fields, "role": item.role, **figures},
        )

    def on_close(self, session: AgentSession) -> None:
        self.usage = [usage.model_dump() for usage in session.usage.model_usage]
        text = "; ".join(_usage_text(usage) for usage in self.usage) or "none"
        log.info(
            "usage summary: %d turns; %s",
            len(self.turns),
            text,
            extra={**self.log_fields, "usage": self.usage},
        )
        self.memory.log_summary(log_fields=self.log_fields)


def _usage_text(usage: dict[str, Any]) -> str:
    figures = ", ".join(
        f"{key}={value}"
        for key, value in usage.items()
        if key not in ("type", "provider", "model") and value
    )
    return f"{usage.get('type')} {usage.get('model') or '?'}: {figures or 'no usage'}"


def attach_call_metrics(
    session: AgentSession, *, log_fields: dict[str, Any], memory: MemoryMetrics | None = None
) -> CallMetrics:
    """Log per-turn metrics as they land and the usage and memory summary when the session
    closes. Call it before `session.start` so the first turn is counted. `memory`: the call's
    own figures (`CallContext.metrics`), recorded by the call as it goes."""
    metrics = CallMetrics(log_fields=dict(log_fields), memory=memory or MemoryMetrics())
    session.on("conversation_item_added", metrics.on_item)
    session.on("close", lambda _: metrics.on_close(session))
    return metrics
