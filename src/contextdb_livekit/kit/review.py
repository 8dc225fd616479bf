"""The host reads back what a call would change in memory; only the caller's yes makes it a fact.

Memory stays true only if what it keeps is what the caller meant. Before the call ends the
line's review tool has the host say, in its own words and once, what it is about to note
("Before you go, I'll note that Thursdays no longer work for you. Is that right?"). The
caller's answer to that read-back — the first caller turn after it was heard in full, with no
agent turn in between — settles every change it named:

- a yes (read by the kit's reply reader) confirms exactly what was read back, and the host
  keeps the attestation (its own words, the caller's answer) before anything is written;
- a no drops what was read back: memory keeps what it held;
- anything else — no answer, a hang-up, a question, a hedge, a read-back spoken over — leaves
  the changes unconfirmed, and the line keeps them only as the caller's quoted words.

What the line changes and how it words them is the line's (`LineProfile` review hooks); this
module knows neither.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from livekit.agents import AgentSession, llm

from contextdb_livekit.kit.context import CallContext, Review, ReviewAnswer
from contextdb_livekit.kit.readback import ReadBack, conversation
from contextdb_livekit.kit.replies import classify_reply
from contextdb_livekit.kit.target import InvalidTarget, Mention
from contextdb_livekit.memory.caller_text import clean_caller_text
from contextdb_livekit.memory.errors import MemoryLayerError

log = logging.getLogger("contextdb_livekit.kit.review")

# How every review read-back opens: the extractor never reads the caller's answer to it as a
# fact about the topic it names (the reader:
# `reading.turn_cues.read_question`).
REVIEW_OPENING = "Before you go, I'll note that"
# One read-back names at most this many changes; the rest stay unconfirmed (quoted).
MAX_CHANGES_READ_BACK = 4


def review_sentence(changes: Sequence[str]) -> str:
    """ "Before you go, I'll note that A, B and C. Is that right?" """
    if not changes:
        raise ValueError("a review names at least one change")
    listed = changes[0] if len(changes) == 1 else f"{', '.join(changes[:-1])} and {changes[-1]}"
    return f"{REVIEW_OPENING} {listed}. Is that right?"


def start_review(session: AgentSession, keys: Sequence[str], spoken: Sequence[str]) -> Review:
    """Have the host say the read-back (`session.say`, never the model). Not awaited: from a
    tool it plays once the tool's turn is over."""
    text = review_sentence(spoken)
    return Review(ReadBack(text, session.say(text, add_to_chat_ctx=True)), frozenset(keys))


class _NoTarget:
    """A memory review is about the changes it names, not about a day or an amount: nothing in
    the answer is a new target, so the reply reader reads only yes, no or neither."""

    noun = "detail"

    def parse(self, text: str, *, today: date) -> None:
        raise InvalidTarget("a memory review has no target")

    def spoken(self, target: None) -> str:
        return ""

    def key(self, target: None) -> str:
        return ""

    def protect(self, folded: str) -> str:
        return folded

    def mentions(
        self, tokens: Sequence[str], *, offered: None, today: date | None
    ) -> list[Mention]:
        return []


NO_TARGET = _NoTarget()


@dataclass(frozen=True)
class ReviewReply:
    answer: ReviewAnswer
    # The caller's turn that answered (only for yes/no): kept with the attestation.
    turn: llm.ChatMessage | None = None


def read_reply(history: llm.ChatContext, review: Review | None) -> ReviewReply:
    """The caller's answer to the host's review read-back, as the conversation holds it."""
    if review is None:
        return ReviewReply("unanswered")
    heard = review.readback.heard_message()
    if heard is None:
        return ReviewReply("unanswered")  # never played in full: nothing said answers it
    messages = conversation(history)
    position = next((i for i, m in enumerate(messages) if m.id == heard.id), None)
    if position is None:
        return ReviewReply("unanswered")
    after = messages[position + 1 :]
    if not after or after[0].role != "user":
        # No answer, or the agent spoke first: what the caller said then answered that.
        return ReviewReply("unanswered")
    answer = after[0]
    reading = classify_reply(clean_caller_text(answer.text_content or ""), NO_TARGET)
    if reading.kind == "yes":
        return ReviewReply("yes", answer)
    if reading.kind == "no":
        return ReviewReply("no", answer)
    return ReviewReply("unanswered")


async def settle_review(call: CallContext, history: llm.ChatContext) -> ReviewAnswer:
    """Read the caller's answer once the call is over and keep it on the call
    (`CallContext.review_answer`). A yes counts only once its attestation is kept: evidence
    that cannot be kept means nothing is confirmed."""
    reply = read_reply(history, call.review)
    answer = reply.answer
    identity = call.identity
    if answer == "yes" and call.review is not None and reply.turn is not None:
        heard = call.review.readback.heard_message()
        if identity is None or heard is None:
            answer = "unanswered"
        else:
            try:
                await call.host.attestations.record(
                    customer_id=identity.customer_id,
                    actor_id=identity.actor_id,
                    channel=identity.channel,
                    room_name=identity.room_name,
                    memory_ids=[],
                    question_turn_id=heard.id,
                    question_text=call.review.readback.text,
                    turn_id=reply.turn.id,
                    turn_text=reply.turn.text_content or "",
                )
            except MemoryLayerError as exc:
                log.warning("review attestation not kept (%s): changes stay unconfirmed", exc)
                answer = "unanswered"
    call.review_answer = answer
    return answer
