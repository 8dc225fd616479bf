"""The startup check: every settings object built, every data path probed, one line per
problem, exit 2 before the worker registers — as a subprocess and in-process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from contextdb_livekit.worker.startup import check_configuration, run_startup_check
from line import LINE

ROOT = Path(__file__).resolve().parents[1]
GOOD = {
    "LIVEKIT_URL": "ws://127.0.0.1:9",
    "LIVEKIT_API_KEY": "devkey",
    "LIVEKIT_API_SECRET": "devsecret-devsecret-devsecret-00",
    "OPENAI_API_KEY": "sk-test",
    "IDENTITY_SIGNING_SECRET": "startup-test-signing-secret-0123456789abcdef",
}
# Settings the check reads; cleared so the machine's own environment cannot leak in.
SETTINGS = [
    *GOOD,
    "CALENDAR_BASE_URL", "CALENDAR_TIMEOUT_S", "CALLER_TIMEZONE", "CALENDAR_LOCAL_PATH",
    "WORKER_NUM_IDLE_PROCESSES", "WORKER_HTTP_PORT", "PARTICIPANT_WAIT_S", "CONTEXTDB_API_KEY",
    "WORKER_MAX_CALLS",
    "RING_TIMEOUT_S",
    "CONTEXTDB_LOCAL_PATH", "MEMORY_OUTBOX_PATH", "ATTESTATION_PATH", "CUSTOMER_DIRECTORY_PATH",
    "MEMORY_ENABLED", "MEMORY_GATE_BUDGET_MS", "WORKER_PROMETHEUS_PORT", "WORKER_PROMETHEUS_DIR",
    "DATABASE_URL", "MEMORY_SPILL_PATH",
]  # fmt: skip


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    for name, value in GOOD.items():
        monkeypatch.setenv(name, value)
    return dict(GOOD)


def test_a_good_configuration_has_no_problems(env: dict[str, str], tmp_path: Path) -> None:
    config = check_configuration(LINE)
    assert config.problems == []
    assert (tmp_path / ".contextdb").is_dir() and (tmp_path / ".data").is_dir()
    assert list(tmp_path.rglob(".write-probe-*")) == []  # probes clean up


BAD_VALUES = {
    "CALENDAR_TIMEOUT_S": ["abc", "0", "-1", "999"],
    "CALLER_TIMEZONE": ["Mars/Olympus_Mons", "not a zone"],
    "CALENDAR_BASE_URL": ["ftp://booking.example", "booking.example"],
    "IDENTITY_SIGNING_SECRET": ["too-short"],
    "WORKER_NUM_IDLE_PROCESSES": ["-1", "many"],
    "WORKER_HTTP_PORT": ["99999", "http"],
    "WORKER_MAX_CALLS": ["0", "-3", "lots"],
    "PARTICIPANT_WAIT_S": ["0", "soon"],
    "RING_TIMEOUT_S": ["0", "301", "never"],
    "MEMORY_GATE_BUDGET_MS": ["0"],
    "CONTEXTDB_API_KEY": ["sk-not-a-contextdb-key"],
}


@pytest.mark.parametrize(
    ("name", "value"), [(n, v) for n, values in BAD_VALUES.items() for v in values]
)
def test_each_bad_setting_is_one_problem_naming_it(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    problems = check_configuration(LINE).problems
    assert [p.setting for p in problems] == [name], problems
    if "KEY" in name or "SECRET" in name:
        assert value not in str(problems[0])  # secrets are never echoed


DATA_PATHS = [
    "CONTEXTDB_LOCAL_PATH",
    "MEMORY_OUTBOX_PATH",
    "ATTESTATION_PATH",
    "CUSTOMER_DIRECTORY_PATH",
    "CALENDAR_LOCAL_PATH",
]


@pytest.mark.parametrize("name", DATA_PATHS)
def test_each_unwritable_data_path_names_its_setting_and_file(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    target = blocker / "data.sqlite3"
    monkeypatch.setenv(name, str(target))
    [problem] = check_configuration(LINE).problems
    assert problem.setting == f"{name}={target}"
    assert "cannot create directory" in problem.message


def test_paths_not_in_use_are_not_probed(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    nowhere = str(tmp_path / "a-file" / "x.sqlite3")
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("CALENDAR_BASE_URL", "https://booking.example")
    monkeypatch.setenv("CALENDAR_LOCAL_PATH", nowhere)
    monkeypatch.setenv("CONTEXTDB_API_KEY", "cdb_test_key")
    monkeypatch.setenv("CONTEXTDB_LOCAL_PATH", nowhere)
    assert check_configuration(LINE).problems == []


def test_every_problem_is_reported_at_once(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("WORKER_HTTP_PORT", "http")  # WorkerSettings fails to build...
    monkeypatch.setenv("IDENTITY_SIGNING_SECRET", "short")  # ...its other rules still run
    monkeypatch.setenv("CALLER_TIMEZONE", "Nowhere/City")
    settings = [p.setting for p in check_configuration(LINE).problems]
    assert settings == [
        "WORKER_HTTP_PORT",
        "CALLER_TIMEZONE",
        "OPENAI_API_KEY",
        "IDENTITY_SIGNING_SECRET",
    ]


def test_run_startup_check_exits_2_with_one_line_per_problem(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CALENDAR_TIMEOUT_S", "abc")
    monkeypatch.setenv("CALLER_TIMEZONE", "Nowhere/City")
    with pytest.raises(SystemExit) as exited:
        run_startup_check(["agent.py", "start"], LINE)
    assert exited.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["configuration error"] * 2
    assert "CALENDAR_TIMEOUT_S" in lines[0] and "CALLER_TIMEZONE" in lines[1]
    assert len(lines) == 3  # the two problems and one summary


def agent_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **GOOD, **overrides}


def run_agent(tmp_path: Path, env: dict[str, str], *prefix: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, str(ROOT / "agent.py"), "dev"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_agent_dev_with_bad_settings_exits_before_registering(tmp_path: Path) -> None:
    env = agent_env(
        tmp_path,
        CALENDAR_TIMEOUT_S="abc",
        CALLER_TIMEZONE="Mars/Base",
        CALENDAR_BASE_URL="ftp://booking.example",
        IDENTITY_SIGNING_SECRET="short",
        WORKER_NUM_IDLE_PROCESSES="-2",
    )
    done = run_agent(tmp_path, env)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "registered worker" not in done.stderr + done.stdout
    problems = [line for line in done.stderr.splitlines() if line.startswith("configuration")]
    named = {line.split(": ")[1] for line in problems}
    assert named == {
        "CALENDAR_TIMEOUT_S",
        "CALLER_TIMEZONE",
        "CALENDAR_BASE_URL",
        "IDENTITY_SIGNING_SECRET",
        "WORKER_NUM_IDLE_PROCESSES",
    }


NO_MOUNTS = "mount namespaces need root (CI runs as root, where this never skips)"


def private_mounts() -> bool:
    """Root is enough: as root a missing or failing `unshare -m` fails the test, not skips."""
    return os.geteuid() == 0


@pytest.mark.skipif(not private_mounts(), reason=NO_MOUNTS)
def test_agent_dev_on_a_read_only_data_dir_names_each_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    env = agent_env(
        tmp_path,
        MEMORY_OUTBOX_PATH=str(data / "outbox.sqlite3"),
        ATTESTATION_PATH=str(data / "attestations.sqlite3"),
    )
    mount = f'mount -t tmpfs -o size=1m tmpfs {data} && mount -o remount,ro {data} && exec "$@"'
    done = run_agent(tmp_path, env, "unshare", "-m", "--propagation", "private", "sh", "-c",
                     mount, "sh")  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("configuration")]
    assert lines == [
        f"configuration error: MEMORY_OUTBOX_PATH={data / 'outbox.sqlite3'}: "
        f"cannot write in {data}: Read-only file system",
        f"configuration error: ATTESTATION_PATH={data / 'attestations.sqlite3'}: "
        f"cannot write in {data}: Read-only file system",
    ]


def test_a_metrics_dir_that_holds_data_is_refused(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LiveKit empties WORKER_PROMETHEUS_DIR at start: pointed at the data directory it would
    delete the memory, the ledger and the used claims."""
    monkeypatch.setenv("WORKER_PROMETHEUS_PORT", "9464")
    monkeypatch.setenv("WORKER_PROMETHEUS_DIR", ".contextdb")
    problems = [str(p) for p in check_configuration(LINE, probe_paths=False).problems]
    assert problems and all(p.startswith("WORKER_PROMETHEUS_DIR=.contextdb") for p in problems)
    assert any("CONTEXTDB_LOCAL_PATH" in p for p in problems)
    monkeypatch.setenv("WORKER_PROMETHEUS_DIR", str(tmp_path / "metrics"))
    assert check_configuration(LINE, probe_paths=False).problems == []


def test_an_unwritable_spill_path_is_refused_with_a_shared_database(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@127.0.0.1:9/db")
    monkeypatch.setenv("MEMORY_SPILL_PATH", str(blocker / "spill.sqlite3"))
    problems = [str(p) for p in check_configuration(LINE).problems]
    assert any(p.startswith(f"MEMORY_SPILL_PATH={blocker / 'spill.sqlite3'}") for p in problems)


SHARED_BACKENDS = {
    "postgres": {"DATABASE_URL": "postgresql://u:p@127.0.0.1:9/db"},
    "cloud+postgres": {
        "DATABASE_URL": "postgresql://u:p@127.0.0.1:9/db",
        "CONTEXTDB_API_KEY": "cdb_startup_test_key_0123456789",
    },
}


@pytest.mark.parametrize("backend", sorted(SHARED_BACKENDS))
def test_the_default_spill_lives_in_the_data_directory_and_is_probed_there(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """Issue 31: the spill defaulted to `.contextdb/spill.sqlite3` in whatever directory the
    worker started in, so the data directory (the image's /data volume) was not where the
    first outage's rows went. Unset, it is `spill.sqlite3` beside the outbox, and an
    unwritable data directory is refused at startup, naming the spill, on every backend that
    uses one."""
    for name, value in SHARED_BACKENDS[backend].items():
        monkeypatch.setenv(name, value)
    data = tmp_path / "volume" / "contextdb"
    monkeypatch.setenv("MEMORY_OUTBOX_PATH", str(data / "outbox.sqlite3"))
    config = check_configuration(LINE)
    assert config.problems == []
    assert config.memory is not None and config.memory.spill_path == data / "spill.sqlite3"
    assert not (tmp_path / ".contextdb").exists()  # nothing in the working directory
    # The same data directory, unwritable (a file where the directory should be).
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("MEMORY_OUTBOX_PATH", str(blocked / "contextdb" / "outbox.sqlite3"))
    problems = [str(p) for p in check_configuration(LINE).problems]
    spill = blocked / "contextdb" / "spill.sqlite3"
    assert any(p.startswith(f"MEMORY_SPILL_PATH={spill}") for p in problems), problems
