"""The worker's startup check: every configuration problem named up front, one line each."""

from __future__ import annotations

import asyncio
import sys

from memory.factory import check_backend, describe_backend
from memory.settings import MemorySettings
from worker.settings import WorkerSettings

RUN_COMMANDS = {"dev", "start", "connect"}


def run_startup_check(argv: list[str]) -> None:
    """Name each missing setting before the worker registers, instead of failing per call."""
    command = next((arg for arg in argv[1:] if not arg.startswith("-")), "")
    if command not in RUN_COMMANDS:
        return
    missing = WorkerSettings().missing_required()
    try:
        memory = MemorySettings()
    except ValueError as exc:
        print(f"Invalid memory settings: {exc}", file=sys.stderr)
        sys.exit(2)
    if missing:
        print("Missing required settings: " + ", ".join(missing), file=sys.stderr)
        print("Copy .env.example to .env and fill them in.", file=sys.stderr)
        sys.exit(2)
    print(f"memory backend: {describe_backend(memory)}", file=sys.stderr)
    problem = asyncio.run(check_backend(memory))
    if problem:
        # Not fatal: calls still run, without memory, and consequential actions fail closed.
        print(f"WARNING: {problem}", file=sys.stderr)
