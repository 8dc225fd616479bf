"""The host's read-back: the exact words a caller's yes answers, spoken by the host, not the model.

When a gated action needs the caller's consent, the tool has the agent say the host's own
sentence through `session.say` (TTS, never a model generation): the request with its target,
and any caution the caller's history gives. The offer keeps that speech, and only the
caller's answer to the *latest* host read-back can confirm it: the read-back is found in the
conversation as the chat item its own speech added, never by what it says. A question the
model writes ("is Thursday still a good day to reach you?") is never a read-back, whatever
it names.

    readback = read_back(context.session, "book a service visit on Thursday 10 December", caution)
    ...
    heard = readback.heard_message()   # the chat item the caller heard, once played in full
"""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import AgentSession, llm
from livekit.agents.llm import ChatMessage
from livekit.agents.voice import SpeechHandle


def readback_sentence(request: str, caution: str | None = None) -> str:
    """What the caller hears: "Just to confirm: shall I book a service visit on Thursday 10
    December?", with the caution first when the caller's history goes against the request."""
    question = f"shall I {request}?"
    if caution:
        return f"Just to confirm: {caution} {question[0].upper()}{question[1:]}"
    return f"Just to confirm: {question}"


@dataclass(frozen=True)
class ReadBack:
    """One host read-back: the sentence and the speech that carries it."""

    text: str
    speech: SpeechHandle

    @property
    def playing(self) -> bool:
        """Not yet in the conversation: the caller has not heard it to its end."""
        return not self.speech.done() and not self.speech.chat_items

    def heard_message(self) -> ChatMessage | None:
        """The read-back as it entered the conversation, if the caller heard all of it.

        LiveKit stores what was actually played (the synchronised transcript): a read-back
        the caller spoke over is stored cut short, so nothing said over it answers it. A
        caller's turn that lands just as the last word plays still finds it whole.
        """
        for item in self.speech.chat_items:
            if (
                isinstance(item, ChatMessage)
                and item.role == "assistant"
                and _words(item.text_content or "") == _words(self.text)
            ):
                return item
        return None


def conversation(history: llm.ChatContext) -> list[ChatMessage]:
    """The caller's and the agent's messages, in order: what a read-back's answer is found in."""
    return [
        item
        for item in history.items
        if isinstance(item, ChatMessage) and item.role in ("user", "assistant")
    ]


def _words(text: str) -> list[str]:
    return text.split()


def read_back(session: AgentSession, request: str, caution: str | None) -> ReadBack:
    """Have the host say the read-back. Not awaited: from inside a tool, the speech plays
    once the tool's own turn is over, so the caller hears it right after the tool returns."""
    text = readback_sentence(request, caution)
    return ReadBack(text, session.say(text, add_to_chat_ctx=True))
