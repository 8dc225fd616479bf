"""Data at rest is the worker's: directories 0700, files 0600 whatever the umask; checked and
tightened at startup; the engine socket never in a shared, guessable place."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from calendar_client import LocalCalendar
from contextdb_livekit.backends import engine_client
from contextdb_livekit.backends.engine_client import (
    connect_local_engine,
    private_runtime_dir,
    socket_path_for,
)
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.private_files import sibling_files, tighten_data_files
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from contextdb_livekit.stores.sqlite.claims import SqliteClaimRegistry
from contextdb_livekit.stores.sqlite.directory import SqliteCustomerDirectory
from contextdb_livekit.stores.sqlite.ledger import SqliteDecisionLedger
from contextdb_livekit.stores.sqlite.outbox import SqliteOutbox

NOBODY = 65534


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """The umask a shell commonly starts the worker with (group and world may read)."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A short directory other users can enter (like a checkout under /home or /srv): what is
    private must be so because of its own modes, not because a parent is closed."""
    base = Path(tempfile.mkdtemp(prefix="pf-", dir="/tmp"))
    os.chmod(base, 0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def assert_private(root: Path) -> list[Path]:
    """Every directory under `root` is 0700 and every file 0600; returns the files."""
    files = []
    for path in [root, *root.rglob("*")]:
        if path.is_dir():
            assert mode(path) == 0o700, f"{path} is {mode(path):04o}"
        else:
            assert mode(path) & 0o077 == 0, f"{path} is {mode(path):04o}"
            files.append(path)
    return files


def other_user_reads(path: Path) -> bool:
    """Whether uid 65534 (another local user) can read `path` (needs root to switch)."""
    done = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "cat", str(path)],
        capture_output=True,
        timeout=30,
    )
    return done.returncode == 0


async def test_every_host_store_is_private_whatever_the_umask(tmp_path: Path, loose_umask):
    data = tmp_path / "data" / "nested"
    await SqliteClaimRegistry(data / "claims.sqlite3").first_use(
        "jti-1", datetime.now(UTC) + timedelta(minutes=5)
    )
    directory = SqliteCustomerDirectory(data / "customers.sqlite3")
    await directory.add("+15550100", "cust-1")
    await SqliteAttestationStore(data / "attestations.sqlite3").for_customer("cust-1")
    await LocalCalendar(data / "calendar.sqlite3").open_days(datetime.now(UTC).date(), 5)
    SqliteDecisionLedger(data / "memory.ledger.sqlite3")
    outbox = SqliteOutbox(data / "outbox.sqlite3")
    await outbox.items()
    # SQLite removes its -wal and -shm files when the last connection closes, which a store's
    # own connections may have done already: one held open here keeps them for the check.
    held = sqlite3.connect(data / "outbox.sqlite3")
    try:
        held.execute("SELECT count(*) FROM sqlite_master").fetchall()
        files = assert_private(tmp_path / "data")
    finally:
        held.close()
    names = {f.name for f in files}
    assert {"claims.sqlite3", "customers.sqlite3", "attestations.sqlite3", "calendar.sqlite3",
            "memory.ledger.sqlite3", "outbox.sqlite3"} <= names  # fmt: skip
    assert any(name.endswith("-wal") for name in names)  # SQLite's own files too


async def test_the_local_engine_its_log_and_socket_are_private(open_dir: Path, loose_umask):
    data = open_dir / "engine"
    engine = await connect_local_engine(data / "memory.sqlite3", idle_exit_s=30)
    try:
        await engine.remember_many("cust-1", [], idempotency_key="k")  # type: ignore[arg-type]
    except Exception:
        pass  # an empty write may be refused; the files exist either way
    finally:
        await engine.close()
    files = assert_private(data)
    names = {f.name for f in files}
    assert {
        "memory.sqlite3",
        "memory.sqlite3.engine.log",
        "memory.ledger.sqlite3",
    } <= names
    if os.geteuid() == 0:
        assert not other_user_reads(data / "memory.sqlite3")
        assert not other_user_reads(data / "memory.sqlite3.engine.log")
    await _stop_engine(data / "memory.sqlite3")


async def _stop_engine(db: Path) -> None:
    from testkit.engine import stop_engine_if_running

    await stop_engine_if_running(db)


@pytest.mark.skipif(os.geteuid() != 0, reason="another uid is needed (CI runs as root)")
def test_startup_tightens_what_is_ours_and_reports_what_is_not(
    open_dir: Path, loose_umask, monkeypatch: pytest.MonkeyPatch
):
    from contextdb_livekit.worker.startup import check_configuration
    from line import LINE

    tmp_path = open_dir
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    old_file = data / "memory.sqlite3"
    old_file.write_bytes(b"")
    os.chmod(old_file, 0o644)
    wal = data / "memory.sqlite3-wal"
    wal.write_bytes(b"")
    os.chmod(wal, 0o666)
    assert other_user_reads(old_file)
    assert tighten_data_files(old_file) == []
    assert mode(data) == 0o700 and mode(old_file) == 0o600 and mode(wal) == 0o600
    assert not other_user_reads(old_file)

    foreign = tmp_path / "shared"
    foreign.mkdir(mode=0o755)
    os.chown(foreign, NOBODY, NOBODY)
    problems = tighten_data_files(foreign / "outbox.sqlite3")
    assert len(problems) == 1 and "readable by other users" in problems[0]

    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    monkeypatch.setenv("MEMORY_OUTBOX_PATH", str(foreign / "outbox.sqlite3"))
    problems = [str(p) for p in check_configuration(LINE).problems]
    assert any(p.startswith(f"MEMORY_OUTBOX_PATH={foreign / 'outbox.sqlite3'}") for p in problems)


def test_sibling_files_are_the_data_files_own(tmp_path: Path):
    for name in ("memory.sqlite3", "memory.sqlite3-wal", "memory.sqlite3.engine.log",
                 "memory.ledger.sqlite3", "calendar.sqlite3", "notes.txt"):  # fmt: skip
        (tmp_path / name).write_text("")
    found = {p.name for p in sibling_files(tmp_path / "memory.sqlite3")}
    assert found == {"memory.sqlite3", "memory.sqlite3-wal", "memory.sqlite3.engine.log",
                     "memory.ledger.sqlite3"}  # fmt: skip


# -- the engine socket ------------------------------------------------------------------------


def long_db_path(tmp_path: Path) -> Path:
    deep = tmp_path / ("d" * 60) / ("e" * 40)
    return deep / "memory.sqlite3"


def test_a_long_data_path_puts_the_socket_in_a_private_runtime_dir(
    open_dir: Path, monkeypatch: pytest.MonkeyPatch
):
    tmp_path = open_dir
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir(mode=0o1777)
    path = socket_path_for(long_db_path(tmp_path))
    assert path.parent == tmp_path / "tmp" / f"contextdb-{os.geteuid()}"
    assert mode(path.parent) == 0o700 and path.parent.stat().st_uid == os.geteuid()
    assert len(str(path)) <= 100
    # Never the old guessable name directly in the shared temp dir.
    assert path.parent != tmp_path / "tmp"


def test_a_runtime_dir_someone_else_made_is_refused(
    open_dir: Path, monkeypatch: pytest.MonkeyPatch
):
    tmp_path = open_dir
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir(mode=0o1777)
    squatted = tmp_path / "tmp" / f"contextdb-{os.geteuid()}"
    squatted.mkdir(mode=0o777)
    os.chmod(squatted, 0o777)  # an attacker's directory: anyone may bind in it
    with pytest.raises(MemoryUnavailable) as refused:
        socket_path_for(long_db_path(tmp_path))
    assert "not a private directory" in str(refused.value)
    shutil.rmtree(squatted)
    squatted.symlink_to(tmp_path)  # a link planted in its place is refused too
    with pytest.raises(MemoryUnavailable):
        private_runtime_dir()


def test_xdg_runtime_dir_is_used_when_it_is_ours(open_dir: Path, monkeypatch: pytest.MonkeyPatch):
    tmp_path = open_dir
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert socket_path_for(long_db_path(tmp_path)).parent == runtime / "contextdb"


def test_a_socket_path_that_cannot_fit_is_refused_with_the_setting_to_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    runtime = tmp_path / ("r" * 90)
    runtime.mkdir(mode=0o700, parents=True)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    with pytest.raises(MemoryUnavailable) as refused:
        socket_path_for(long_db_path(tmp_path))
    assert "CONTEXTDB_LOCAL_PATH" in str(refused.value)
    assert refused.value.code == "engine_socket_path"
    assert engine_client._MAX_SOCKET_PATH == 100


# -- guards a mutation left unpinned (issue 31) -------------------------------------------------


def test_the_worker_process_creates_owner_only_files_whatever_umask_it_started_with(
    tmp_path: Path,
):
    """`prepare_worker` sets umask 077 before anything else: what SQLite, aiosqlite, logs
    and child processes create afterwards (with no chmod of ours) is owner-only."""
    script = (
        "import os, sys\n"
        "os.umask(0o022)\n"
        "from line import LINE\n"
        "from contextdb_livekit.worker.startup import prepare_worker\n"
        "prepare_worker(['agent.py', 'download-files'], LINE)\n"
        "d = sys.argv[1]\n"
        "os.mkdir(os.path.join(d, 'made-dir'))\n"
        "open(os.path.join(d, 'made-file'), 'w').close()\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)]),
           "LIVEKIT_URL": "ws://127.0.0.1:9"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert mode(tmp_path / "made-dir") == 0o700
    assert mode(tmp_path / "made-file") == 0o600


def test_a_loose_existing_file_is_tightened_when_the_worker_opens_it(tmp_path: Path):
    from contextdb_livekit.stores.private_files import private_file

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    loose = data / "outbox.sqlite3"
    loose.write_bytes(b"")
    os.chmod(loose, 0o644)  # left by an older version, or a restore
    private_file(loose)
    assert mode(loose) == 0o600
    assert loose.read_bytes() == b""  # tightened, never truncated


def test_tightening_never_follows_a_link_out_of_the_data_directory(tmp_path: Path):
    """A link planted beside a data file (named like its WAL) must not make the startup
    chmod whatever it points at."""
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir(mode=0o700)
    elsewhere.mkdir()
    target = elsewhere / "shared-config"
    target.write_text("x")
    os.chmod(target, 0o644)
    (data / "memory.sqlite3").write_bytes(b"")
    os.chmod(data / "memory.sqlite3", 0o600)
    (data / "memory.sqlite3-wal").symlink_to(target)
    assert tighten_data_files(data / "memory.sqlite3") == []
    assert mode(target) == 0o644
