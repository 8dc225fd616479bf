"""Everything the room can reach in a call, and what each surface allows.

livekit-agents 1.8.9 opens these surfaces when `AgentSession.start(room=...)` runs; each is
set here, in one place, so the call answers the admitted caller (`CallerGuard.admits`) and
nobody else in the room:

| surface                                   | what it allows now                                   |
|-------------------------------------------|------------------------------------------------------|
| session RPC `lk.agent.session`            | off (`session_host=False`): no get_agent_info,       |
| (SessionHost over RoomSessionTransport)   | get_chat_history, run_input or event stream for      |
|                                           | anyone, the caller included                          |
| text input `lk.chat`                      | the admitted caller's connection only (the server is |
|                                           | asked per message: data names only an identity),     |
|                                           | read by the worker with a byte bound (RoomIO's reads |
|                                           | a stream whole: `worker.typed_input`); then          |
|                                           | normalised and bounded before the model or any store |
| agent transcript `lk.transcription`       | sent to the admitted caller's identity only          |
|                                           | (`destination_identities`), nothing while the gate   |
|                                           | is closed; no legacy broadcast transcription packets |
|                                           | (same window as the audio track below)               |
| caller's own transcript `lk.transcription`| not published (RoomIO's user transcript is off)      |
| audio input (caller's microphone track)   | the linked identity, only while its connection is    |
|                                           | admitted (off while a replacement re-authenticates)  |
| pre-connect audio                         | off: any participant could send a buffer for the     |
| `lk.agent.pre-connect-audio-buffer`       | caller's track id                                    |
| agent audio track                         | subscribable by the admitted caller's identity only  |
|                                           | (a replacement the worker has not heard of yet holds |
|                                           | that identity: the one window left open)             |
| agent attribute `lk.agent.state`          | readable by the room (listening/thinking/speaking;   |
|                                           | no caller data)                                      |
| RPC methods                               | none registered by the worker                        |
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

from livekit import rtc
from livekit.agents import AgentSession, io, room_io
from livekit.agents.types import (
    ATTRIBUTE_TRANSCRIPTION_FINAL,
    ATTRIBUTE_TRANSCRIPTION_SEGMENT_ID,
    ATTRIBUTE_TRANSCRIPTION_TRACK_ID,
    TOPIC_TRANSCRIPTION,
)
from livekit.agents.voice.transcription import TranscriptSynchronizer

from contextdb_livekit.memory.caller_text import clean_caller_text
from contextdb_livekit.worker.barge_in import deliver_text, keeper_for
from contextdb_livekit.worker.room_guard import CallerGuard
from contextdb_livekit.worker.typed_input import TypedInput

log = logging.getLogger("contextdb_livekit.worker.room_surface")


def start_options(guard: CallerGuard) -> dict[str, Any]:
    """The keyword arguments for `AgentSession.start(room=...)` besides `room`."""
    return {
        "session_host": False,
        "room_options": room_io.RoomOptions(
            participant_identity=guard.caller_identity,
            # RoomIO reads a whole lk.chat stream before any callback sees it: a stream that
            # never closes would be held in memory. `worker.typed_input` reads it instead.
            text_input=False,
            audio_input=room_io.AudioInputOptions(pre_connect_audio=False),
            # RoomIO's transcription output broadcasts to the whole room (and its legacy
            # packets have no destination at all): replaced by `attach_caller_transcript`.
            text_output=False,
        ),
    }


def caller_text_input(
    guard: CallerGuard,
) -> Callable[[AgentSession, room_io.TextInputEvent], Coroutine[Any, Any, None]]:
    """lk.chat: the admitted caller's connection only, cleaned and bounded, then LiveKit's
    own handling (claim the turn, interrupt, reply), or, while a side effect is speaking,
    queued behind it (contextdb_livekit.worker.barge_in)."""

    async def on_text(session: AgentSession, event: room_io.TextInputEvent) -> None:
        if not guard.admits(event.participant):
            log.warning("typed input from a connection that is not the admitted caller dropped")
            return
        text = clean_caller_text(event.text)
        if not text.strip():
            return
        await deliver_text(session, dataclasses.replace(event, text=text))

    return on_text


class CallerTranscript(io.TextOutput):
    """The agent's words on lk.transcription, one text stream per segment, addressed to the
    admitted caller only. When the gate closes mid-segment the stream is closed and nothing
    more is written."""

    def __init__(self, room: rtc.Room, guard: CallerGuard) -> None:
        super().__init__(label="CallerTranscript", next_in_chain=None)
        self._room = room
        self._guard = guard
        self._writer: rtc.TextStreamWriter | None = None
        self._segment_id = ""
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        guard.on_gate_closed.append(self.flush)

    async def capture_text(self, text: str) -> None:
        async with self._lock:
            destination = self._guard.transcript_destination()
            if destination is None or not self._room.isconnected():
                self._close_writer(final=False)
                return
            if self._writer is None:
                self._segment_id = f"SG_{uuid.uuid4().hex[:12]}"
                attributes = {
                    ATTRIBUTE_TRANSCRIPTION_FINAL: "false",
                    ATTRIBUTE_TRANSCRIPTION_SEGMENT_ID: self._segment_id,
                }
                if track := self._agent_track_sid():
                    attributes[ATTRIBUTE_TRANSCRIPTION_TRACK_ID] = track
                try:
                    self._writer = await self._room.local_participant.stream_text(
                        topic=TOPIC_TRANSCRIPTION,
                        destination_identities=[destination],
                        attributes=attributes,
                    )
                except Exception as exc:
                    log.warning("transcript not sent: %s", type(exc).__name__)
                    return
            try:
                await self._writer.write(text)
            except Exception as exc:
                log.warning("transcript not sent: %s", type(exc).__name__)
                self._writer = None

    def flush(self) -> None:
        self._close_writer(final=True)

    def _close_writer(self, *, final: bool) -> None:
        writer, self._writer = self._writer, None
        if writer is None:
            return
        attributes = {
            ATTRIBUTE_TRANSCRIPTION_FINAL: "true" if final else "false",
            ATTRIBUTE_TRANSCRIPTION_SEGMENT_ID: self._segment_id,
        }

        async def close() -> None:
            with contextlib.suppress(Exception):
                await writer.aclose(attributes=attributes)

        task = asyncio.create_task(close())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _agent_track_sid(self) -> str | None:
        for publication in self._room.local_participant.track_publications.values():
            if publication.kind == rtc.TrackKind.KIND_AUDIO:
                return publication.sid
        return None

    async def aclose(self) -> None:
        self.flush()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


def attach_caller_transcript(
    session: AgentSession, room: rtc.Room, guard: CallerGuard
) -> TranscriptSynchronizer | None:
    """After `session.start`: the agent's transcript, synchronised with its speech as
    RoomIO would, goes to `CallerTranscript`. Returns the synchroniser (close it at the end)."""
    try:
        session.room_io  # noqa: B018 - raises when the session has no room I/O
    except RuntimeError:
        return None  # console mode: the console shows its own transcript, nothing is sent
    audio = session.output.audio
    transcript = CallerTranscript(room, guard)
    if audio is None:  # text-only session: no speech to keep pace with
        session.output.transcription = transcript
        return None
    synchronizer = TranscriptSynchronizer(next_in_chain_audio=audio, next_in_chain_text=transcript)
    session.output.audio = synchronizer.audio_output
    session.output.transcription = synchronizer.text_output
    return synchronizer


_closing: set[asyncio.Task[None]] = set()


def _close_soon(typed: TypedInput) -> None:
    task = asyncio.create_task(typed.aclose())
    _closing.add(task)
    task.add_done_callback(_closing.discard)


async def start_in_room(
    call: Any, session: AgentSession, room: rtc.Room, guard: CallerGuard
) -> TranscriptSynchronizer | None:
    """`call.start` with every room surface set as above; then the caller-only transcript,
    and the guard may speak. `call` is a contextdb_livekit.worker.call.Call."""
    await call.start(session, room=room, **start_options(guard))
    keeper_for(session)  # what the caller says while a side effect speaks is kept
    typed = TypedInput(room, session, guard, caller_text_input(guard)).attach()
    session.on("close", lambda _: _close_soon(typed))
    synchronizer = attach_caller_transcript(session, room, guard)
    guard.session_started()
    return synchronizer
