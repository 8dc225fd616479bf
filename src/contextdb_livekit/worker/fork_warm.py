"""Imported by LiveKit's forkserver (the last of `PRELOAD_MODULES`), never by a job.

Whatever a job process would compute the same way for every call is computed here once, so
each job process forked from the forkserver inherits it done: the engine's version
fingerprint (`memory.engine_client.engine_version`, cached) costs a replacement process
nothing. A job's own `warm_process()` call is then a cache look-up.
"""

from __future__ import annotations

from contextdb_livekit.worker.preload import warm_process

warm_process()
