"""Job-level glue for agent.py: open the host systems, wait for and authenticate the caller."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from livekit import rtc
from livekit.agents import JobContext

from contextdb_livekit.domain.calendar import CalendarSettings, build_calendar
from contextdb_livekit.domain.llm_extract import extract_with_model
from contextdb_livekit.identity import CallerIdentity, IdentityError, authenticate_room_participant
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.memory.factory import open_memory_backend_or_unavailable
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.host_state import open_host_state
from contextdb_livekit.worker.settings import WorkerSettings

log = logging.getLogger("contextdb_livekit.worker.job")


async def open_host_services(settings: WorkerSettings) -> HostServices:
    memory_settings = MemorySettings()
    calendar_settings = CalendarSettings()
    extractor = {}
    if memory_settings.extraction_mode(settings.openai_api_key is not None) == "llm":
        extractor["extract"] = model_extractor(settings, memory_settings)
    # Its SQLite opens (schema checks, file modes) run off the event loop, which is joining
    # the room meanwhile.
    state = await asyncio.to_thread(open_host_state, settings, memory_settings)
    return HostServices(
        backend=await open_memory_backend_or_unavailable(memory_settings, state.database),
        outbox=state.outbox,
        calendar=build_calendar(calendar_settings),
        attestations=state.attestations,
        policy=AssurancePolicy(caller_id_may_book=settings.sip_caller_id_may_book),
        memory_settings=memory_settings,
        timezone=calendar_settings.caller_timezone,
        directory=state.directory,
        claims=state.claims,
        database=state.database,
        **extractor,
    )


def model_extractor(settings: WorkerSettings, memory_settings: MemorySettings):  # type: ignore[no-untyped-def]
    """The structured-output extractor, bounded: never longer than the write that follows it,
    so extraction + write stay well inside the worker's 10 s shutdown."""
    assert settings.openai_api_key is not None
    timeout_s = min(
        memory_settings.extraction_timeout_s, memory_settings.shutdown_write_budget_ms / 1000
    )

    async def extract(turns, notes, outcome, *, today, call_id):  # type: ignore[no-untyped-def]
        return await extract_with_model(
            turns,
            notes,
            outcome,
            today=today,
            call_id=call_id,
            base_url=settings.openai_base_url or "https://api.openai.com/v1",
            api_key=settings.openai_api_key.get_secret_value(),  # type: ignore[union-attr]
            model=settings.llm_model,
            timeout_s=timeout_s,
        )

    return extract


async def close_host_services(host: HostServices) -> None:
    await host.calendar.aclose()
    await host.backend.close()  # type: ignore[attr-defined]
    if host.database is not None:
        await host.database.close()  # type: ignore[attr-defined]


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
