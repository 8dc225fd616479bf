"""Imported by LiveKit's forkserver (the last of `PRELOAD_MODULES`), never by a job.

Whatever a job process would compute the same way for every call is computed here once, so
each job process forked from the forkserver inherits it done: the engine's version
fingerprint (`backends.engine_client.engine_version`, cached) costs a replacement process
nothing, and neither do the libraries' first-use costs (`warm_libraries`). A job's own
`warm_process()` call is then a cache look-up.

Then everything imported so far is moved out of the garbage collector's reach
(`gc.freeze`): a job process's first full collection otherwise walks every object it
inherited, writing to each page it touches, so the fork's shared pages are copied one by one
(measured: ~210 ms of CPU and 17,000 page faults per job process, the same collection after
the freeze ~10 ms). Nothing frozen is ever freed, which is what a module loaded for the
worker's life is anyway.
"""

from __future__ import annotations

import gc

from contextdb_livekit.worker.preload import warm_libraries, warm_process

warm_process()
warm_libraries()
gc.freeze()
