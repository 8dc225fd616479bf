"""Typed input (lk.chat) read with a bound, not read whole.

livekit-agents 1.8.9's RoomIO reads a whole lk.chat text stream (`reader.read_all()`) before
any callback sees it, so a stream that never closes is held in the job's memory for as long
as the sender keeps writing, and the cut to a turn's 2,000 characters comes only after. The
worker therefore turns RoomIO's text input off and reads lk.chat itself, here:

- a stream from anyone but the admitted caller is closed unread; a stream names its sender by
  identity only, so before the text goes on, the server is asked whether the admitted
  connection still holds that identity (`CallerGuard.admits_sender`): a replacement's data
  can arrive before this worker hears that it joined;
- a stream is read chunk by chunk and kept up to `MAX_TYPED_BYTES` (UTF-8); the moment it
  goes past that, the kept part is the caller's turn (cut, as any long message is) and the
  reader is closed, so whatever the sender writes after that is never kept;
- at most `MAX_OPEN_STREAMS` typed messages may be open at once per call; one more is closed
  unread (each open one holds at most the bound, so all of them together are bounded too).

The text then goes through the same handler as before (`room_surface.caller_text_input`:
the admitted caller only, cleaned, LiveKit's own reply handling or queued behind a side
effect).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from livekit import rtc
from livekit.agents import AgentSession, room_io
from livekit.agents.types import TOPIC_CHAT

from contextdb_livekit.memory.caller_text import MAX_TURN_CHARS
from contextdb_livekit.worker.room_guard import CallerGuard

log = logging.getLogger("contextdb_livekit.worker.typed_input")

# A turn keeps MAX_TURN_CHARS characters; cleaning may fold several code points into one and
# a character is up to 4 UTF-8 bytes, so twice that many bytes per character is room enough.
MAX_TYPED_BYTES = MAX_TURN_CHARS * 8
MAX_OPEN_STREAMS = 4

OnText = Callable[[AgentSession, room_io.TextInputEvent], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class BoundedText:
    text: str
    # False when the stream went past the bound: `text` is its first `max_bytes`.
    complete: bool


async def read_bounded(chunks: AsyncIterator[str], max_bytes: int) -> BoundedText:
    """The stream's text up to `max_bytes` of UTF-8; stops reading as soon as it is past."""
    kept: list[str] = []
    size = 0
    async for chunk in chunks:
        encoded = chunk.encode("utf-8", "surrogatepass")
        if size + len(encoded) > max_bytes:
            # Keep what fits, never half a character.
            room = encoded[: max_bytes - size].decode("utf-8", "ignore")
            kept.append(room)
            return BoundedText("".join(kept), complete=False)
        kept.append(chunk)
        size += len(encoded)
    return BoundedText("".join(kept), complete=True)


class TypedInput:
    """lk.chat for one call (see the module docstring). `attach` registers it on the room."""

    def __init__(
        self,
        room: rtc.Room,
        session: AgentSession,
        guard: CallerGuard,
        on_text: OnText,
        *,
        max_bytes: int = MAX_TYPED_BYTES,
        max_open: int = MAX_OPEN_STREAMS,
    ) -> None:
        self._room = room
        self._session = session
        self._guard = guard
        self._on_text = on_text
        self._max_bytes = max_bytes
        self._max_open = max_open
        self._tasks: set[asyncio.Task[None]] = set()

    def attach(self) -> TypedInput:
        self._room.register_text_stream_handler(TOPIC_CHAT, self.on_stream)
        return self

    def on_stream(self, reader: rtc.TextStreamReader, participant_identity: str) -> None:
        participant = self._room.remote_participants.get(participant_identity)
        if not self._guard.admits(participant):
            reader.close()
            log.warning("typed input from a connection that is not the admitted caller dropped")
            return
        if len(self._tasks) >= self._max_open:
            reader.close()
            log.warning("typed input dropped: %d typed messages already open", len(self._tasks))
            return
        assert participant is not None
        task = asyncio.create_task(self._read(reader, participant))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, reader: rtc.TextStreamReader, participant: rtc.RemoteParticipant) -> None:
        try:
            bounded = await read_bounded(reader, self._max_bytes)
        except rtc.StreamError:
            return  # the sender aborted it, or the room went away mid-message
        finally:
            reader.close()  # past the bound: nothing more of it is read or kept
        if not bounded.complete:
            log.info("typed message longer than %d bytes: the rest is not read", self._max_bytes)
        if not await self._guard.admits_sender(participant):
            log.warning("typed input dropped: the caller's identity is held by another connection")
            return
        event = room_io.TextInputEvent(text=bounded.text, info=reader.info, participant=participant)
        try:
            await self._on_text(self._session, event)
        except Exception:
            log.warning("typed input not handled", exc_info=True)

    async def aclose(self) -> None:
        with contextlib.suppress(ValueError):
            self._room.unregister_text_stream_handler(TOPIC_CHAT)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
