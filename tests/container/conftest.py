"""Session fixtures for the container test: the cached base, the project's image, real servers.

A machine without buildah/debootstrap/root skips with the reason; in CI (CI=true) the same
gap fails the suite, because `.ci/run` is meant to have installed them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from testkit.harness import ROOT, LiveKit, start_livekit_server, start_scripted_openai, stop
from tests.container.buildah import (
    BaseImage,
    BaseRecipe,
    build_image,
    ensure_base_image,
    missing_tools,
)

IMAGE_TAG = "localhost/scheduling-agent:container-test"
_TIMINGS: dict[str, str] = {}


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def buildah_ready() -> None:
    missing = missing_tools()
    if missing:
        reason = f"container test needs {', '.join(missing)} (.ci/run installs them)"
        if _in_ci():
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def base_image(buildah_ready: None, tmp_path_factory: pytest.TempPathFactory) -> BaseImage:
    log = tmp_path_factory.mktemp("base") / "build.log"
    started = time.monotonic()
    base = ensure_base_image(BaseRecipe(), log)
    if base.built:
        _TIMINGS["base image"] = (
            f"built {base.ref}: debootstrap {base.debootstrap_s:.1f} s, "
            f"import {base.import_s:.1f} s"
        )
    else:
        _TIMINGS["base image"] = f"reused {base.ref} ({time.monotonic() - started:.1f} s)"
    return base


@pytest.fixture(scope="session")
def agent_image(base_image: BaseImage, tmp_path_factory: pytest.TempPathFactory) -> str:
    log = tmp_path_factory.mktemp("image") / "build.log"
    started = time.monotonic()
    image_id = build_image(ROOT, base_image.ref, IMAGE_TAG, log)
    _TIMINGS["image build"] = f"{time.monotonic() - started:.1f} s ({IMAGE_TAG})"
    return image_id


@pytest.fixture(scope="module")
def livekit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveKit]:
    livekit, proc = start_livekit_server(tmp_path_factory.mktemp("livekit") / "server.log")
    try:
        yield livekit
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def scripted_openai() -> Iterator[str]:
    url, proc = start_scripted_openai()
    try:
        yield url
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def timings() -> dict[str, str]:
    """Named durations and sizes, printed in the terminal summary."""
    return _TIMINGS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # The CI log shows what the container steps cost, so the 90-minute budget stays visible.
    if _TIMINGS:
        terminalreporter.section("container timings")
        for name, value in _TIMINGS.items():
            terminalreporter.write_line(f"{name}: {value}")
