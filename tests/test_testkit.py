"""testkit: the livekit-server the e2e suite uses is found, or built once with a clear message."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from testkit import harness, livekit_server
from testkit.speech import LineMatcher, render_pcm


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("LIVEKIT_SERVER_BIN", raising=False)
    return tmp_path


def test_the_environment_variable_wins(empty_cache: Path, monkeypatch: pytest.MonkeyPatch):
    chosen = executable(empty_cache / "mine" / "livekit-server")
    executable(livekit_server.cached_binary())
    monkeypatch.setenv("LIVEKIT_SERVER_BIN", str(chosen))
    assert livekit_server.find_livekit_server() == chosen


def test_the_cache_is_found_and_never_rebuilt(empty_cache: Path):
    assert livekit_server.find_livekit_server() is None
    cached = executable(livekit_server.cached_binary())
    assert livekit_server.find_livekit_server() == cached
    # Go is not on PATH here: a build attempt would fail, so this proves none is made.
    assert livekit_server.build_livekit_server(log=io.StringIO()) == cached


def test_without_go_the_error_says_what_to_install(empty_cache: Path):
    with pytest.raises(RuntimeError, match=r"Go is not on PATH.*LIVEKIT_SERVER_BIN"):
        livekit_server.livekit_server_binary()


def test_a_failed_build_leaves_no_binary(empty_cache: Path):
    go = executable(empty_cache / "bin" / "go")
    go.write_text("#!/bin/sh\necho 'no network' >&2\nexit 1\n")
    log = io.StringIO()
    with pytest.raises(RuntimeError, match="no network"):
        livekit_server.build_livekit_server(log=log)
    assert "building v1.13.5 once" in log.getvalue()
    assert not livekit_server.cached_binary().exists()
    assert os.listdir(livekit_server.cache_dir()) == [".build.lock"]


def test_the_scripted_transcriber_hears_lines_only_in_speech():
    matcher = LineMatcher()
    for line in matcher.lengths:
        assert matcher.hear(render_pcm(line, 16000), 16000).text == line
    assert matcher.hear(bytes(16000 * 2 * 2), 16000).text == ""  # 2 s of silence
    click = b"\xff\x7f" * 800 + bytes(32000)  # 50 ms of noise: not speech-length
    heard = matcher.hear(click, 16000)
    assert heard.text == "" and heard.voiced_s < 0.3


def test_a_build_lands_in_the_cache_once(empty_cache: Path):
    go = executable(empty_cache / "bin" / "go")
    count = empty_cache / "builds"
    go.write_text(
        f'#!/bin/sh\necho built >> {count}\nprintf "#!/bin/sh\\n" > "$GOBIN/server"\n'
        '/bin/chmod +x "$GOBIN/server"\n'
    )
    built = livekit_server.livekit_server_binary()
    assert built == livekit_server.cached_binary() and os.access(built, os.X_OK)
    assert livekit_server.livekit_server_binary() == built
    assert count.read_text().splitlines() == ["built"]


def test_audio_shorter_than_speech_is_never_a_line():
    matcher = LineMatcher()
    matcher.lengths = {"hm": 0.05}  # even a line that short is not heard from a click
    click = b"\xff\x7f" * 800 + bytes(32000)
    assert matcher.hear(click, 16000).text == ""


_JOIN_RACE = (
    "2026-12-07 00:19:32,001 - ERROR asyncio - Exception in callback Future.set_result(None)\n"
    "handle: <Handle Future.set_result(None)>\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/asyncio/events.py", line 80, in _run\n'
    "    self._context.run(self._callback, *self._args)\n"
    'asyncio.exceptions.InvalidStateError: invalid state \x1b[90m{"room": "r"}\x1b[0m\n'
)
_OURS = (
    "Traceback (most recent call last):\n"
    '  File "/p/src/contextdb_livekit/worker/call.py", line 9, in on_text\n'
    "    raise ValueError(text)\n"
    "ValueError: bad text\n"
)


def test_a_worker_log_traceback_is_found_but_for_the_librarys_join_race():
    assert harness.tracebacks_in(_JOIN_RACE + "2026-12-07 00:19:33 - INFO next\n") == []
    found = harness.tracebacks_in(_JOIN_RACE + _OURS)
    assert len(found) == 1 and found[0].endswith("ValueError: bad text")
    # The same exception raised from a frame of ours is not the race.
    ours_invalid = _OURS.replace(
        "ValueError: bad text", "asyncio.exceptions.InvalidStateError: invalid state"
    )
    assert len(harness.tracebacks_in(ours_invalid)) == 1
