"""The secrets screen (`contextdb_livekit.memory.secrets`, tested in src/tests/memory/
test_secrets.py) against what belongs to this line: its reply corpus, its held-out set of
secrets (bench/), and agent.py, which installs the log redaction when imported."""

from __future__ import annotations

from pathlib import Path

from contextdb_livekit.memory.secrets import ACCESS_CODE_TOKEN, CARD_TOKEN, redact_secrets


def test_the_reply_corpus_holds_no_secrets() -> None:
    # 436 ordinary caller replies (days, dates, fillers, addresses): none may be touched.
    from bench.reply_classifier import load_corpus

    touched = [r.text for r in load_corpus() if redact_secrets(r.text).kinds]
    assert touched == []


def test_the_worker_redacts_its_logs_from_import_on(tmp_path: Path) -> None:
    """agent.py installs the redaction when it is imported (the job process imports it too):
    a DEBUG record sent to a handler added afterwards, as livekit's cli adds its own, is
    redacted."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    script = (
        "import logging, sys\n"
        "import agent\n"
        "handler = logging.StreamHandler(sys.stdout)\n"
        "logging.getLogger().addHandler(handler)\n"
        "logging.getLogger().setLevel(logging.DEBUG)\n"
        "logging.getLogger('t').debug(\n"
        "    'card %s, gate code is %s', '4111 1111 1111 1111', '5 8 2 7'\n"
        ")\n"
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "PYTHONPATH": str(root),
        "LIVEKIT_URL": "ws://127.0.0.1:9",
        "LIVEKIT_API_KEY": "devkey",
        "LIVEKIT_API_SECRET": "devsecret-devsecret-devsecret-00",
        "OPENAI_API_KEY": "sk-test",
        "IDENTITY_SIGNING_SECRET": "startup-test-signing-secret-0123456789abcdef",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"card {CARD_TOKEN}, gate code is {ACCESS_CODE_TOKEN}" in done.stdout, done.stdout
    assert "4111" not in done.stdout and "5 8 2 7" not in done.stdout


def test_the_heldout_set_is_well_formed() -> None:
    """Its shape only: the set is scored once by `bench.secrets_heldout`, never tuned on."""
    from bench.secrets_heldout import load

    rows = load()
    secrets = [r for r in rows if r.label != "clean"]
    assert len(rows) >= 120 and len(secrets) >= 60 and len(rows) - len(secrets) >= 40
    assert {r.label for r in secrets} >= {
        "iban",
        "sort_code",
        "account_number",
        "routing_number",
        "access_code",
        "date_of_birth",
    }
