"""Job-level glue for agent.py: open the host systems, wait for and authenticate the caller."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from livekit import rtc
from livekit.agents import JobContext

from contextdb_livekit.backends.factory import open_memory_backend_or_unavailable
from contextdb_livekit.identity import CallerIdentity, IdentityError, authenticate_room_participant
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.host_state import open_host_state
from contextdb_livekit.worker.profile import HostParts, LineProfile
from contextdb_livekit.worker.settings import WorkerSettings

log = logging.getLogger("contextdb_livekit.worker.job")


async def open_host_services(settings: WorkerSettings, profile: LineProfile) -> HostServices:
    """The worker's own parts (memory backend, host state), then the line's business
    systems on top (the profile's `open_host`)."""
    memory_settings = MemorySettings()
    # Its SQLite opens (schema checks, file modes) run off the event loop, which is joining
    # the room meanwhile.
    state = await asyncio.to_thread(open_host_state, settings, memory_settings)
    backend = await open_memory_backend_or_unavailable(memory_settings, state.database)
    parts = HostParts(
        worker=settings, memory_settings=memory_settings, backend=backend, state=state
    )
    return await profile.open_host(parts)


async def close_host_services(host: HostServices, profile: LineProfile) -> None:
    await profile.close_host(host)
    await host.backend.close()
    if host.database is not None:
        await host.database.close()


async def wait_for_caller(ctx: JobContext, timeout_s: float) -> rtc.RemoteParticipant | None:
    """The caller, or None (one log line) when nobody joined in time."""
    try:
        return await asyncio.wait_for(ctx.wait_for_participant(), timeout=timeout_s)
    except TimeoutError:
        log.info("no caller joined room %s within %.0f s; ending the job", ctx.room.name, timeout_s)
        return None


async def authenticate_caller(
    participant: rtc.RemoteParticipant,
    room_name: str,
    settings: WorkerSettings,
    host: HostServices,
) -> tuple[CallerIdentity | None, IdentityError | None]:
    """From the room session only (the signed claim, or the SIP number via the directory)."""
    secret = settings.identity_signing_secret
    # A template or placeholder secret is public: it verifies nobody, whatever the entry point.
    usable = secret is not None and settings.identity_secret_problem() is None
    assert host.directory is not None and host.claims is not None
    try:
        identity = await authenticate_room_participant(
            participant,
            room_name=room_name,
            identity_secret=secret.get_secret_value() if secret and usable else "",
            customer_for_phone=host.directory.customer_for_phone,
            first_use=host.claims.first_use,
        )
    except IdentityError as exc:
        log.warning("caller not authenticated: %s", exc.reason)
        return None, exc
    return identity, None


Authenticate = Callable[
    [rtc.RemoteParticipant], Awaitable[tuple[CallerIdentity | None, IdentityError | None]]
]


async def identify_caller(
    ctx: JobContext, first: rtc.RemoteParticipant, authenticate: Authenticate
) -> tuple[rtc.RemoteParticipant, CallerIdentity | None, IdentityError | None]:
    """The caller is the participant that authenticates, not the first one in the room.

    Usually `first` is alone. When others were there before the agent (someone who joined
    ahead of it), each is tried in join order and the first that authenticates is the caller;
    a failed attempt consumes nothing. The room guard then ends the call for the rest: the
    caller hears why, nobody else gets anything. With none authenticated, `first` is linked,
    unverified (nothing of anyone's is recalled)."""
    others = [
        p
        for p in ctx.room.remote_participants.values()
        if p.sid != first.sid and p.kind != rtc.ParticipantKind.PARTICIPANT_KIND_AGENT
    ]
    identity, error = await authenticate(first)
    if identity is not None or not others:
        return first, identity, error
    for other in others:
        other_identity, _ = await authenticate(other)
        if other_identity is not None:
            return other, other_identity, None
    return first, None, error
