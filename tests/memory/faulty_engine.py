"""The local engine service, SIGKILLed at one named step of the engine (a fault test only).

    FAULT_STEP=decision:recorded FAULT_AT=3 python -m tests.memory.faulty_engine --db ... \
        --socket ... --version ...

Steps are the engine's ledger steps (`testkit.fault_points`): "decision:decided" (decided,
not recorded), "decision:recorded" (recorded, not answered), "receipt:reported" (receipt
stored, not answered). The process kills itself the FAULT_AT-th time it reaches the step;
the worker's client then starts an ordinary engine on the same file.
"""

from __future__ import annotations

import os
import signal
import sys

from contextdb_livekit.backends import engine_service
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from testkit.fault_points import FaultyLedger

STEP = os.environ["FAULT_STEP"]
AT = int(os.environ.get("FAULT_AT", "1"))
_reached = [0]


async def _kill_at(step: str) -> None:
    if step == STEP:
        _reached[0] += 1
        if _reached[0] == AT:
            os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    # The service builds its ledger through this name: the faulty one wraps the real one.
    engine_service.SqliteDecisionLedger = lambda path, **options: FaultyLedger(  # type: ignore[assignment,misc]
        SqliteDecisionLedger(path, **options), _kill_at
    )
    sys.exit(engine_service.main())
