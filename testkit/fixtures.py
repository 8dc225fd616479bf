"""Shared pytest fixtures, a plugin both test suites load (`pytest_plugins` in tests/conftest.py
and src/tests/conftest.py): one local engine service per test session, unique callers per
test, a Postgres on loopback, the ContextDB Cloud stand-in and the `backend` parameter."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from contextdb_cloud_client import CloudClient

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.engine_client import LocalEngineMemory, connect_local_engine
from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.postgres_engine import connect_engine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.stores.postgres.connection import SharedDatabase
from testkit.cloud_standin import CloudStandIn, cloud_standin
from testkit.engine import stop_engine
from testkit.postgres import create_database, running_postgres


@pytest.fixture(scope="session")
def engine_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local engine service shared by the session; stopped at the end."""
    db_path = tmp_path_factory.mktemp("engine") / "memory.sqlite3"

    async def start() -> None:
        await (await connect_local_engine(db_path, idle_exit_s=600)).close()

    asyncio.run(start())
    yield db_path
    asyncio.run(stop_engine(db_path))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real Postgres on loopback for the session (testkit.postgres); a machine without
    one fails these tests with how to install it, never skips them."""
    with running_postgres() as server:
        yield server.url


@pytest.fixture
async def database_url(postgres_server: str) -> str:
    """A fresh, empty database per test."""
    return await create_database(postgres_server, f"t_{uuid.uuid4().hex[:16]}")


@pytest.fixture
async def shared_database(database_url: str) -> AsyncIterator[SharedDatabase]:
    database = SharedDatabase(database_url)
    yield database
    await database.close()


@pytest.fixture
async def postgres_engine(shared_database: SharedDatabase) -> AsyncIterator[LocalEngine]:
    engine = await connect_engine(shared_database)
    yield engine
    await engine.close()


@pytest.fixture
def user_id() -> str:
    return f"cust-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def other_user_id() -> str:
    return f"cust-{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def engine_service(engine_db: Path) -> AsyncIterator[LocalEngineMemory]:
    client = await connect_local_engine(engine_db)
    yield client
    await client.close()


@pytest.fixture
async def local_engine(tmp_path: Path) -> AsyncIterator[LocalEngine]:
    engine = await open_engine(tmp_path / "inproc.sqlite3")
    yield engine
    await engine.close()


@pytest.fixture
async def cloud(tmp_path: Path) -> AsyncIterator[CloudStandIn]:
    """A ContextDB Cloud stand-in on loopback (`testkit.cloud_standin`: the engine's routes,
    Cloud's own unslotted decisions), over its own engine."""
    async with cloud_standin(tmp_path / "cloud.sqlite3") as standin:
        yield standin


@pytest.fixture
async def cloud_contract(cloud: CloudStandIn) -> AsyncIterator[CloudMemory]:
    """The real Cloud client and adapter, talking to the Cloud stand-in."""
    memory = CloudMemory(CloudClient(cloud.url, "cdb_test_key"))
    yield memory
    await memory.close()


@pytest.fixture(params=["local_engine", "engine_service", "cloud_contract", "postgres_engine"])
def backend(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return request.getfixturevalue(request.param)


@pytest.fixture
def trail(backend, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """The decision ledger behind `backend` (the plain Cloud client has no trail endpoint:
    the Cloud stand-in's engine holds it)."""
    reader = (
        backend if hasattr(backend, "decision_trail") else request.getfixturevalue("cloud").engine
    )

    async def read(user_id: str):  # type: ignore[no-untyped-def]
        return await reader.decision_trail(user_id)

    return read
