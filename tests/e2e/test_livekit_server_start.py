"""The test servers start even when a parallel test takes a port between choosing and binding it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from testkit import harness


def _listening_socket() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_a_port_taken_before_the_server_binds_it_is_retried_on_new_ports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    taken = _listening_socket()
    taken_port = taken.getsockname()[1]
    ports = iter([taken_port])
    real_free_port = harness.free_port
    monkeypatch.setattr(harness, "free_port", lambda: next(ports, None) or real_free_port())
    try:
        livekit, proc = harness.start_livekit_server(tmp_path / "server.log")
    finally:
        taken.close()
    try:
        assert proc.poll() is None
        assert livekit.url != f"ws://127.0.0.1:{taken_port}"
        assert next(ports, None) is None  # the taken port was tried first
    finally:
        harness.stop(proc)


def test_ports_taken_every_time_fail_with_the_servers_own_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    taken = _listening_socket()
    monkeypatch.setattr(harness, "free_port", lambda: taken.getsockname()[1])
    try:
        with pytest.raises(RuntimeError, match=r"ports taken 2 times.*address already in use"):
            harness.start_livekit_server(tmp_path / "server.log", attempts=2)
    finally:
        taken.close()
