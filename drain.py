"""This line's drain process: the generic `delivery.drain` with its gated actions' recovery
and the line's retention of caller data (`memory.retention`, every RETENTION_INTERVAL_S).

python drain.py         # long-running; SIGTERM/SIGINT stop it
python drain.py --once  # deliver what is due now, print counts
"""

from __future__ import annotations

import sys
from functools import partial

from contextdb_livekit.hosting import RetentionSchedule, run_drain
from memory.retention import RetentionSettings, retention_policy
from tools.registry import open_intent_resolvers


def main(argv: list[str] | None = None) -> int:
    return run_drain(
        argv,
        recovery=open_intent_resolvers,
        prog="python drain.py",
        # The line's retention, applied once per RETENTION_INTERVAL_S.
        housekeeping=partial(RetentionSchedule.from_settings, retention_policy, RetentionSettings),
    )


if __name__ == "__main__":
    sys.exit(main())
