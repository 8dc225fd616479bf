# syntax=docker/dockerfile:1
# The base is a build argument: python:3.11-slim by default, or any Debian-family image with
# Python 3.11 and its venv module (the container test builds one from a Debian bookworm root
# filesystem, because there is no registry to pull from there).
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

# A venv on every base: Debian's own python3 refuses system-wide pip installs (PEP 668), and
# with /opt/venv/bin first on PATH, `python` means the same interpreter on both kinds of base.
RUN python3 -m venv /opt/venv \
    && useradd --no-log-init --create-home --uid 10001 --user-group agent

WORKDIR /app

# Requirements and the library before the starter's code, so a change to the line's code
# reuses the installed layer.
COPY requirements.txt .
COPY src ./src
RUN pip install -r requirements.txt

# The code stays root-owned and read-only to the worker; only /data is writable by it.
COPY . .
RUN python -m compileall -q /app

# All state (local memory engine, outbox, decision ledger, calendar, attestations, customer
# directory) lives in one volume owned by the runtime user. Mount a volume or a host directory
# owned by uid 10001 there, or a replaced container loses queued receipts and consent records.
ENV CONTEXTDB_LOCAL_PATH=/data/contextdb/memory.sqlite3 \
    MEMORY_OUTBOX_PATH=/data/contextdb/outbox.sqlite3 \
    MEMORY_SPILL_PATH=/data/contextdb/spill.sqlite3 \
    CALENDAR_LOCAL_PATH=/data/calendar.sqlite3 \
    BILLING_LOCAL_PATH=/data/billing.sqlite3 \
    ATTESTATION_PATH=/data/attestations.sqlite3 \
    CUSTOMER_DIRECTORY_PATH=/data/customers.sqlite3 \
    CLAIM_REGISTRY_PATH=/data/claims.sqlite3
RUN install -d -o agent -g agent -m 0700 /data
VOLUME ["/data"]

USER agent

# Model files the plugins need (Silero VAD ships in its wheel); fetched at build, not at run.
RUN python agent.py download-files

# The worker's health endpoint (AgentServer's HTTP server: 8081 in production unless
# WORKER_HTTP_PORT moves it); it answers 200 once the worker is registered with LiveKit.
EXPOSE 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('WORKER_HTTP_PORT') or '8081'; sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/', timeout=4).status == 200 else 1)"]

CMD ["python", "agent.py", "start"]
