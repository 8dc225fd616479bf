"""Find livekit-server for the e2e suite, or build it once into a cache.

The README's test command must pass on a fresh clone with only Python 3.11 and Go on PATH, so
the test run provides the server itself: LIVEKIT_SERVER_BIN, then `livekit-server` on PATH, then
the cache, else `go install` of the pinned version into the cache (about three minutes, once,
under a file lock so parallel runs build it once).

    python -m testkit.livekit_server     # prints the binary's path, building it if needed
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VERSION = "v1.13.5"
MODULE = "github.com/livekit/livekit-server/cmd/server"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "contextdb-livekit"


def cached_binary() -> Path:
    return cache_dir() / f"livekit-server-{VERSION}"


def find_livekit_server() -> Path | None:
    """An existing binary, without building anything."""
    candidates = [
        os.environ.get("LIVEKIT_SERVER_BIN"),
        shutil.which("livekit-server"),
        str(cached_binary()),
        # Where earlier versions of .ci/run left it.
        str(Path.home() / "go" / "bin" / f"livekit-server-{VERSION}"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def build_livekit_server(*, log=sys.stderr) -> Path:  # type: ignore[no-untyped-def]
    """`go install` the pinned server into the cache; one build across concurrent callers."""
    target = cached_binary()
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second run waits for the first build
        if target.is_file():
            return target
        go = shutil.which("go")
        if go is None:
            raise RuntimeError(
                "livekit-server not found and Go is not on PATH: install Go (1.23+) so the test "
                f"run can build it, or set LIVEKIT_SERVER_BIN to a livekit-server {VERSION} binary"
            )
        print(
            f"livekit-server not found: building {VERSION} once into {target} "
            "(go install; a few minutes)...",
            file=log,
            flush=True,
        )
        with tempfile.TemporaryDirectory(dir=target.parent) as gobin:
            done = subprocess.run(
                [go, "install", f"{MODULE}@{VERSION}"],
                env={**os.environ, "GOBIN": gobin},
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise RuntimeError(f"go install {MODULE}@{VERSION} failed:\n{done.stderr[-4000:]}")
            # Renamed into place only when complete: a killed build never leaves a half binary.
            os.replace(Path(gobin) / "server", target)
        print(f"built {target}", file=log, flush=True)
        return target


def livekit_server_binary() -> Path:
    return find_livekit_server() or build_livekit_server()


if __name__ == "__main__":
    print(livekit_server_binary())
