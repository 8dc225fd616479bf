"""Which stores an export or erasure visits, for the host a call has."""

from __future__ import annotations

from pathlib import Path

import pytest

from contextdb_livekit.backends.factory import UnavailableBackend
from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.caller_data.stores import for_host
from contextdb_livekit.memory.settings import MemorySettings
from testkit.line_host import local_host
from tools.registry import LINE_ACTIONS, open_intent_resolvers


def test_the_stores_of_a_local_host_in_erasure_order(tmp_path: Path, local_engine) -> None:  # type: ignore[no-untyped-def]
    host = local_host(tmp_path, local_engine, memory_settings=MemorySettings(_env_file=None))  # type: ignore[call-arg]  # pydantic-settings takes _env_file
    # The journal first (a call of the caller still running keeps nothing more), then queued
    # writes (one delivered after memory was erased would bring facts back).
    assert [s.name for s in for_host(host)] == [
        "erasures",
        "outbox",
        "memory",
        "attestations",
        "directory",
    ]


async def test_memory_that_could_not_be_opened_makes_both_commands_incomplete(
    tmp_path: Path,
) -> None:
    backend = UnavailableBackend("engine did not start")
    host = local_host(tmp_path, backend, memory_settings=MemorySettings(_env_file=None))  # type: ignore[call-arg]  # as above
    await host.directory.add("+15550109999", "cust-u")  # type: ignore[union-attr]  # local hosts have one
    stores = for_host(host)
    exported = await export_caller(stores, "cust-u")
    assert list(exported.unavailable) == ["memory"]
    assert [i.kind for i in exported.items] == ["phone_number"]  # the rest is still read
    report = await erase_caller(stores, "cust-u")
    assert list(report.failed) == ["memory"] and not report.complete
    assert report.changed["directory"] == 1  # and still erased
    # A call on such a host still gets its crash recovery (nothing is looked up early).
    assert "forget_caller_details" in LINE_ACTIONS.call_resolvers(host)


async def test_the_drains_recovery_has_every_action_and_the_forget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The drain finishes an interrupted forget as it does a booking; its stores are opened
    # only when one is found, so building the recovery opens nothing.
    monkeypatch.chdir(tmp_path)
    async with open_intent_resolvers() as resolvers:
        assert set(resolvers) == {
            "book_visit",
            "cancel_visit",
            "apply_service_credit",
            "forget_caller_details",
        }
