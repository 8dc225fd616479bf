"""The keyless live demo runs a scripted call through livekit-server and the real worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def test_live_returning_caller_prints_the_transcript_and_books():
    run = subprocess.run(
        [sys.executable, "-m", "scenarios", "returning_caller", "--live"],
        cwd=ROOT,
        # "Welcome back ... Vaillant" needs the snapshot in the greeting: a budget that holds
        # on a busy host, where a cold engine's first recall can take seconds.
        env={**os.environ, "MEMORY_PREFETCH_BUDGET_MS": "5000"},
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert any(line.startswith("agent:  Welcome back") and "Vaillant" in line for line in lines)
    assert "caller: Yes please" in lines
    assert any(line.startswith("agent:  Booked a service visit") for line in lines)
    assert [line.split()[2] for line in lines if line.strip().startswith("decision")] == [
        "abstain",
        "ask",
        "act",
    ]


def test_live_refuses_a_sip_scenario_clearly():
    run = subprocess.run(
        [sys.executable, "-m", "scenarios", "caller_id_only", "--live"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "use it without --live" in run.stderr
