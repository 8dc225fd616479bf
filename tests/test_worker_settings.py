"""Worker settings: the template identity secret is refused, environment beats .env files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from contextdb_livekit.worker.settings import GENERATE_SECRET, WorkerSettings

ROOT = Path(__file__).resolve().parents[1]
GOOD_SECRET = "kq3V9x_yR2mT8wLp4nZc6bHs1dFj7gAe0uWo5iXvQ"
REQUIRED = {
    "LIVEKIT_URL": "ws://127.0.0.1:7880",
    "LIVEKIT_API_KEY": "devkey",
    "LIVEKIT_API_SECRET": "secret",
    "OPENAI_API_KEY": "sk-test",
}


def settings(secret: str | None) -> WorkerSettings:
    values = dict(REQUIRED)
    if secret is not None:
        values["IDENTITY_SIGNING_SECRET"] = secret
    return WorkerSettings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(autouse=True)
def no_ambient_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [*REQUIRED, "IDENTITY_SIGNING_SECRET"]:
        monkeypatch.delenv(name, raising=False)


def env_example_secret() -> str:
    example = (ROOT / ".env.example").read_text()
    match = re.search(r"^IDENTITY_SIGNING_SECRET=(.*)$", example, re.MULTILINE)
    assert match, ".env.example must carry the identity secret line"
    return match.group(1).strip()


def test_the_env_example_secret_is_refused_with_how_to_generate_one():
    configured = settings(env_example_secret())
    assert configured.missing_required() == ["IDENTITY_SIGNING_SECRET"]
    [problem] = configured.problems()
    assert "template or a placeholder" in problem
    assert GENERATE_SECRET in problem


@pytest.mark.parametrize(
    "secret",
    [
        "changeme-changeme-changeme-changeme-1234",
        "please-replace-me-with-something-long-enough",
        "your-secret-goes-here-0123456789abcdefghij",
        "x" * 48,
        "0" * 40,
    ],
)
def test_known_placeholders_are_refused(secret: str):
    assert settings(secret).missing_required() == ["IDENTITY_SIGNING_SECRET"]


def test_a_short_secret_is_refused_and_a_generated_one_accepted():
    [problem] = settings("a-short-but-random-7Hq").problems()
    assert "shorter than 32 bytes" in problem
    assert settings(GOOD_SECRET).problems() == []
    assert settings(GOOD_SECRET).missing_required() == []


def test_an_unset_secret_is_named_once():
    configured = settings(None)
    assert configured.missing_required() == ["IDENTITY_SIGNING_SECRET"]
    assert configured.problems() == ["IDENTITY_SIGNING_SECRET is not set"]


def test_environment_variables_win_over_env_files(tmp_path: Path):
    (tmp_path / ".env").write_text("LIVEKIT_URL=ws://from-dotenv\nAGENT_NAME=from-dotenv\n")
    (tmp_path / ".env.local").write_text(
        "LIVEKIT_URL=ws://from-dotenv-local\nOPENAI_LLM_MODEL=from-dotenv-local\n"
    )
    probe = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import agent, os; "
        "from contextdb_livekit.worker.settings import WorkerSettings as W; s = W(); "
        "print(os.environ['LIVEKIT_URL'], s.livekit_url, s.agent_name, s.llm_model)"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LIVEKIT_URL": "ws://from-env"}
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    # The environment wins; .env.local wins over .env for what the environment leaves unset.
    assert run.stdout.split() == [
        "ws://from-env",
        "ws://from-env",
        "from-dotenv",
        "from-dotenv-local",
    ]


def test_a_realtime_session_has_a_tts_for_the_hosts_read_back(tmp_path: Path):
    """The realtime API has no say(): the host's read-back needs the session's TTS."""
    probe = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import agent; "
        "from types import SimpleNamespace; "
        "from contextdb_livekit.hosting import WorkerSettings as W, build_session; "
        "s = build_session(W(), SimpleNamespace(userdata={'vad': None}), None); "
        "print(type(s.llm).__name__, type(s.tts).__name__)"
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "USE_REALTIME_MODEL": "true",
        "OPENAI_API_KEY": "sk-test",
        "LIVEKIT_URL": "ws://127.0.0.1:7880",
        "LIVEKIT_API_KEY": "devkey",
        "LIVEKIT_API_SECRET": "a-livekit-secret-of-thirty-two-bytes-x",
        "IDENTITY_SIGNING_SECRET": GOOD_SECRET,
    }
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["RealtimeModel", "TTS"]
