"""The claim registry contract (stores.claims), one suite run against the SQLite and the
Postgres registry: a claim id is first used exactly once, whoever asks and however often."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from contextdb_livekit.identity import IdentityStoreUnavailable
from contextdb_livekit.stores.claims import KEEP_AFTER_EXPIRY_S
from testkit.host_state_handles import (
    KINDS,
    Backend,
    Handles,
    backend_for,
    open_handles,
    umask,
)


@pytest.fixture(params=KINDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return backend_for(request)


@pytest.fixture
async def handles(backend: Backend, tmp_path: Path) -> AsyncIterator[Handles]:
    async with open_handles(backend, tmp_path) as opened:
        yield opened


def in_minutes(minutes: float) -> datetime:
    return datetime.now(UTC) + timedelta(minutes=minutes)


async def test_a_claim_id_is_first_used_once(handles: Handles) -> None:
    claims = handles.claims()
    assert await claims.first_use("jti-1", in_minutes(5)) is True
    assert await claims.first_use("jti-1", in_minutes(5)) is False
    assert await claims.first_use("jti-1", in_minutes(60)) is False  # a later expiry too
    assert await claims.first_use("jti-2", in_minutes(5)) is True


async def test_every_handle_onto_the_store_sees_the_first_use(handles: Handles) -> None:
    # Other job processes on the host (SQLite) or other hosts (Postgres).
    assert await handles.claims().first_use("jti-1", in_minutes(5)) is True
    assert await handles.claims().first_use("jti-1", in_minutes(5)) is False


async def test_racing_joins_with_one_claim_let_exactly_one_in(handles: Handles) -> None:
    registries = [handles.claims() for _ in range(4)]
    results = await asyncio.gather(
        *(registries[i % 4].first_use("jti-race", in_minutes(5)) for i in range(24))
    )
    assert results.count(True) == 1
    # Distinct claims racing each other all get in.
    distinct = await asyncio.gather(
        *(registries[i % 4].first_use(f"jti-{i}", in_minutes(5)) for i in range(12))
    )
    assert distinct == [True] * 12


async def test_an_expired_claim_id_is_still_refused_within_the_leeway(handles: Handles) -> None:
    # Verification accepts a claim a few seconds past exp, so its id must still be known.
    claims = handles.claims()
    just_expired = datetime.now(UTC) - timedelta(seconds=10)
    assert await claims.first_use("jti-late", just_expired) is True
    assert await claims.first_use("jti-other", in_minutes(5)) is True  # purges what may go
    assert await claims.first_use("jti-late", just_expired) is False


async def test_ids_long_past_their_expiry_are_forgotten(handles: Handles) -> None:
    # The registry does not grow for ever: a claim this old cannot verify, so its id goes.
    claims = handles.claims()
    long_ago = datetime.now(UTC) - timedelta(seconds=KEEP_AFTER_EXPIRY_S + 60)
    assert await claims.first_use("jti-old", long_ago) is True
    assert await claims.first_use("jti-new", in_minutes(5)) is True
    assert "jti-old" not in await handles.stored_text("claims")
    assert "jti-new" in await handles.stored_text("claims")


@pytest.mark.parametrize("jti", ["", "x" * 129, "jti\x00-1", "jti\n1", "jti\x7f", "\x9b"])
async def test_an_id_no_claim_can_carry_is_refused_before_storage(
    handles: Handles, jti: str
) -> None:
    with pytest.raises(ValueError, match="claim id"):
        await handles.claims().first_use(jti, in_minutes(5))


async def test_any_printable_id_up_to_the_limit_is_kept(handles: Handles) -> None:
    claims = handles.claims()
    for jti in ["x" * 128, "jti-é-名前", "a b"]:
        assert await claims.first_use(jti, in_minutes(5)) is True
        assert await claims.first_use(jti, in_minutes(5)) is False


async def test_a_registry_that_cannot_answer_leaves_the_caller_unverified(
    handles: Handles,
) -> None:
    with pytest.raises(IdentityStoreUnavailable):
        await handles.down("claims").claims().first_use("jti-1", in_minutes(5))


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_the_sqlite_registry_file_is_owner_only(handles: Handles) -> None:
    with umask(0o000):
        await handles.claims().first_use("jti-1", in_minutes(5))
    path = handles.path("claims")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
