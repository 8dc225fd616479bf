"""Build and run OCI images with buildah, rootful, `--isolation chroot` (no Docker engine here).

Plain functions the container test reads as a scenario:
`ensure_base_image` (a Debian bookworm root filesystem with Python 3.11, cached by recipe),
`build_image` (the project's own Dockerfile on that base), `Container` (run commands and
the worker in a working container, host network, a host directory bind-mounted as a volume)
and `CpuCgroup` (CPU accounting of the container's own, which chroot isolation lacks).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil

# The host's trust store goes into the base: package indexes here sit behind an egress proxy
# whose CA only the host knows (python:3.11-slim users on the open internet never need it).
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
_LOCK_PATH = Path(tempfile.gettempdir()) / "scheduling-agent-base-image.lock"
_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class BuildahError(RuntimeError):
    """A buildah/debootstrap step failed; the message carries the tail of its output."""


def missing_tools() -> list[str]:
    """What this machine lacks to build and run images here (empty when ready)."""
    missing = [tool for tool in ("buildah", "debootstrap") if shutil.which(tool) is None]
    if os.geteuid() != 0:
        missing.append("root (buildah --isolation chroot needs it)")
    return missing


def _run(args: Sequence[str], *, timeout_s: float, log: Path | None = None) -> str:
    """Run a tool to completion; on failure raise with the last lines it printed."""
    result = subprocess.run(
        list(args),
        capture_output=True,
        text=True,
        timeout=timeout_s,
        stdin=subprocess.DEVNULL,
    )
    if log is not None:
        with log.open("a") as out:
            out.write(f"$ {' '.join(args)}\n{result.stdout}{result.stderr}\n")
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-3000:]
        raise BuildahError(f"{' '.join(args[:3])} … exited {result.returncode}:\n{tail}")
    return result.stdout


@dataclass(frozen=True)
class BaseRecipe:
    """A minimal Debian root filesystem with the distribution's Python (3.11 on bookworm)."""

    suite: str = "bookworm"
    # python3-venv: the Dockerfile installs into a venv; it brings ensurepip's wheels.
    packages: tuple[str, ...] = ("python3", "python3-venv")
    repository: str = "localhost/scheduling-agent-base"

    @property
    def image(self) -> str:
        # The tag is the recipe's digest (trust store included), so a changed recipe builds a
        # new base and an unchanged one is reused across runs on the same machine.
        recipe = json.dumps([self.suite, self.packages, _ca_digest(), 1]).encode()
        return f"{self.repository}:{self.suite}-{hashlib.sha256(recipe).hexdigest()[:12]}"


def _ca_digest() -> str:
    if not HOST_CA_BUNDLE.is_file():
        return "none"
    return hashlib.sha256(HOST_CA_BUNDLE.read_bytes()).hexdigest()


def image_exists(ref: str) -> bool:
    result = subprocess.run(
        ["buildah", "inspect", "--type", "image", ref], capture_output=True, timeout=60
    )
    return result.returncode == 0


@dataclass(frozen=True)
class BaseImage:
    ref: str
    built: bool
    debootstrap_s: float = 0.0
    import_s: float = 0.0


def ensure_base_image(recipe: BaseRecipe, log: Path) -> BaseImage:
    """The recipe's base image, built only if this machine does not have it yet."""
    ref = recipe.image
    # Several test runs may share the machine: one builds, the others wait and reuse it.
    with _LOCK_PATH.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if image_exists(ref):
            return BaseImage(ref, built=False)
        with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="agent-base-") as work:
            rootfs = Path(work) / "rootfs"
            started = time.monotonic()
            _debootstrap(recipe, rootfs, log)
            bootstrapped = time.monotonic()
            _import_rootfs(rootfs, ref, log)
            return BaseImage(
                ref,
                built=True,
                debootstrap_s=bootstrapped - started,
                import_s=time.monotonic() - bootstrapped,
            )


def _debootstrap(recipe: BaseRecipe, rootfs: Path, log: Path) -> None:
    # The distribution's default mirror, as the host's apt would use.
    _run(
        [
            "debootstrap",
            "--variant=minbase",
            f"--include={','.join(recipe.packages)}",
            recipe.suite,
            str(rootfs),
        ],
        timeout_s=900,
        log=log,
    )
    # What a slim base image drops: downloaded packages and index files (~95 MB).
    for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
        for entry in (rootfs / junk).glob("*"):
            if entry.is_file():
                entry.unlink()
    for cache in (rootfs / "var/cache/apt").glob("*.bin"):
        cache.unlink()
    if HOST_CA_BUNDLE.is_file():
        shutil.copyfile(HOST_CA_BUNDLE, rootfs / "etc/ssl/certs/ca-certificates.crt")
        # pip in a venv uses its own certifi bundle unless told otherwise.
        (rootfs / "etc/pip.conf").write_text(
            "[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n"
        )


def _import_rootfs(rootfs: Path, ref: str, log: Path) -> None:
    """Commit a directory tree as an image (buildah has no `import`: scratch + mount + copy)."""
    container = _run(["buildah", "from", "scratch"], timeout_s=60, log=log).strip()
    try:
        mountpoint = _run(["buildah", "mount", container], timeout_s=60, log=log).strip()
        # cp -a keeps owners, modes, setuid bits and links, which `buildah copy` would reset.
        _run(["cp", "-a", f"{rootfs}/.", mountpoint], timeout_s=300, log=log)
        _run(["buildah", "umount", container], timeout_s=60, log=log)
        _run(
            ["buildah", "config", "--env", f"PATH={_PATH}", "--cmd", "python3", container],
            timeout_s=60,
            log=log,
        )
        _run(["buildah", "commit", "--quiet", "--rm", container, ref], timeout_s=300, log=log)
    except BaseException:
        subprocess.run(["buildah", "rm", container], capture_output=True, timeout=60)
        raise


def build_image(context: Path, base: str, tag: str, log: Path) -> str:
    """`buildah bud` the Dockerfile in `context` on `base`; returns the image id."""
    with tempfile.TemporaryDirectory() as work:
        iidfile = Path(work) / "iid"
        _run(
            [
                "buildah",
                "bud",
                "--isolation",
                "chroot",
                # Cache each step, so the dependency layer is reused while only code changes.
                "--layers",
                # Docker's format keeps HEALTHCHECK (OCI image config has no field for it).
                "--format",
                "docker",
                "--pull=never",
                "--build-arg",
                f"BASE_IMAGE={base}",
                "--iidfile",
                str(iidfile),
                "--tag",
                tag,
                str(context),
            ],
            timeout_s=1800,
            log=log,
        )
        return iidfile.read_text().strip().removeprefix("sha256:")


@dataclass(frozen=True)
class ImageConfig:
    user: str
    workdir: str
    cmd: list[str]
    env: dict[str, str]
    volumes: list[str]
    healthcheck: list[str]
    size: str  # as buildah reports it, e.g. "692 MB"


def inspect_image(ref: str) -> ImageConfig:
    raw = json.loads(_run(["buildah", "inspect", "--type", "image", ref], timeout_s=60))
    config = raw["Docker"]["config"]
    size = json.loads(_run(["buildah", "images", "--json", "--no-trunc", ref], timeout_s=60))[0][
        "size"
    ]
    return ImageConfig(
        user=config.get("User", ""),
        workdir=config.get("WorkingDir", ""),
        cmd=list(config.get("Cmd") or []),
        env=dict(item.split("=", 1) for item in config.get("Env") or []),
        volumes=sorted(config.get("Volumes") or {}),
        healthcheck=list((config.get("Healthcheck") or {}).get("Test") or []),
        size=str(size),
    )


@dataclass
class Container:
    """A buildah working container; commands run with the image's user, workdir and env."""

    id: str
    volumes: dict[Path, str] = field(default_factory=dict)

    @classmethod
    @contextlib.contextmanager
    def from_image(
        cls, image: str, volumes: Mapping[Path, str] | None = None
    ) -> Iterator[Container]:
        container_id = _run(["buildah", "from", "--pull=never", image], timeout_s=120).strip()
        container = cls(container_id, dict(volumes or {}))
        try:
            for target in container.volumes.values():
                # buildah run mounts an image's declared VOLUME as a fresh per-container
                # directory over any -v for the same path; `docker run -v` replaces it. Drop
                # the declaration from this working container so the bind mount wins.
                _run(["buildah", "config", "--volume", f"{target}-", container_id], timeout_s=60)
            yield container
        finally:
            subprocess.run(["buildah", "rm", container_id], capture_output=True, timeout=120)

    def _run_args(self, command: Sequence[str], env: Mapping[str, str]) -> list[str]:
        args = ["buildah", "run", "--isolation", "chroot", "--network", "host"]
        for source, target in self.volumes.items():
            args += ["--volume", f"{source}:{target}"]
        for key, value in env.items():
            args += ["--env", f"{key}={value}"]
        return [*args, self.id, "--", *command]

    def run(
        self, command: Sequence[str], env: Mapping[str, str] | None = None, timeout_s: float = 120
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self._run_args(command, env or {}),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
        )

    def start(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        log_path: Path,
        cpu: CpuCgroup | None = None,
    ) -> subprocess.Popen[bytes]:
        """Start `command` in the background; with `cpu`, accounted in that cgroup."""
        args = self._run_args(command, env)
        with log_path.open("wb") as log:
            return subprocess.Popen(
                cpu.wrap(args) if cpu else args,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )


@dataclass(frozen=True)
class CpuCgroup:
    """A CPU-accounting cgroup of the container's own, where the container reads its usage.

    A container runtime gives each container its own cgroup; chroot isolation does not, so a
    worker inside measures the whole machine's CPU as its load, and LiveKit marks a worker
    full at 0.7 load in production mode and sends it no calls. `buildah run` ignores volumes
    under /sys, so the cgroup is bind-mounted over the host's in a private mount namespace
    that buildah then starts in (its /sys bind carries the mount into the container).
    """

    host_dir: Path  # the new cgroup
    mount_at: str  # the hierarchy it replaces, in that namespace only

    @classmethod
    @contextlib.contextmanager
    def create(cls, name: str) -> Iterator[CpuCgroup | None]:
        """A fresh cgroup (v1 cpuacct or v2), removed afterwards; None if neither is there."""
        root = Path("/sys/fs/cgroup")
        if (root / "cpuacct" / "cpuacct.usage").is_file():
            cgroup = cls(root / "cpuacct" / name, str(root / "cpuacct"))
        elif (root / "cgroup.controllers").is_file():
            cgroup = cls(root / name, str(root))
        else:
            yield None
            return
        cgroup.host_dir.mkdir()
        try:
            yield cgroup
        finally:
            cgroup._remove()

    def _remove(self) -> None:
        # Like a runtime removing a container: whatever is left in it (a detached engine
        # after a failed test) is killed. Exited processes count until init reaps them.
        for _ in range(100):
            for pid in (self.host_dir / "cgroup.procs").read_text().split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            try:
                self.host_dir.rmdir()
                return
            except OSError:
                time.sleep(0.2)

    def wrap(self, args: Sequence[str]) -> list[str]:
        """`args`, run in a private mount namespace, inside this cgroup and seeing it."""
        script = (
            'cgroup=$0 at=$1; shift; mount --bind "$cgroup" "$at"'
            ' && echo $$ > "$at/cgroup.procs" && exec "$@"'
        )
        return [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            str(self.host_dir),
            self.mount_at,
            *args,
        ]


def stop_gracefully(
    runner: subprocess.Popen[bytes], command: Sequence[str], timeout_s: float
) -> int:
    """SIGTERM the command inside the container, as `docker stop` signals PID 1.

    Signalling `buildah run` itself makes it SIGKILL the command at once, so the worker would
    never drain. With chroot isolation the container shares the host's process table, so the
    command is a descendant of the runner here. Past the timeout everything under the runner
    is killed (nothing outlives the test) and TimeoutError is raised. Returns the exit code.
    """
    if runner.poll() is not None:
        return runner.returncode
    tree = psutil.Process(runner.pid).children(recursive=True)
    for process in tree:
        if _is_command(process, command):
            process.send_signal(signal.SIGTERM)
            break
    try:
        return runner.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        for process in [*tree, psutil.Process(runner.pid)]:
            with contextlib.suppress(psutil.Error):
                process.kill()
        runner.wait()
        raise TimeoutError(f"{' '.join(command)} did not stop within {timeout_s} s") from None


def _is_command(process: psutil.Process, command: Sequence[str]) -> bool:
    # The runner's helper (buildah-chroot-exec) carries the same arguments; the command itself
    # is the process whose executable has the command's name (PATH resolved: /opt/venv/bin/…).
    try:
        argv = process.cmdline()
    except psutil.Error:
        return False
    return bool(argv) and Path(argv[0]).name == command[0] and argv[1:] == list(command[1:])
