"""One TLS context for every HTTPS client the worker opens.

httpx builds a TLS context for each client or transport it is not given one, loading the CA
bundle every time: 20-40 ms of CPU, 0.1-0.3 s on a busy host, on the job's event loop — and
the job opens its clients at call start (ContextDB Cloud, the line's business systems, the
model extractor). Built here once, at import, in LiveKit's forkserver (`worker.preload`), every
job process inherits it loaded. An `ssl.SSLContext` may be shared by any number of clients.
"""

from __future__ import annotations

import ssl

import httpx

TLS_CONTEXT: ssl.SSLContext = httpx.create_ssl_context()
