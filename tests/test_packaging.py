"""What can be checked of the packaging without a Docker engine."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from billing_client import BillingSettings
from calendar_client import CalendarSettings
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.settings import WorkerSettings
from memory.retention import RetentionSettings

ROOT = Path(__file__).resolve().parents[1]
NAMED = [
    "livekit-agents",
    "livekit-plugins-openai",
    "livekit-plugins-silero",
    "contextdb-cloud-client",
    "pycontextdb",
    "httpx",
    "pydantic-settings",
    "python-dotenv",
    "pytest",
    "pytest-asyncio",
    "respx",
]


def pins() -> dict[str, str]:
    found = {}
    for file in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / file).read_text().splitlines():
            line = line.split("#")[0].strip()
            if not line or line.startswith(("-r ", "-e ")):
                continue
            name, _, pinned = line.partition("==")
            assert pinned, f"{line!r} is not pinned"
            found[name.split("[")[0].lower()] = pinned  # "voicebench[livekit]" is voicebench
    return found


def test_every_named_dependency_is_pinned_and_installed_at_its_pin():
    pinned = pins()
    for name in NAMED:
        assert name in pinned, f"{name} missing from requirements.txt"
    for name, pin in pinned.items():
        assert version(name) == pin, f"{name} installed {version(name)} but pinned {pin}"


def test_pyproject_dependencies_are_the_runtime_pins():
    """The library and the starter's container install the same versions."""
    project = tomllib.loads((ROOT / "src" / "pyproject.toml").read_text())["project"]
    runtime = [
        line.split("#")[0].strip()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.split("#")[0].strip() and not line.startswith("-e ")
    ]
    assert sorted(project["dependencies"]) == sorted(runtime)
    embedder = [
        line.split("#")[0].strip()
        for line in (ROOT / "requirements-embedder.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert sorted(project["optional-dependencies"]["embedder"]) == sorted(embedder)


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    return [
        (word.upper(), rest.strip())
        for word, _, rest in (line.strip().partition(" ") for line in joined.splitlines())
        if word
    ]


def test_dockerfile_installs_requirements_and_starts_the_worker():
    # The real build-and-run check is tests/container (buildah); this is the static shape.
    steps = dockerfile_instructions()
    assert steps[0] == ("ARG", "BASE_IMAGE=python:3.11-slim")
    assert steps[1] == ("FROM", "${BASE_IMAGE}")
    runs = [args for name, args in steps if name == "RUN"]
    install = next(
        i for i, step in enumerate(steps) if "pip install -r requirements.txt" in step[1]
    )
    # Requirements and the library are installed before the starter's code is copied.
    assert steps.index(("COPY", "requirements.txt .")) < install < steps.index(("COPY", ". ."))
    assert steps.index(("COPY", "src ./src")) < install
    assert not any("requirements-dev" in args for _, args in steps)
    assert any("useradd" in args and "--uid 10001" in args and "agent" in args for args in runs)
    user = steps.index(("USER", "agent"))
    assert user > steps.index(("COPY", ". ."))
    # Model files are fetched as the runtime user, into its home, where it reads them.
    assert steps.index(("RUN", "python agent.py download-files")) > user
    assert any(name == "HEALTHCHECK" and "8081" in args for name, args in steps)
    assert steps[-1] == ("CMD", '["python", "agent.py", "start"]')


def dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for name, args in dockerfile_instructions():
        if name == "ENV":
            env.update(pair.split("=", 1) for pair in args.split())
    return env


@pytest.mark.parametrize(
    "settings",
    [WorkerSettings, MemorySettings, CalendarSettings, BillingSettings, RetentionSettings],
)
def test_dockerfile_puts_every_state_file_on_the_data_volume(settings):
    # A relative default lands under /app, which the runtime user cannot write (and which a
    # replaced container loses): the image must point each such setting into /data.
    steps = dockerfile_instructions()
    assert ("VOLUME", '["/data"]') in steps
    assert any(
        name == "RUN" and "install -d -o agent -g agent" in a and "/data" in a for name, a in steps
    )
    env = dockerfile_env()
    for field in settings.model_fields.values():
        if isinstance(field.default, Path) and not field.default.is_absolute():
            assert env.get(field.alias, "").startswith("/data/"), f"{field.alias} not under /data"


def test_worker_entry_help_and_clear_missing_settings(tmp_path):
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    help_run = subprocess.run(
        [sys.executable, str(ROOT / "agent.py"), "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert help_run.returncode == 0
    assert "start" in help_run.stdout and "dev" in help_run.stdout
    start_run = subprocess.run(
        [sys.executable, str(ROOT / "agent.py"), "start"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert start_run.returncode == 2
    for name in ["LIVEKIT_URL", "LIVEKIT_API_KEY", "OPENAI_API_KEY", "IDENTITY_SIGNING_SECRET"]:
        assert name in start_run.stderr
    assert "Traceback" not in start_run.stderr


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    match = re.search(r"<!-- test-command -->\s*```(?:bash|sh)?\n(.+?)\n```", readme, re.DOTALL)
    assert match, "README.md must mark its test command"
    command = match.group(1).strip()
    assert ci.rstrip().endswith(command)


@pytest.mark.parametrize(
    "settings",
    [WorkerSettings, MemorySettings, CalendarSettings, BillingSettings, RetentionSettings],
)
def test_env_example_documents_every_setting(settings):
    example = (ROOT / ".env.example").read_text()
    for field in settings.model_fields.values():
        assert re.search(rf"^#?\s*{field.alias}=", example, re.MULTILINE), field.alias


def test_runtime_requirements_carry_no_dev_tools():
    runtime = (ROOT / "requirements.txt").read_text().lower()
    for tool in ("pytest", "respx", "hypothesis", "ruff", "mypy"):
        assert tool not in runtime, f"{tool} belongs in requirements-dev.txt"
