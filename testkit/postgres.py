"""A throwaway Postgres on loopback for the multi-host tests and benches.

`DATABASE_URL_FOR_TESTS` wins when set (a server you run yourself). Otherwise the Debian
`postgresql` package's binaries are found under /usr/lib/postgresql/<major>/bin and a fresh
cluster is created in a temporary directory, listening only on 127.0.0.1 with a random port,
trust authentication and fsync off (test data only). As root, the server runs as the
`postgres` system user, because Postgres refuses to run as root.

    python -m testkit.postgres     # starts one, prints its URL, stops it on Ctrl-C
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_ENV_URL = "DATABASE_URL_FOR_TESTS"


def find_postgres_bin() -> Path | None:
    """The newest installed server's bin directory, or None."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("postgres")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class PostgresServer:
    url: str
    data_dir: Path | None = None


def _as_server_user(argv: list[str]) -> tuple[list[str], dict[str, object]]:
    if os.geteuid() != 0:
        return argv, {}
    user = pwd.getpwnam("postgres")
    return argv, {"user": user.pw_uid, "group": user.pw_gid}


class PostgresCluster:
    """A fresh cluster in a temporary directory that a test can stop and start again on the
    same port and data (the outage tests: `stop()`, `start()`, `terminate_backends()`)."""

    def __init__(self, *, log=sys.stderr) -> None:  # type: ignore[no-untyped-def]
        bindir = find_postgres_bin()
        if bindir is None:
            raise RuntimeError(
                "Postgres not found: install the Debian package `postgresql` (the multi-host"
                f" tests start their own server), or set {_ENV_URL} to a server of yours"
            )
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="contextdb-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None
        self._server_log: Any = None
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        argv, ids = _as_server_user(
            [str(bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
             "-E", "UTF8"]
        )  # fmt: skip
        subprocess.run(argv, check=True, capture_output=True, **ids)  # type: ignore[arg-type]

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, *, timeout_s: float = 30.0) -> None:
        argv, ids = _as_server_user(
            [
                str(self.bindir / "postgres"),
                "-D", str(self.data),
                "-h", "127.0.0.1",
                "-p", str(self.port),
                "-k", str(self.root),
                "-c", "fsync=off",
                "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
                "-c", "max_connections=300",
            ]
        )  # fmt: skip
        self._server_log = open(self.root / "server.log", "ab")  # noqa: SIM115 - closed in stop
        self._process = subprocess.Popen(
            argv,
            stdout=self._server_log,
            stderr=subprocess.STDOUT,
            **ids,  # type: ignore[arg-type]
        )
        deadline = time.monotonic() + timeout_s
        while True:
            ready = subprocess.run(
                [str(self.bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                capture_output=True,
            )
            if ready.returncode == 0:
                break
            if self._process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "Postgres did not start: " + (self.root / "server.log").read_text()[-2000:]
                )
            time.sleep(0.1)
        print(f"postgres {self.bindir.parent.name} on 127.0.0.1:{self.port} ({self.data})",
              file=self._log)  # fmt: skip

    def stop(self, *, immediate: bool = False) -> None:
        """Fast shutdown (SIGINT: open sessions are ended, then the server exits), or
        immediate (SIGQUIT: no clean shutdown at all, as a crash)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.send_signal(signal.SIGQUIT if immediate else signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._server_log is not None:
            self._server_log.close()
            self._server_log = None

    async def terminate_backends(self, database: str | None = None) -> int:
        """`pg_terminate_backend` on every client connection (of one database); returns how
        many were ended."""
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            return int(
                await conn.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
                    " AND ($1::text IS NULL OR datname = $1)",
                    database,
                )
            )
        finally:
            await conn.close()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_postgres(*, log=sys.stderr) -> Iterator[PostgresServer]:  # type: ignore[no-untyped-def]
    """Yield a reachable server: the configured one, or a fresh cluster stopped afterwards."""
    configured = os.environ.get(_ENV_URL)
    if configured:
        yield PostgresServer(configured)
        return
    cluster = PostgresCluster(log=log)
    try:
        cluster.start()
        yield PostgresServer(cluster.url, cluster.data)
    finally:
        cluster.remove()


async def create_database(server_url: str, name: str) -> str:
    """A new empty database on the server; returns its URL."""
    import asyncpg

    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def main() -> int:
    # SIGTERM (CI's cleanup) stops the cluster too, through the context manager's finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with running_postgres() as server:
        print(server.url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main())
