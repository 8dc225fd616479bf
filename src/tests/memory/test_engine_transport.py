"""The engine's Unix-socket transport costs no TLS set-up at call start."""

from __future__ import annotations

import asyncio
import ssl

from contextdb_livekit.backends.engine_client import (
    _RestartingUnixTransport,
    probe_engine,
    uds_transport,
)


def test_the_engine_transports_never_build_a_default_ssl_context(monkeypatch, tmp_path):
    built: list[int] = []
    real = ssl.create_default_context

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counting)
    uds_transport(tmp_path / "engine.sock")
    _RestartingUnixTransport(tmp_path / "engine.sock", None)
    assert asyncio.run(probe_engine(tmp_path / "nobody.sock")) is None
    assert built == []
