"""A process that is SIGKILLed at one named step of `LocalEngine.remember_many`.

python -m tests.memory.fault_write_worker DB_PATH USER_ID KEY STEP

Exits by `kill -9` of itself right after STEP ("begun", "fact:<i>", "recorded"); prints
"finished" if the step never came (so the test can tell a missed kill from a real one).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from contextdb_livekit.backends.sqlite_engine import open_engine
from testkit.fault_points import with_faults
from tests.memory.fault_facts import batch


async def main(db_path: Path, user_id: str, key: str, step: str) -> None:
    engine = await open_engine(db_path)

    async def kill_at(reached: str) -> None:
        if reached == step:
            os.kill(os.getpid(), signal.SIGKILL)

    await with_faults(engine, kill_at).remember_many(user_id, batch(key), idempotency_key=key)
    print("finished", flush=True)
    await engine.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]))
