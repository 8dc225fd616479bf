"""One startup check for every entry point: it runs where agent.py builds the worker's settings,
so `python -m livekit.agents start agent.py` (LiveKit 1.8's own entry, which never runs
agent.py's `__main__`) is refused exactly like `python agent.py start`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from livekit import rtc

from contextdb_livekit.identity import (
    IDENTITY_CLAIM_ATTRIBUTE,
    IdentityNotConfigured,
    mint_identity_claim,
)
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.job import authenticate_caller
from contextdb_livekit.worker.settings import TEMPLATE_IDENTITY_SECRET, WorkerSettings
from testkit.line_host import local_services
from tests.conversation.conftest import caller

ROOT = Path(__file__).resolve().parents[1]
GOOD = {
    "LIVEKIT_URL": "ws://127.0.0.1:9",
    "LIVEKIT_API_KEY": "devkey",
    "LIVEKIT_API_SECRET": "devsecret-devsecret-devsecret-00",
    "OPENAI_API_KEY": "sk-test",
    "IDENTITY_SIGNING_SECRET": "entry-point-test-signing-secret-0123456789abcdef",
}
ENTRY_POINTS = {
    "agent.py start": ["agent.py", "start"],
    "agent.py dev": ["agent.py", "dev"],
    "agent.py console": ["agent.py", "console", "--text"],
    "python -m livekit.agents start agent.py": ["-m", "livekit.agents", "start", "agent.py"],
    "python -m livekit.agents start --dev agent.py": [
        "-m", "livekit.agents", "start", "--dev", "agent.py",
    ],
    "python -m livekit.agents console agent.py": [
        "-m", "livekit.agents", "console", "agent.py", "--connect-addr", "127.0.0.1:9",
    ],
}  # fmt: skip


def run(tmp_path: Path, args: list[str], **env: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    # From the checkout (agent.py is found as LiveKit finds it: in the working directory),
    # with no .env of the checkout's: HOME and the data paths point into tmp_path.
    data = tmp_path / "data"
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        **GOOD,
        "CONTEXTDB_LOCAL_PATH": str(data / "memory.sqlite3"),
        "MEMORY_OUTBOX_PATH": str(data / "outbox.sqlite3"),
        "CALENDAR_LOCAL_PATH": str(data / "calendar.sqlite3"),
        "ATTESTATION_PATH": str(data / "attestations.sqlite3"),
        "CUSTOMER_DIRECTORY_PATH": str(data / "customers.sqlite3"),
        "CLAIM_REGISTRY_PATH": str(data / "claims.sqlite3"),
        "MEMORY_ENABLED": "false",
        **env,
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_every_entry_point_refuses_the_template_signing_secret(tmp_path: Path, entry: str):
    done = run(tmp_path, ENTRY_POINTS[entry], IDENTITY_SIGNING_SECRET=TEMPLATE_IDENTITY_SECRET)
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    problems = [line for line in done.stderr.splitlines() if line.startswith("configuration")]
    assert any("IDENTITY_SIGNING_SECRET" in line and "template" in line for line in problems)
    assert TEMPLATE_IDENTITY_SECRET not in done.stderr + done.stdout  # never echoed
    assert "Traceback" not in done.stderr
    assert "registered worker" not in done.stderr + done.stdout


@pytest.mark.parametrize("entry", ["agent.py start", "python -m livekit.agents start agent.py"])
def test_every_entry_point_names_each_bad_setting(tmp_path: Path, entry: str):
    done = run(
        tmp_path, ENTRY_POINTS[entry], CALENDAR_TIMEOUT_S="abc", IDENTITY_SIGNING_SECRET="short"
    )
    assert done.returncode == 2, done.stderr[-2000:]
    named = {
        line.split(": ")[1]
        for line in done.stderr.splitlines()
        if line.startswith("configuration error")
    }
    assert named == {"CALENDAR_TIMEOUT_S", "IDENTITY_SIGNING_SECRET"}


def test_commands_that_run_no_worker_are_not_held_to_the_worker_settings(tmp_path: Path):
    done = run(tmp_path, ["agent.py", "--help"], IDENTITY_SIGNING_SECRET="")
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("secret", [TEMPLATE_IDENTITY_SECRET, GOOD["IDENTITY_SIGNING_SECRET"]])
async def test_a_template_secret_verifies_nobody_even_past_the_check(tmp_path: Path, secret: str):
    """Defence in depth: were the check bypassed, the public template secret still signs in
    no one (the claim is judged as if no secret were set); a real secret does."""
    settings = WorkerSettings(_env_file=None, IDENTITY_SIGNING_SECRET=secret)  # type: ignore[call-arg]
    who = caller()
    claim = mint_identity_claim(customer_id=who.customer_id, room_name=who.room_name, secret=secret)

    participant = SimpleNamespace(
        identity=who.participant_identity,
        kind=rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD,
        attributes={IDENTITY_CLAIM_ATTRIBUTE: claim},
    )
    host = local_services(tmp_path, None, memory_settings=MemorySettings(_env_file=None), line=None)
    identity, error = await authenticate_caller(participant, who.room_name, settings, host)  # type: ignore[arg-type]
    if secret == TEMPLATE_IDENTITY_SECRET:
        assert identity is None and isinstance(error, IdentityNotConfigured)
    else:
        assert identity is not None and identity.customer_id == who.customer_id


def test_the_worker_process_creates_owner_only_files_whatever_the_umask(tmp_path: Path):
    """prepare_worker sets umask 077 where the settings are built, so everything the worker
    and its job and engine processes create afterwards is owner-only."""
    code = (
        "import os, sys; os.umask(0o022); sys.argv = ['agent.py', '--help']; import agent; "
        "print(oct(os.umask(0o022)))"
    )
    done = run(tmp_path, ["-c", code])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "0o77"
