"""This line's drain process: the generic `delivery.drain` with its gated actions' recovery.

python -m contextdb_livekit.domain.drain         # long-running; SIGTERM/SIGINT stop it
python -m contextdb_livekit.domain.drain --once  # deliver what is due now, print counts
"""

from __future__ import annotations

import sys

from contextdb_livekit.delivery.drain import main as drain_main
from contextdb_livekit.domain.registry import open_intent_resolvers


def main(argv: list[str] | None = None) -> int:
    return drain_main(
        argv, recovery=open_intent_resolvers, prog="python -m contextdb_livekit.domain.drain"
    )


if __name__ == "__main__":
    sys.exit(main())
