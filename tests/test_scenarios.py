"""Every playground scenario runs through the real AgentSession and meets its expectations."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scenarios.__main__ import available, load, run_scenario

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", available())
async def test_scenario_meets_its_expectations(name, tmp_path):
    spec = load(name)
    result = await run_scenario(spec, tmp_path)
    assert result.failures(spec["expect"]) == []
    assert any(line.startswith("agent:") for line in result.transcript)


def test_playground_cli_lists_and_fails_loudly():
    listing = subprocess.run(
        [sys.executable, "-m", "scenarios"], cwd=ROOT, capture_output=True, text=True
    )
    assert listing.returncode == 0 and "returning_caller" in listing.stdout
    unknown = subprocess.run(
        [sys.executable, "-m", "scenarios", "no_such_scenario"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert unknown.returncode != 0 and "unknown scenario" in unknown.stderr
