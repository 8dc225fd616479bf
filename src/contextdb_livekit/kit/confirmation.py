"""The confirmation tool: the caller's spoken yes to the host's read-back runs the action.

The model cannot name what gets confirmed, nor write the question a yes answers. Only the
last `ask`'s offer is confirmable, and only by a caller turn that answers the *host's*
latest read-back of it (`contextdb_livekit.kit.readback`, spoken with `session.say`):

- the answer is the caller's latest turn after that read-back, within `ANSWER_WINDOW_S` and
  `MAX_TURNS_AFTER_READBACK`, with no agent turn in between (a question the model asked
  there, whatever it names, makes the yes an answer to that question);
- the host reply reader must read it as a yes to *that* action on *that* target
  (`kit.replies`, with the action's own words and its target kind): a different day or
  amount is a new request, and hedges, questions and "hold on" are not a yes.

On a realtime session the caller's words can reach the history after the model has already
called this tool (the provider transcribes separately and may finish after its response):
when the provider announced caller audio after the read-back whose words have not arrived,
the tool waits for them within `CallerTurns.transcript_wait_s` (`kit.caller_turns`) and
reads the answer only then. Words that never come are never a yes: the host says it did not
catch that and reads the request back again.

When there is no answer that counts (none yet, too late, another question in between, the
read-back spoken over) the host reads the request back again, a fresh answer window: a
caller is never stranded. A valid yes is kept as an attestation (question, answer, both turn
ids) before ContextDB is told, then the action runs in the same tool call, so the model
only speaks the result.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from livekit.agents import RunContext, ToolError, function_tool
from livekit.agents.llm import ChatMessage, FunctionTool, ToolResult

from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.actions import GatedAction, run_for_target
from contextdb_livekit.kit.context import CallContext, Offer
from contextdb_livekit.kit.readback import ReadBack, conversation, read_back
from contextdb_livekit.kit.replies import classify_reply
from contextdb_livekit.memory.errors import MemoryLayerError

log = logging.getLogger("contextdb_livekit.kit.confirmation")

ANSWER_WINDOW_S = 120.0
# The caller's answer may come in a turn or two ("mm, let me think … yes"), not later.
MAX_TURNS_AFTER_READBACK = 2


def find_answer(
    messages: Sequence[ChatMessage], readback: ChatMessage
) -> tuple[ChatMessage | None, str]:
    """(answer, why-not) to the host read-back `readback` in the conversation `messages`."""
    position = next((i for i, m in enumerate(messages) if m.id == readback.id), None)
    if position is None:
        return None, "not_heard"
    after = list(messages[position + 1 :])
    last_reply = max((i for i, m in enumerate(after) if m.role == "user"), default=None)
    if last_reply is None:
        return None, "no_answer_yet"
    # Agent turns after the caller's latest one (the model's preamble to this tool call) do
    # not matter; one before it means the caller answered *that* instead.
    between = after[: last_reply + 1]
    if any(m.role == "assistant" for m in between):
        return None, "answered_another_question"
    if len(between) > MAX_TURNS_AFTER_READBACK:
        return None, "answer_too_late"
    answer = between[-1]
    if answer.created_at - readback.created_at > ANSWER_WINDOW_S:
        return None, "answer_too_late"
    return answer, ""


WAIT = ToolResult(
    "Not confirmed yet: the read-back is still playing. Say nothing; wait for the caller.",
    reply_required=False,
)


def _read_again_result(name: str) -> ToolResult:
    return ToolResult(
        "Not confirmed: the caller's answer was not to the read-back, so I have read it back "
        f"to them again. Say nothing now; when they answer, call {name}.",
        reply_required=False,
    )


# Said before the read-back when the caller spoke but their words never reached the host.
NOT_CAUGHT = "Sorry, I didn't catch that."


def _not_caught_result(name: str) -> ToolResult:
    # Not "not to the read-back": the caller may well have answered it; the host did not get
    # their words, so it asked again.
    return ToolResult(
        "Not confirmed: I did not catch the caller's answer, so I have asked them again. Say "
        f"nothing now; when they answer, call {name}.",
        reply_required=False,
    )


# A second confirmation call (parallel tool calls) while the first waited for the caller's
# words: the first one reads the answer; this one has nothing to add.
ALREADY_HANDLED = ToolResult(
    "Already being handled: the caller's answer was read by another call. Say nothing.",
    reply_required=False,
)


def build_confirmation_tool(
    identity: CallerIdentity,
    actions: Sequence[GatedAction[Any]],
    *,
    name: str,
    description: str,
) -> FunctionTool:
    """The one tool every gated action's read-back is answered through. `name` and
    `description` are the model's view of it (the domain words them)."""
    by_name = {action.name: action for action in actions}

    async def confirm(context: RunContext[CallContext]) -> str | ToolResult:
        call = context.userdata
        if not call.is_caller(identity) or call.memory is None:
            return "This call is no longer verified. Do not act on the account."
        offer = call.offer
        if offer is None:
            raise ToolError("Nothing is waiting for confirmation. Call the action's tool first.")
        action = by_name[offer.action_name]
        if offer.readback.playing:
            return WAIT
        heard = offer.readback.heard_message()
        turns = call.caller_turns
        must_wait = (
            heard is not None
            and turns is not None
            and bool(turns.untranscribed_since(heard.created_at))
        )
        # While waiting for the caller's words, LiveKit ends the caller's turn as they land and
        # interrupts the tools still running (realtime sessions included): held, this tool
        # is not cut off by the very answer it is waiting for. Let go unless it acts.
        held = _hold(context) if must_wait else False
        try:
            verdict = await read_answer(context, offer, action, heard, must_wait)
        except BaseException:
            _let_go(context, held)
            raise
        if not isinstance(verdict, _Confirmed):
            _let_go(context, held)
            return verdict
        # The confirmed request runs now, through the same gate: decision → act → receipt.
        return await run_for_target(action, context, identity, offer.target)

    async def read_answer(
        context: RunContext[CallContext],
        offer: Offer,
        action: GatedAction[Any],
        heard: ChatMessage | None,
        must_wait: bool,
    ) -> str | ToolResult | _Confirmed:
        """The caller's answer to `offer`'s read-back, read: `_Confirmed` when it is a yes
        kept as evidence, else what the model is told."""
        call = context.userdata
        assert call.memory is not None  # checked by the caller, re-checked after any wait
        if must_wait and heard is not None and call.caller_turns is not None:
            # The caller spoke after the read-back (the provider announced their audio) but
            # the words are not in the history yet: read the answer only once they are.
            missing = await call.caller_turns.wait_for_words(heard.created_at)
            if not call.is_caller(identity) or call.memory is None:
                # Revoked while waiting (another participant, failed re-authentication).
                return "This call is no longer verified. Do not act on the account."
            if call.offer is not offer:
                return ALREADY_HANDLED
            if missing:
                log.info("read-back for caller %s read again: not_caught", identity.log_id)
                _read_again(context, action, offer, preface=NOT_CAUGHT)
                return _not_caught_result(name)
        answer, why_not = (
            (None, "not_heard")
            if heard is None
            else find_answer(conversation(context.session.history), heard)
        )
        if answer is None or heard is None:
            log.info("read-back for caller %s read again: %s", identity.log_id, why_not)
            _read_again(context, action, offer)
            return _read_again_result(name)
        answer_text = answer.text_content or ""
        reading = classify_reply(
            answer_text,
            action.target,
            offered=offer.target,
            today=call.today(),
            action=action.words,
        )
        log.info("reply to read-back for caller %s: %s", identity.log_id, reading.kind)
        if reading.kind == "new_request":
            call.offer = None
            return (
                f"Not confirmed: the caller asked for {reading.target} instead. Call "
                f"{offer.action_name} with that {action.target.noun}."
            )
        if reading.kind == "no":
            call.offer = None
            return "The caller said no. Nothing was changed. Ask what they would like instead."
        if reading.kind != "yes":
            return (
                "Not confirmed: that was not a clear yes. Answer what they asked if anything; "
                f"when they are ready, call {name} and I will read it back again."
            )
        # Claimed before the first await: a second confirm in the same turn (parallel tool
        # calls) finds nothing to confirm, so one yes runs one action.
        call.offer = None
        try:
            # Evidence first: the host keeps who said yes to which host words, before
            # ContextDB is told; evidence that cannot be kept means nothing is confirmed.
            attestation = await call.host.attestations.record(
                customer_id=identity.customer_id,
                actor_id=identity.actor_id,
                channel=identity.channel,
                room_name=identity.room_name,
                memory_ids=list(offer.memory_ids),
                question_turn_id=heard.id,
                question_text=offer.readback.text,
                turn_id=answer.id,
                turn_text=answer_text,
            )
            for memory_id in offer.memory_ids:
                await call.memory.confirm(memory_id, attestation_id=attestation.attestation_id)
        except MemoryLayerError as exc:
            log.warning("confirm failed for caller %s: %s", identity.log_id, exc)
            if call.offer is None:
                call.offer = offer
            return "I couldn't save the confirmation just now. Apologise and try again shortly."
        return _Confirmed()

    return function_tool(confirm, name=name, description=description)


class _Confirmed:
    """`read_answer`'s "a yes, kept as evidence: run the action"."""


def _hold(context: RunContext[CallContext]) -> bool:
    """Make the tool's speech uninterruptible while it waits; False if it already was (or
    was already interrupted: then LiveKit drops this tool's result anyway)."""
    speech = context.speech_handle
    if speech.interrupted or not speech.allow_interruptions:
        return False
    context.disallow_interruptions()
    return True


def _let_go(context: RunContext[CallContext], held: bool) -> None:
    if held and not context.speech_handle.interrupted:
        context.speech_handle.allow_interruptions = True


def _read_again(
    context: RunContext[CallContext],
    action: GatedAction[Any],
    offer: Offer,
    *,
    preface: str | None = None,
) -> None:
    if preface is not None:
        # Its own speech, before the read-back: the read-back stays the host's exact sentence.
        context.session.say(preface, add_to_chat_ctx=True)
    readback: ReadBack = read_back(context.session, action.request(offer.target), offer.reason)
    context.userdata.offer = replace(offer, readback=readback)
