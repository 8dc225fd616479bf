"""`confirm_visit_details`: the caller's spoken yes closes the ask → confirm → act loop.

The model cannot name what gets confirmed. Only the last `ask`'s offer is confirmable, and
only by a caller turn that answers its read-back:

- the read-back is the first agent turn after the ask that names the offered day;
- the answer is the caller's latest turn, after that read-back, within `ANSWER_WINDOW_S`,
  with no other caller turn in between that changed the subject;
- the host classifier must read it as a yes to *that* day (`tools.replies`): a different day
  is a new request, and hedges, questions and "hold on" are not a yes.

The attestation (question, answer, both turn ids) is stored before ContextDB is told.
"""

from __future__ import annotations

import logging

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import ChatMessage, FunctionTool

from identity import CallerIdentity
from memory.errors import MemoryLayerError
from tools.context import CallContext, Offer
from tools.replies import classify_reply
from tools.speech import spoken_day

log = logging.getLogger("tools.confirmation")

ANSWER_WINDOW_S = 120.0
# The caller's answer may come in a turn or two ("mm, let me think … yes"), not later.
MAX_TURNS_AFTER_READBACK = 2


def _messages(context: RunContext[CallContext]) -> list[ChatMessage]:
    return [
        item
        for item in context.session.history.items
        if item.type == "message" and item.role in ("user", "assistant")
    ]


def _names_day(text: str, offer: Offer) -> bool:
    lowered = text.lower()
    return offer.day.strftime("%A").lower() in lowered or offer.day.isoformat() in lowered


def find_answer(
    messages: list[ChatMessage], offer: Offer
) -> tuple[ChatMessage | None, ChatMessage | None, str]:
    """(read-back, answer, why-not) for the open offer."""
    readback = next(
        (
            m
            for m in messages
            if m.role == "assistant"
            and m.created_at >= offer.asked_at
            and _names_day(m.text_content or "", offer)
        ),
        None,
    )
    if readback is None:
        return None, None, "no_readback"
    after = [m for m in messages if m.created_at > readback.created_at]
    replies = [m for m in after if m.role == "user"]
    if not replies:
        return readback, None, "no_answer_yet"
    if len(replies) > MAX_TURNS_AFTER_READBACK:
        return readback, None, "answer_too_late"
    answer = replies[-1]
    if answer.created_at - readback.created_at > ANSWER_WINDOW_S:
        return readback, None, "answer_too_late"
    # The answer must answer *this* question: an agent turn in between that asked something
    # else ("are you still at Elm Road?") makes the "yes" an answer to that one.
    asked_between = [
        m
        for m in after
        if m.role == "assistant"
        and m.created_at < answer.created_at
        and not _names_day(m.text_content or "", offer)
    ]
    if asked_between:
        return readback, None, "answered_another_question"
    return readback, answer, ""


_WHY_NOT = {
    "no_readback": (
        "Not confirmed: you have not read the details back to the caller yet. Ask them out "
        "loud first and wait for their answer."
    ),
    "no_answer_yet": "Not confirmed: the caller has not answered the read-back yet. Wait.",
    "answered_another_question": (
        "Not confirmed: the caller's last answer was to a different question. Read the "
        "details back again and ask."
    ),
    "answer_too_late": (
        "Not confirmed: that question was a while ago. Read the details back again and ask."
    ),
}


def build_confirmation_tool(identity: CallerIdentity) -> FunctionTool:
    async def confirm_visit_details(context: RunContext[CallContext]) -> str:
        """Record that the caller just said yes to the details you read back to them.

        Call only right after the caller clearly agreed out loud.
        """
        call = context.userdata
        if not call.is_caller(identity) or call.memory is None:
            return "This call is no longer verified. Do not act on the account."
        offer = call.offer
        if offer is None:
            raise ToolError("Nothing is waiting for confirmation. Call book_visit first.")
        readback, answer, why_not = find_answer(_messages(context), offer)
        if answer is None or readback is None:
            return _WHY_NOT[why_not]
        answer_text = answer.text_content or ""
        reading = classify_reply(answer_text, offered=offer.day, today=call.today())
        log.info("reply to read-back for caller %s: %s", identity.log_id, reading.kind)
        if reading.kind == "new_request":
            call.offer = None
            return (
                f"Not confirmed: the caller asked for {reading.day} instead. Call "
                f"{offer.action_name} with that day."
            )
        if reading.kind == "no":
            call.offer = None
            return "The caller said no. Nothing was changed. Ask what they would like instead."
        if reading.kind != "yes":
            return "The caller has not clearly said yes. Ask them again to confirm."
        try:
            # Evidence first: the host keeps who said yes to what, before ContextDB is told;
            # evidence that cannot be kept means nothing is confirmed.
            attestation = await call.host.attestations.record(
                customer_id=identity.customer_id,
                actor_id=identity.actor_id,
                channel=identity.channel,
                room_name=identity.room_name,
                memory_ids=list(offer.memory_ids),
                question_turn_id=readback.id,
                question_text=readback.text_content or "",
                turn_id=answer.id,
                turn_text=answer_text,
            )
            for memory_id in offer.memory_ids:
                await call.memory.confirm(memory_id, attestation_id=attestation.attestation_id)
        except MemoryLayerError as exc:
            log.warning("confirm failed for caller %s: %s", identity.log_id, exc)
            return "I couldn't save the confirmation just now. Apologise and try again shortly."
        call.offer = None
        return (
            f"Confirmed: {spoken_day(offer.day)}. Now call {offer.action_name} again with "
            "the same day."
        )

    return function_tool(confirm_visit_details, name="confirm_visit_details")
