"""The caller's spoken turns on a realtime session, known by item id before their words.

A realtime (speech-to-speech) provider hears the caller itself and transcribes the audio
separately: the final transcript may come before or after the model's response, and LiveKit
runs a tool as soon as the model's function call arrives. So when the confirmation tool runs,
the caller's yes may not be in `session.history` yet. What *is* known then is that the caller
spoke: the provider announces the caller's audio item (`conversation.item.added`, LiveKit's
`remote_item_added`) before it answers it, and the final transcript later carries the same
item id (LiveKit adds it to the history under that id).

`CallerTurns` records each announced audio item and when the host learned of it, and lets the
confirmation wait, within a bound, for the transcripts of the turns after a read-back before
it reads the answer (`kit.confirmation`). On a pipeline session (STT, then LLM) the caller's
words are in the history before the model is even asked, and nothing is attached.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from livekit.agents import AgentSession, ConversationItemAddedEvent, llm

log = logging.getLogger("contextdb_livekit.kit.caller_turns")

# How long the confirmation waits for a caller turn's transcript, by default. The provider
# usually delivers it well within a second of the turn; a few seconds covers a slow one
# without leaving the caller in silence for long (then the host asks again).
DEFAULT_TRANSCRIPT_WAIT_S = 4.0


@dataclass(frozen=True)
class SpokenTurn:
    """A caller audio item the provider announced, and when the host learned of it."""

    item_id: str
    announced_at: float


class CallerTurns:
    """The caller's audio items on a realtime session, and whether their words arrived."""

    def __init__(self, transcript_wait_s: float = DEFAULT_TRANSCRIPT_WAIT_S) -> None:
        if transcript_wait_s <= 0:
            raise ValueError("transcript_wait_s must be positive")
        self.transcript_wait_s = transcript_wait_s
        self._turns: list[SpokenTurn] = []
        self._transcribed: set[str] = set()
        # Set (and replaced) whenever a caller transcript arrives: waiters re-check then.
        self._arrival = asyncio.Event()

    def attach(self, session: AgentSession) -> bool:
        """Follow `session`'s realtime model, if it has one (call after `session.start`).
        Returns whether there was one to follow."""
        rt_session: llm.RealtimeSession | None = None
        with contextlib.suppress(RuntimeError):  # no activity yet, or not a realtime model
            rt_session = session.current_agent.realtime_llm_session
        if rt_session is None:
            return False
        rt_session.on("remote_item_added", self._on_remote_item)
        session.on("conversation_item_added", self._on_history_item)
        return True

    def _on_remote_item(self, event: llm.RemoteItemAddedEvent) -> None:
        item = event.item
        # The caller's audio: a user message the provider added with no words yet. A typed
        # turn (or one the host sent) carries its text and is already in the history.
        if (
            isinstance(item, llm.ChatMessage)
            and item.role == "user"
            and not item.text_content
            and item.id not in self._transcribed
        ):
            self._turns.append(SpokenTurn(item.id, time.time()))

    def _on_history_item(self, event: ConversationItemAddedEvent) -> None:
        item = event.item
        if isinstance(item, llm.ChatMessage) and item.role == "user":
            self.transcribed(item.id)

    def transcribed(self, item_id: str) -> None:
        """The words of `item_id` are in the history."""
        self._transcribed.add(item_id)
        self._arrival.set()
        self._arrival = asyncio.Event()

    def announced(self, item_id: str, at: float | None = None) -> None:
        """The provider announced the caller audio item `item_id` (tests drive this too)."""
        self._turns.append(SpokenTurn(item_id, time.time() if at is None else at))

    def untranscribed_since(self, since: float) -> list[str]:
        """Caller turns announced at or after `since` whose words have not arrived."""
        return [
            turn.item_id
            for turn in self._turns
            if turn.announced_at >= since and turn.item_id not in self._transcribed
        ]

    async def wait_for_words(self, since: float) -> list[str]:
        """Wait, up to `transcript_wait_s`, for the words of every caller turn announced
        since `since`. Returns the turns still without words (empty: all arrived)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.transcript_wait_s
        while missing := self.untranscribed_since(since):
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.info(
                    "no transcript within %.1f s for %d caller turn(s)",
                    self.transcript_wait_s,
                    len(missing),
                )
                return missing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrival.wait(), timeout=remaining)
        return []
