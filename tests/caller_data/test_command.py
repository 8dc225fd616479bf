"""The two commands as an operator runs them: `python -m contextdb_livekit.caller_data
export|erase CUSTOMER_ID`, configured by the worker's own settings, against the local engine
process the calls use (running, as it would be while calls run)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from testkit.secret_scan import find_planted
from tests.caller_data.conftest import A_PLANTED, B_PLANTED, Line, plant

ROOT = Path(__file__).resolve().parents[2]


def command(line: Line, *args: str) -> subprocess.CompletedProcess[str]:
    data = line.workdir
    env = {
        **os.environ,
        "CONTEXTDB_LOCAL_PATH": str(data / "memory.sqlite3"),
        "MEMORY_OUTBOX_PATH": str(data / "outbox.sqlite3"),
        "MEMORY_SPILL_PATH": str(data / "spill.sqlite3"),
        "ATTESTATION_PATH": str(data / "attestations.sqlite3"),
        "CUSTOMER_DIRECTORY_PATH": str(data / "customers.sqlite3"),
        "CLAIM_REGISTRY_PATH": str(data / "claims.sqlite3"),
    }
    for name in ("CONTEXTDB_API_KEY", "DATABASE_URL"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "contextdb_livekit.caller_data", *args],
        cwd=data,  # no .env here: only the settings above
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("line", ["engine_process"], indirect=True)
async def test_export_then_erase_from_the_command_line(line: Line) -> None:
    planted = await plant(line)
    a, b = planted.a.customer_id, planted.b.customer_id
    out = line.workdir.parent / "export.json"
    exported = await asyncio.to_thread(command, line, "export", a, "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert out.stat().st_mode & 0o777 == 0o600  # personal data: owner-only
    document = json.loads(out.read_text())
    assert document["complete"] is True and document["customer_id"] == a
    text = out.read_text().lower()
    assert all(n.lower() in text for n in A_PLANTED)
    assert not any(n.lower() in text for n in B_PLANTED)

    erased = await asyncio.to_thread(command, line, "erase", a)
    assert erased.returncode == 0, erased.stdout + erased.stderr
    report = json.loads(erased.stdout)
    assert report["complete"] is True and sum(report["changed"].values()) > 0
    assert {n: find_planted(n, [line.workdir]) for n in A_PLANTED} == {n: [] for n in A_PLANTED}

    again = await asyncio.to_thread(command, line, "export", a)
    assert json.loads(again.stdout)["items"] == []
    other = await asyncio.to_thread(command, line, "export", b)
    assert "ottersley" in other.stdout.lower()


def test_a_bad_customer_id_is_refused_before_any_store_is_opened(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "contextdb_livekit.caller_data", "erase", "bad id; drop"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "customer id" in result.stderr
    assert list(tmp_path.iterdir()) == []
