"""Turns the caller says while a side effect is speaking are kept, not dropped (issue 21.4).

From the moment a gated action runs its side effect until its result has been spoken, the
speech may not be interrupted (`RunContext.disallow_interruptions`), so a barge-in cannot
cut an action off halfway. livekit-agents 1.8.9 then drops whatever the caller says meanwhile:

- typed text (lk.chat): its default text handler interrupts first, and `interrupt()` raises
  "This generation handle does not allow interruptions", so the text is lost;
- speech: the audio is replaced by silence while an uninterruptible speech plays
  (`discard_audio_if_uninterruptible`), and a turn that is still transcribed is skipped
  ("skipping reply to user input, current speech generation cannot be interrupted").

`TurnKeeper` (one per session, `keeper_for`) keeps them instead:

- `deliver_text` is the caller's text handler: LiveKit's own handling, except that while a
  side effect is speaking the turn is queued behind it (`generate_reply(user_input=...)`
  plays after the current speech), so it lands in the history and gets its answer.
- For speech, audio is no longer discarded while such a speech plays; a final transcript
  heard then is queued the same way once the speech is over, unless LiveKit committed the
  turn itself meanwhile.
- A queued turn the session never got to (the caller hung up first) is written into the
  session history when the session closes, so the end-of-call facts still see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any

from livekit.agents import AgentSession, ConversationItemAddedEvent, room_io
from livekit.agents.voice.events import CloseEvent, UserInputTranscribedEvent
from livekit.agents.voice.room_io.types import _default_text_input_cb

log = logging.getLogger("contextdb_livekit.worker.barge_in")

# After an uninterruptible speech ends, how long LiveKit may still commit a turn heard
# during it (its end-of-turn delay) before the keeper queues the turn itself.
COMMIT_GRACE_S = 1.5
_UNINTERRUPTIBLE = "does not allow interruptions"


class TurnKeeper:
    def __init__(self, session: AgentSession[Any], *, commit_grace_s: float = COMMIT_GRACE_S):
        self._session = session
        self._commit_grace_s = commit_grace_s
        # Queued behind a side effect's speech, not in the history yet.
        self.pending: list[str] = []
        # Final transcripts heard while a side effect was speaking.
        self._heard: list[str] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.kept = 0

    def attach(self) -> TurnKeeper:
        session = self._session
        with contextlib.suppress(KeyError, TypeError, AttributeError):
            # Hear the caller while a side effect speaks (the turn is kept, never a barge-in:
            # the speech still cannot be interrupted).
            session.options.interruption["discard_audio_if_uninterruptible"] = False
        session.on("user_input_transcribed", self._on_transcript)
        session.on("conversation_item_added", self._on_item)
        session.on("close", self._on_close)
        return self

    def side_effect_speaking(self) -> Any | None:
        return side_effect_speaking(self._session)

    def hold(self, text: str) -> None:
        """Queue a caller turn behind the speech that may not be interrupted."""
        self.pending.append(text)
        self.kept += 1
        log.info("caller turn kept while a side effect speaks; answered after it")
        try:
            self._session.generate_reply(user_input=text)
        except RuntimeError as exc:  # the session is closing: the close handler keeps it
            log.warning("kept caller turn not answered (%s)", exc)

    def _on_item(self, event: ConversationItemAddedEvent) -> None:
        item = event.item
        if item.type != "message" or item.role != "user":
            return
        text = item.text_content or ""
        self.pending = [p for p in self.pending if p != text]

    def _on_transcript(self, event: UserInputTranscribedEvent) -> None:
        if not event.is_final or not event.transcript.strip():
            return
        speech = self.side_effect_speaking()
        if speech is None:
            return
        if not self._heard:
            speech.add_done_callback(lambda _: self._spawn(self._after_side_effect()))
        self._heard.append(event.transcript.strip())

    async def _after_side_effect(self) -> None:
        await asyncio.sleep(self._commit_grace_s)
        heard, self._heard = " ".join(self._heard), []
        if heard and not self._in_history(heard):
            self.hold(heard)

    def _in_history(self, text: str) -> bool:
        for item in reversed(self._session.history.items[-6:]):
            if item.type == "message" and item.role == "user":
                said = item.text_content or ""
                if text in said or said in text:
                    return True
        return False

    def _on_close(self, _: CloseEvent) -> None:
        # The caller hung up before a kept turn was answered: it still reaches the history
        # that the end-of-call write reads.
        for text in self.pending:
            self._session.history.add_message(role="user", content=text)
        self.pending = []

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def side_effect_speaking(session: AgentSession[Any]) -> Any | None:
    """The current speech when it may not be interrupted and is still playing."""
    speech = getattr(session, "current_speech", None)
    if speech is None or speech.done() or speech.interrupted or speech.allow_interruptions:
        return None
    return speech


_KEEPERS: weakref.WeakKeyDictionary[AgentSession[Any], TurnKeeper] = weakref.WeakKeyDictionary()


def keeper_for(session: AgentSession[Any]) -> TurnKeeper:
    """The session's keeper, attached on first use."""
    keeper = _KEEPERS.get(session)
    if keeper is None:
        keeper = _KEEPERS[session] = TurnKeeper(session).attach()
    return keeper


async def deliver_text(session: AgentSession[Any], event: room_io.TextInputEvent) -> None:
    """LiveKit's text handling (claim the turn, interrupt, reply), except while a side effect
    is speaking: then the turn is queued behind it instead of being lost."""
    if side_effect_speaking(session) is None:
        try:
            await _default_text_input_cb(session, event)
            return
        except RuntimeError as exc:
            if _UNINTERRUPTIBLE not in str(exc):
                raise
    keeper_for(session).hold(event.text)
