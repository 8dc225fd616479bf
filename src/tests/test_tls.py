"""The clients a call opens share the worker's one TLS context: none loads a CA bundle at call
start (each load is 20-40 ms of CPU on the job's event loop, 0.1-0.3 s on a busy host)."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx
import pytest
import respx

from contextdb_livekit.api import HostApi
from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.reading import model as model_extraction


@pytest.fixture
def bundle_loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    loads: list[object] = []
    real = ssl.SSLContext.load_verify_locations

    def counting(self: ssl.SSLContext, *args: object, **kwargs: object) -> None:
        loads.append(args or kwargs)
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counting)
    yield loads


async def test_the_cloud_backend_loads_no_ca_bundle(bundle_loads: list[object]) -> None:
    memory = CloudMemory.connect("https://contextdb.test", "cdb_test_key", timeout_s=2.0)
    await memory.close()
    assert bundle_loads == []


async def test_a_business_system_client_loads_no_ca_bundle(bundle_loads: list[object]) -> None:
    client = HostApi("https://booking.test", api_key="k", timeout_s=2.0)
    await client.aclose()
    assert bundle_loads == []


@respx.mock
async def test_the_model_extractor_loads_no_ca_bundle(bundle_loads: list[object]) -> None:
    respx.post("https://model.test/v1/chat/completions").mock(
        return_value=httpx.Response(
            200, json={"choices": [{"message": {"content": '{"facts": []}'}}]}
        )
    )
    answer = await model_extraction._ask(
        {"model": "m", "messages": []},
        base_url="https://model.test/v1",
        api_key="k",
        timeout_s=2.0,
        transport=None,
    )
    assert answer.facts == []
    assert bundle_loads == []
