"""This line's drain process: the generic `delivery.drain` with its gated actions' recovery
and the line's retention of caller data (`memory.retention`, every RETENTION_INTERVAL_S).

python drain.py         # long-running; SIGTERM/SIGINT stop it
python drain.py --once  # deliver what is due now, print counts
"""

from __future__ import annotations

import sys
from datetime import timedelta

from contextdb_livekit.api import open_caller_data
from contextdb_livekit.hosting import RetentionSchedule, run_drain
from memory.retention import RetentionSettings, retention_policy
from tools.registry import open_intent_resolvers


def retention_schedule() -> RetentionSchedule:
    """The line's retention, applied by the drain once per RETENTION_INTERVAL_S."""
    settings = RetentionSettings()
    return RetentionSchedule(
        open_caller_data, retention_policy(settings), timedelta(seconds=settings.interval_s)
    )


def main(argv: list[str] | None = None) -> int:
    return run_drain(
        argv,
        recovery=open_intent_resolvers,
        prog="python drain.py",
        housekeeping=retention_schedule,
    )


if __name__ == "__main__":
    sys.exit(main())
