"""The caller is a participant object, not an identity string.

LiveKit lets a new connection join under an existing identity (the old one is dropped with
DUPLICATE_IDENTITY), and the agent's I/O follows the identity. So the guard keeps one
*admitted* connection (participant sid): the authenticated caller's. Everything the room can
reach is gated on it (`admits`, see src/contextdb_livekit/worker/room_surface.py for the list):

- any other participant — already in the room when the agent joins, or joining later — is
  unexpected on a one-caller line: at the moment it is seen the call's memory and tools are
  revoked (nothing recalled reaches a third party) and the call ends with one sentence,
  spoken and transcribed to the caller only;
- a connection under the linked caller's identity is not admitted until it authenticates
  again with the same checks (its own signed claim, single-use): while it does, the
  caller's audio input is off, the agent's audio is subscribable by nobody and no transcript
  or typed input passes. If it fails, or names another customer, the call loses its memory
  and tools and ends;
- the caller leaving closes the gate too: nothing is sent to, or taken from, whoever comes
  back under that identity before it re-authenticates;
- the agent's audio track is subscribable by the admitted caller's identity only;
- a phone line that still rings is nobody yet: nothing passes until it is answered
  (`hold_until_answered` / `line_answered`), and a ring that ends unanswered revokes the
  call's memory and ends the job without a word (`end_unanswered`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from livekit import api, rtc
from livekit.agents import AgentSession, JobContext

from contextdb_livekit.identity import CallerIdentity, IdentityError
from contextdb_livekit.kit.context import CallContext

log = logging.getLogger("contextdb_livekit.worker.room_guard")

Authenticate = Callable[
    [rtc.RemoteParticipant], Awaitable[tuple[CallerIdentity | None, IdentityError | None]]
]
# Identity -> the sid of the connection the LiveKit server holds under it now; None when
# nobody holds it. `server_connection` asks the server's room API.
ServerConnection = Callable[[str], Awaitable[str | None]]

EXTRA_PARTICIPANT_LINE = (
    "Someone else has joined this line, so for your privacy I'm ending the call. "
    "Please call back when you're on your own."
)
FAILED_RECHECK_LINE = "I couldn't confirm who is on the line, so I'm ending the call."
# How long typed input waits for the server to say who holds the caller's identity.
_SERVER_CHECK_S = 5.0
# How long a closing line waits for the session to be running (a participant seen before
# the session started) and for its playout.
_SAY_WAIT_S = 10.0


class CallerGuard:
    def __init__(
        self,
        ctx: JobContext,
        session: AgentSession[CallContext],
        caller: rtc.RemoteParticipant,
        authenticate: Authenticate,
        *,
        revoked_instructions: str,
        server_connection: ServerConnection,
    ) -> None:
        self._ctx = ctx
        self._server_connection = server_connection
        # What the agent is told once the call's memory is revoked (the line's unverified
        # instructions: LineProfile.instructions(None, verified=False)).
        self._revoked_instructions = revoked_instructions
        self._session = session
        self._caller_identity = caller.identity
        self._caller_sid = caller.sid
        # The one connection the room surface answers; None while nobody is admitted.
        self._admitted_sid: str | None = caller.sid
        self._authenticate = authenticate
        self._tasks: set[asyncio.Task[None]] = set()
        self._started = asyncio.Event()
        # False while the caller's phone line rings: the participant is in the room, nobody
        # is on the line yet (worker.ring).
        self._line_answered = True
        self.revoked_reason: str | None = None
        # Called when the gate closes (the transcript output ends its open segment).
        self.on_gate_closed: list[Callable[[], None]] = []

    # -- the gate -------------------------------------------------------------------------

    @property
    def caller_identity(self) -> str:
        return self._caller_identity

    def admits(self, participant: rtc.Participant | None) -> bool:
        """True only for the authenticated caller's current connection."""
        return (
            participant is not None
            and self._line_answered
            and self._admitted_sid is not None
            and participant.identity == self._caller_identity
            and participant.sid == self._admitted_sid
        )

    async def admits_sender(self, participant: rtc.Participant | None) -> bool:
        """`admits` for data, which names its sender by identity only. The server hands an
        identity to a new connection (and relays that connection's data) before this worker
        hears of the join, so until then data from a replacement looks like the admitted
        caller's: the server is asked which connection holds the identity now. Fails closed:
        no answer, no admission."""
        if participant is None or not self.admits(participant):
            return False
        try:
            holder = await asyncio.wait_for(
                self._server_connection(participant.identity), timeout=_SERVER_CHECK_S
            )
        except Exception as exc:
            log.warning("could not ask the server who holds the caller's identity: %r", exc)
            return False
        return holder == participant.sid and self.admits(participant)

    def transcript_destination(self) -> str | None:
        """The identity transcripts may be sent to now, or None (send nothing)."""
        if self._admitted_sid is None or not self._line_answered:
            return None
        current = self._ctx.room.remote_participants.get(self._caller_identity)
        if current is None or current.sid != self._admitted_sid:
            return None  # the identity is held by another connection (or nobody) right now
        return self._caller_identity

    def _close_gate(self) -> None:
        self._admitted_sid = None
        with contextlib.suppress(Exception):  # the session may not be running yet
            self._session.input.set_audio_enabled(False)
        with contextlib.suppress(Exception):
            self._session.clear_user_turn()  # nothing half-heard from the old connection
        self._set_agent_audio(None)
        for callback in self.on_gate_closed:
            with contextlib.suppress(Exception):
                callback()

    def _admit(self, sid: str) -> None:
        self._admitted_sid = sid
        self._caller_sid = sid
        self._set_agent_audio(self._caller_identity)
        with contextlib.suppress(Exception):
            self._session.input.set_audio_enabled(True)

    # -- lifecycle ------------------------------------------------------------------------

    def attach(self) -> None:
        """Before the session starts: restrict the agent's audio, watch joins and leaves, and
        deal now with everyone already in the room (they were there before the agent)."""
        self._set_agent_audio(self._caller_identity)
        self._ctx.room.on("participant_connected", self._on_participant_connected)
        self._ctx.room.on("participant_disconnected", self._on_participant_disconnected)
        for participant in list(self._ctx.room.remote_participants.values()):
            if participant.sid != self._caller_sid:
                self._on_participant_connected(participant)

    def session_started(self) -> None:
        """The session runs: closing lines can be spoken from now on."""
        self._started.set()

    def hold_until_answered(self) -> None:
        """The caller's line rings: nothing passes (typed input, transcripts) until it is
        answered; whoever holds a ringing SIP participant's token is not on a call yet."""
        self._line_answered = False

    def line_answered(self) -> None:
        self._line_answered = True

    async def end_unanswered(self, reason: str) -> None:
        """The ring ended without an answer: memory revoked, the agent's instructions lose
        the recalled snapshot, and the job ends — nobody is there to say anything to."""
        self._line_answered = False
        self._revoke(self._session.userdata, reason)
        await self._forget_recalled()
        self._ctx.shutdown(reason=reason)

    def _set_agent_audio(self, identity: str | None) -> None:
        permissions = (
            [rtc.ParticipantTrackPermission(participant_identity=identity, allow_all=True)]
            if identity is not None
            else []
        )
        self._ctx.room.local_participant.set_track_subscription_permissions(
            allow_all_participants=False, participant_permissions=permissions
        )

    def _on_participant_connected(self, participant: rtc.RemoteParticipant) -> None:
        follow_up = self._classify(participant)
        if follow_up is None:
            return
        task = asyncio.create_task(follow_up)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_participant_disconnected(self, participant: rtc.RemoteParticipant) -> None:
        if participant.identity == self._caller_identity and participant.sid == self._admitted_sid:
            log.info("caller left; nothing passes until a connection re-authenticates")
            self._close_gate()

    async def check(self, participant: rtc.RemoteParticipant) -> None:
        """Judge one participant now (the event handler does this for every join)."""
        follow_up = self._classify(participant)
        if follow_up is not None:
            await follow_up

    def _classify(self, participant: rtc.RemoteParticipant) -> Coroutine[Any, Any, None] | None:
        """Everything that must not wait happens here, synchronously, in the event handler:
        memory revoked and the gate closed before any other callback can run."""
        if participant.kind == rtc.ParticipantKind.PARTICIPANT_KIND_AGENT:
            return None  # our own helpers (avatars) are not people on the line
        call = self._session.userdata
        if participant.identity != self._caller_identity:
            log.warning("extra participant in the room; revoking memory and ending the call")
            self._revoke(call, "extra_participant")
            return self._end(EXTRA_PARTICIPANT_LINE)
        if participant.sid == self._admitted_sid:
            return None
        # The same identity on a new connection: a replacement, not the caller by default.
        self._close_gate()
        return self._recheck(participant)

    async def _recheck(self, participant: rtc.RemoteParticipant) -> None:
        call = self._session.userdata
        identity, error = await self._authenticate(participant)
        linked = call.identity
        if identity is None or linked is None or identity != linked:
            reason = error.reason if error is not None else "different_customer"
            log.warning("replacing participant failed re-authentication: %s", reason)
            self._revoke(call, f"recheck_failed:{reason}")
            await self._end(FAILED_RECHECK_LINE)
            return
        current = self._ctx.room.remote_participants.get(self._caller_identity)
        replaced_again = current is not None and current.sid != participant.sid
        if self.revoked_reason is not None or replaced_again:
            return  # revoked meanwhile, or replaced again: that connection is checked on its own
        log.info("caller reconnected and re-authenticated")
        self._admit(participant.sid)

    def _revoke(self, call: CallContext, reason: str) -> None:
        if self.revoked_reason is None:
            self.revoked_reason = reason
        revoke(call, reason)

    async def _end(self, line: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._started.wait(), timeout=_SAY_WAIT_S)
        await self._forget_recalled()
        try:
            handle = self._session.say(line, allow_interruptions=False)
            await asyncio.wait_for(handle.wait_for_playout(), timeout=_SAY_WAIT_S)
        except Exception as exc:  # the session may already be closing
            log.info("could not say the closing line: %s", type(exc).__name__)
        self._ctx.shutdown(reason=self.revoked_reason or "room_guard")

    async def _forget_recalled(self) -> None:
        """The agent's instructions lose the recalled snapshot as well."""
        with contextlib.suppress(Exception):
            await self._session.current_agent.update_instructions(self._revoked_instructions)


def server_connection(ctx: JobContext) -> ServerConnection:
    """The room API's answer to "which connection holds this identity now?"."""

    async def holder(identity: str) -> str | None:
        request = api.RoomParticipantIdentity(room=ctx.room.name, identity=identity)
        try:
            info = await ctx.api.room.get_participant(request)
        except api.ServerError as exc:
            if exc.code == api.ServerErrorCode.NOT_FOUND:
                return None
            raise
        return info.sid

    return holder


def revoke(call: CallContext, reason: str) -> None:
    """From now on nothing is recalled and no gated tool acts in this call."""
    log.warning("call memory revoked: %s", reason)
    call.identity = None
    call.memory = None
    call.offer = None
    call.snapshot = None
