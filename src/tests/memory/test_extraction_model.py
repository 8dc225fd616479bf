"""`MemorySettings.extraction_model`: the model the end-of-call extraction calls, from the
worker's LLM settings, or None for the rules; and `HostParts.services` handing it to a call."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from contextdb_livekit.api import HostParts
from contextdb_livekit.hosting import WorkerSettings
from contextdb_livekit.memory.settings import ExtractionModel, MemorySettings

KEY = SecretStr("sk-test")


@pytest.fixture(autouse=True)
def _no_llm_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_LLM_MODEL", "MEMORY_EXTRACTION")
    for name in (*llm, "MEMORY_EXTRACTION_TIMEOUT_S", "MEMORY_SHUTDOWN_WRITE_BUDGET_MS"):
        monkeypatch.delenv(name, raising=False)


def memory(**env: Any) -> MemorySettings:
    return MemorySettings(_env_file=None, **env)  # type: ignore[call-arg]


def test_a_key_names_the_model_bounded_by_the_write_that_follows_it() -> None:
    settings = memory(MEMORY_EXTRACTION_TIMEOUT_S=4, MEMORY_SHUTDOWN_WRITE_BUDGET_MS=2500)
    model = settings.extraction_model(KEY, base_url="http://llm.test/v1", model="small")
    assert model == ExtractionModel("http://llm.test/v1", "sk-test", "small", timeout_s=2.5)
    assert "sk-test" not in repr(model)
    shorter = memory(MEMORY_EXTRACTION_TIMEOUT_S=1)
    assert shorter.extraction_model(KEY, base_url=None, model="small") == ExtractionModel(
        "https://api.openai.com/v1", "sk-test", "small", timeout_s=1.0
    )


def test_no_key_or_the_rules_asked_for_is_no_model() -> None:
    assert memory().extraction_model(None, base_url=None, model="small") is None
    rules = memory(MEMORY_EXTRACTION="rules")
    assert rules.extraction_model(KEY, base_url=None, model="small") is None


def test_the_calls_host_services_carry_the_model_the_worker_settings_name() -> None:
    state = SimpleNamespace(
        outbox=None, attestations=None, directory=None, claims=None, database=None, erasures=None
    )

    def services(**worker_env: Any) -> Any:
        worker = WorkerSettings(_env_file=None, **worker_env)  # type: ignore[call-arg]
        parts = HostParts(worker, memory(), backend=None, state=state)  # type: ignore[arg-type]
        return parts.services("the line's systems", timezone="Europe/London")

    host = services(OPENAI_API_KEY="sk-test", OPENAI_LLM_MODEL="small")
    assert host.extraction_model == ExtractionModel(
        "https://api.openai.com/v1", "sk-test", "small", timeout_s=3.0
    )
    assert services().extraction_model is None
