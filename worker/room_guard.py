"""The caller is a participant object, not an identity string.

LiveKit lets a new connection join under an existing identity (the old one is dropped with
DUPLICATE_IDENTITY), and the agent's I/O follows the identity. So:

- a participant that joins under the linked caller's identity is authenticated again with
  the same checks (its own signed claim, single-use); if that fails, or names another
  customer, the call loses its memory and tools and ends;
- any other participant joining a call is unexpected for a scheduling line: the call's
  memory and tools are revoked at once (nothing recalled reaches a third party) and the
  call ends with one spoken sentence;
- the agent's audio track is subscribable by the linked caller only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from livekit import rtc
from livekit.agents import AgentSession, JobContext

from identity import CallerIdentity, IdentityError
from tools import CallContext

log = logging.getLogger("worker.room_guard")

Authenticate = Callable[
    [rtc.RemoteParticipant], Awaitable[tuple[CallerIdentity | None, IdentityError | None]]
]

EXTRA_PARTICIPANT_LINE = (
    "Someone else has joined this line, so for your privacy I'm ending the call. "
    "Please call back when you're on your own."
)
FAILED_RECHECK_LINE = "I couldn't confirm who is on the line, so I'm ending the call."


class CallerGuard:
    def __init__(
        self,
        ctx: JobContext,
        session: AgentSession[CallContext],
        caller: rtc.RemoteParticipant,
        authenticate: Authenticate,
    ) -> None:
        self._ctx = ctx
        self._session = session
        self._caller_identity = caller.identity
        self._caller_sid = caller.sid
        self._authenticate = authenticate
        self._tasks: set[asyncio.Task[None]] = set()
        self.revoked_reason: str | None = None

    def attach(self) -> None:
        self._restrict_agent_audio()
        self._ctx.room.on("participant_connected", self._on_participant_connected)

    def _restrict_agent_audio(self) -> None:
        permission = rtc.ParticipantTrackPermission(
            participant_identity=self._caller_identity, allow_all=True
        )
        self._ctx.room.local_participant.set_track_subscription_permissions(
            allow_all_participants=False, participant_permissions=[permission]
        )

    def _on_participant_connected(self, participant: rtc.RemoteParticipant) -> None:
        task = asyncio.create_task(self.check(participant))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def check(self, participant: rtc.RemoteParticipant) -> None:
        call = self._session.userdata
        if participant.kind == rtc.ParticipantKind.PARTICIPANT_KIND_AGENT:
            return  # our own helpers (avatars) are not people on the line
        if participant.identity != self._caller_identity:
            log.warning("extra participant joined; revoking memory and ending the call")
            await self._end(call, "extra_participant", EXTRA_PARTICIPANT_LINE)
            return
        if participant.sid == self._caller_sid:
            return
        # The same identity on a new connection: a replacement, not the caller by default.
        identity, error = await self._authenticate(participant)
        linked = call.identity
        if identity is None or linked is None or identity != linked:
            reason = error.reason if error is not None else "different_customer"
            log.warning("replacing participant failed re-authentication: %s", reason)
            await self._end(call, f"recheck_failed:{reason}", FAILED_RECHECK_LINE)
            return
        log.info("caller reconnected and re-authenticated")
        self._caller_sid = participant.sid

    async def _end(self, call: CallContext, reason: str, line: str) -> None:
        revoke(call, reason)
        self.revoked_reason = reason
        try:
            handle = self._session.say(line, allow_interruptions=False)
            await asyncio.wait_for(handle.wait_for_playout(), timeout=10)
        except Exception as exc:  # the session may already be closing
            log.info("could not say the closing line: %s", exc)
        self._ctx.shutdown(reason=reason)


def revoke(call: CallContext, reason: str) -> None:
    """From now on nothing is recalled and no gated tool acts in this call."""
    log.warning("call memory revoked: %s", reason)
    call.identity = None
    call.memory = None
    call.offer = None
    call.snapshot = None
