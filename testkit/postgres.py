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


@contextlib.contextmanager
def running_postgres(*, log=sys.stderr) -> Iterator[PostgresServer]:  # type: ignore[no-untyped-def]
    """Yield a reachable server: the configured one, or a fresh cluster stopped afterwards."""
    configured = os.environ.get(_ENV_URL)
    if configured:
        yield PostgresServer(configured)
        return
    bindir = find_postgres_bin()
    if bindir is None:
        raise RuntimeError(
            "Postgres not found: install the Debian package `postgresql` (the multi-host tests"
            f" start their own server), or set {_ENV_URL} to a server of yours"
        )
    root = Path(tempfile.mkdtemp(prefix="contextdb-pg-"))
    data = root / "data"
    port = _free_port()
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
    argv, ids = _as_server_user(
        [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
    )
    subprocess.run(argv, check=True, capture_output=True, **ids)  # type: ignore[arg-type]
    argv, ids = _as_server_user(
        [
            str(bindir / "postgres"),
            "-D",
            str(data),
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-k",
            str(root),
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=300",
        ]
    )
    server_log = open(root / "server.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(argv, stdout=server_log, stderr=subprocess.STDOUT, **ids)  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 30
        while True:
            ready = subprocess.run(
                [str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            )
            if ready.returncode == 0:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "Postgres did not start: " + (root / "server.log").read_text()[-2000:]
                )
            time.sleep(0.1)
        print(f"postgres {bindir.parent.name} on 127.0.0.1:{port} ({data})", file=log)
        yield PostgresServer(f"postgresql://postgres@127.0.0.1:{port}/postgres", data)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        server_log.close()
        shutil.rmtree(root, ignore_errors=True)


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
