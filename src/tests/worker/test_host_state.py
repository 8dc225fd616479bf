"""The composition root picks each store: files on this host's disk, or the shared Postgres
that every host reads (a claim used on one host is refused on another)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.host_state import HostState, open_host_state
from contextdb_livekit.worker.settings import WorkerSettings


def host_on(data: Path, database_url: str | None) -> HostState:
    """One worker host whose own files live in `data`."""
    worker = WorkerSettings(
        _env_file=None,
        ATTESTATION_PATH=data / "attestations.sqlite3",
        CUSTOMER_DIRECTORY_PATH=data / "customers.sqlite3",
        CLAIM_REGISTRY_PATH=data / "claims.sqlite3",
    )
    memory = MemorySettings(
        _env_file=None,
        DATABASE_URL=database_url,
        MEMORY_OUTBOX_PATH=data / "outbox.sqlite3",
        MEMORY_SPILL_PATH=data / "spill.sqlite3",
    )
    return open_host_state(worker, memory)


async def use_everything(host: HostState, jti: str) -> tuple[bool, str | None, int]:
    expires = datetime.now(UTC) + timedelta(minutes=5)
    first = await host.claims.first_use(jti, expires)
    number = await host.directory.customer_for_phone("+15550100123")
    kept = await host.attestations.for_customer("cust-42")
    return first, number, len(kept)


async def seed(host: HostState) -> None:
    await host.directory.add("+15550100123", "cust-42")
    await host.attestations.record(
        customer_id="cust-42", actor_id="caller", channel="web", room_name="r",
        memory_ids=["m-1"], turn_id="t-2", turn_text="yes",
    )  # fmt: skip


async def test_hosts_on_one_database_share_claims_directory_and_evidence(
    tmp_path: Path, database_url: str
) -> None:
    one, two = host_on(tmp_path / "one", database_url), host_on(tmp_path / "two", database_url)
    try:
        await seed(one)
        assert await use_everything(one, "jti-1") == (True, "cust-42", 1)
        assert await use_everything(two, "jti-1") == (False, "cust-42", 1)
    finally:
        await one.close()
        await two.close()
    assert not (tmp_path / "one" / "claims.sqlite3").exists()  # nothing on the host's disk


async def test_without_a_database_each_host_keeps_its_own_files(tmp_path: Path) -> None:
    one, two = host_on(tmp_path / "one", None), host_on(tmp_path / "two", None)
    await seed(one)
    assert await use_everything(one, "jti-1") == (True, "cust-42", 1)
    assert await use_everything(two, "jti-1") == (True, None, 0)
    again = host_on(tmp_path / "one", None)  # the same host's next job process
    assert await use_everything(again, "jti-1") == (False, "cust-42", 1)
    for name in ["attestations.sqlite3", "customers.sqlite3", "claims.sqlite3"]:
        assert (tmp_path / "one" / name).exists()
