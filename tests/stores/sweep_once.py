"""One sweeper process on an existing ledger, two passes a moment apart, for clock tests run
under `faketime`: prints the ids it closed, one JSON list.

    python -m tests.stores.sweep_once sqlite LEDGER_FILE [OUTBOX_FILE]
    python -m tests.stores.sweep_once postgres DSN
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from contextdb_livekit.stores.ledger import DecisionLedger
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from contextdb_livekit.stores.postgres.ledger import PostgresDecisionLedger
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger

OLDER_THAN_S = 3600.0


async def sweep_twice(kind: str, target: str, outbox: str | None) -> list[str]:
    database = SharedDatabase(target) if kind == "postgres" else None
    ledger: DecisionLedger = (
        PostgresDecisionLedger(database)
        if database is not None
        else SqliteDecisionLedger(Path(target), outbox_path=Path(outbox) if outbox else None)
    )
    try:
        closed = await ledger.sweep_open(OLDER_THAN_S)
        await asyncio.sleep(0.3)
        return closed + await ledger.sweep_open(OLDER_THAN_S)
    finally:
        ledger.close()
        if database is not None:
            await database.close()


if __name__ == "__main__":
    kind, target, *rest = sys.argv[1:]
    print(json.dumps(asyncio.run(sweep_twice(kind, target, rest[0] if rest else None))))
