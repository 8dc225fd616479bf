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

What the line changes and how it words them is the line's; this module knows neither. It
holds the review tool (`build_review_tool`: when to read back, given the line's changes in
its words) and how an answer settles them (`settle_changes`, given the line's facts).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from livekit.agents import AgentSession, RunContext, function_tool, llm
from livekit.agents.llm import FunctionTool, ToolResult

from contextdb_livekit.identity import CallerIdentity
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
REVIEW_TOOL = "review_caller_details"

# One of the line's facts.
F = TypeVar("F")


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


def build_review_tool(
    identity: CallerIdentity,
    changes: Callable[[RunContext[Any]], Sequence[tuple[str, str]]],
) -> FunctionTool:
    """The review tool: the host reads back the call's changes to memory before goodbye.
    `changes` is the line's: what this call would change, as (key, the change in the host's
    words), extracted from the conversation when the tool is called."""

    async def review_caller_details(context: RunContext[CallContext]) -> str | ToolResult:
        """Call once when the caller is ready to end the call, before saying goodbye. The
        system reads back to the caller what it will remember from this call; say nothing
        about it yourself. When they answer, thank them and say goodbye."""
        call = context.userdata
        if not call.is_caller(identity):
            return "This call is no longer verified. Say goodbye."
        if not call.host.memory_settings.change_readback:
            return "Nothing to read back. Say goodbye."
        if call.review is not None and call.review.readback.playing:
            return ToolResult(
                "The read-back is still playing. Say nothing; wait for the caller.",
                reply_required=False,
            )
        pending = list(changes(context))[:MAX_CHANGES_READ_BACK]
        if not pending:
            return "Nothing new to note from this call. Say goodbye."
        keys = [key for key, _ in pending]
        if (
            call.review is not None
            and set(keys) <= call.review.keys
            and read_reply(context.session.history, call.review).answer != "unanswered"
        ):
            # Asked again after the caller answered this very read-back: once is enough.
            return "The caller has already answered the read-back. Say goodbye."
        call.review = start_review(context.session, keys, [words for _, words in pending])
        call.review_answer = None
        return ToolResult(
            "I have read back to the caller what I will note. Say nothing now; when they "
            "answer, thank them and say goodbye.",
            reply_required=False,
        )

    return function_tool(review_caller_details, name=REVIEW_TOOL)


def settle_changes(
    call: CallContext,
    facts: Sequence[F],
    *,
    changes: Sequence[F],
    key: Callable[[F], str],
    held: Callable[[F], bool],
    confirmed: Callable[[F], F],
    unconfirmed: Callable[[F], F],
) -> list[F]:
    """The facts to write once the caller's answer to the review is known (or not), by the
    line's `key` of a change:

    - a fact that is none of the `changes` is kept unless memory already `held` it (a
      restatement never replaces what the caller confirmed before);
    - a change the caller's yes to the read-back named is kept `confirmed`;
    - a change their no named is dropped: memory keeps what it held;
    - any other change (not read back, no answer, hang-up) is kept `unconfirmed`.
    """
    pending = {key(f) for f in changes}
    review, answer = call.review, call.review_answer
    kept: list[F] = []
    for fact in facts:
        change = key(fact)
        if change not in pending:
            if not held(fact):
                kept.append(fact)  # notes, quotes and what is not the caller's own word
        elif review is not None and change in review.keys and answer == "yes":
            kept.append(confirmed(fact))
        elif review is not None and change in review.keys and answer == "no":
            continue  # "no, that's not right": memory keeps what it held
        else:
            kept.append(unconfirmed(fact))
    return kept
