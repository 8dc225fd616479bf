"""`forget_caller_details`: the caller asks the line to forget them, in the call.

"Forget my details" erases everything held about the caller, in every store, exactly as
`python -m contextdb_livekit.caller_data erase` does; "don't keep anything from this call"
keeps nothing this call said. Either runs through the gated-action kit like a booking: the
host reads the request back itself ("Just to confirm: shall I erase the details we hold
about you?"), only the caller's yes to that read-back runs it, and its decision is closed by
exactly one receipt. Its target is the kit's third kind, after a day and an amount: what to
forget.

What survives the erasure is what exactly-once delivery needs, without the caller: this
action's own decision and receipt are stripped when the call ends (`kit.keep_nothing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from livekit.agents.llm import FunctionTool

from contextdb_livekit.caller_data.erase import ErasureReport, erase_caller
from contextdb_livekit.caller_data.stores import for_host
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.action_tool import build_action_tool
from contextdb_livekit.kit.actions import Attempt, GatedAction, Outcome, Resolution, ToolText
from contextdb_livekit.kit.context import HostServices
from contextdb_livekit.kit.keep_nothing import KeepNothing, Scope, drop_call_rows
from contextdb_livekit.kit.replies import ActionWords
from contextdb_livekit.kit.target import InvalidTarget, Mention
from contextdb_livekit.stores.caller_data import CallerDataStore
from contextdb_livekit.stores.outbox import IntentResolver

ACTION_NAME = "forget_caller_details"
_INVALID = "Say what to forget: 'everything' or 'this call'."
# How the model may name the scope (the tool's argument), folded to lower case.
_EVERYTHING = frozenset(
    {"everything", "all", "all my details", "my details", "everything about me", "me"}
)
_THIS_CALL = frozenset({"this call", "this_call", "this conversation", "today's call"})
# Read back as "shall I erase the details we hold about you?". Not "forget everything":
# the request is stored in memory in these words, and pycontextdb's injection screen
# (rightly) flags "forget everything" as an instruction, which would fail the action closed.
_SPOKEN: dict[str, str] = {
    "everything": "the details we hold about you",
    "this_call": "what you said in this call",
}


FORGET_TOOL = ToolText(
    'Call when the caller asks us to forget them ("forget my details", "delete what\n'
    'you have on me") or not to keep anything from this call. The host reads the request\n'
    "back and only the caller's yes to that runs it.",
    argument="scope",
    argument_description='"everything" (all we hold about the caller) or "this call".',
)


@dataclass(frozen=True)
class ForgetScopes:
    """What to forget: "everything" or "this_call". A reply names one as "everything" or
    "this call" / "this conversation"."""

    noun: str = "scope"

    def parse(self, text: str, *, today: date) -> Scope:
        if not isinstance(text, str) or len(text) > 40:
            raise InvalidTarget(_INVALID)
        folded = " ".join(text.lower().replace("_", " ").split())
        if folded in _EVERYTHING:
            return "everything"
        if folded in _THIS_CALL or folded.replace("_", " ") in _THIS_CALL:
            return "this_call"
        raise InvalidTarget(_INVALID)

    def spoken(self, target: Scope) -> str:
        return _SPOKEN[target]

    def key(self, target: Scope) -> str:
        return target

    def protect(self, folded: str) -> str:
        return folded

    def mentions(
        self, tokens: Sequence[str], *, offered: Scope | None, today: date | None
    ) -> list[Mention]:
        found: list[Mention] = []
        i = 0
        while i < len(tokens):
            if tokens[i] == "everything":
                found.append(Mention(i, i + 1, "everything", offered == "everything"))
                i += 1
            elif (
                tokens[i] == "this"
                and i + 1 < len(tokens)
                and tokens[i + 1]
                in (
                    "call",
                    "conversation",
                )
            ):
                found.append(Mention(i, i + 2, "this call", offered == "this_call"))
                i += 2
            else:
                i += 1
        return found


FORGET_SCOPE = ForgetScopes()

# How a caller names forgetting in the answer to its read-back. Not "forget it": in English
# that is "never mind".
FORGET_WORDS = ActionWords(
    agree=(
        # The verb alone, since "everything" / "this call" are read as the target.
        "erase",
        "delete",
        "wipe",
        "forget me",
        "forget my details",
        "forget everything",
        "forget all of it",
        "delete my details",
        "delete everything",
        "delete all of it",
        "erase my details",
        "erase everything",
        "wipe my details",
        "wipe everything",
        "remove my details",
    ),
    refuse=(
        "keep my details",
        "keep them",
        "keep everything",
        "rather you kept them",
    ),
)


def forget_action(host: HostServices) -> GatedAction[Scope]:
    """The action on this call's host: its stores are what "everything" erases."""

    def stores() -> list[CallerDataStore]:
        return for_host(host)

    async def precheck(identity: CallerIdentity, scope: Scope) -> str | None:
        return None

    async def authorize(identity: CallerIdentity, scope: Scope) -> bool:
        # The caller's own data; how sure we are that this is the caller is the kit's check
        # (a caller-ID-only caller cannot erase anyone by spoofing their number).
        return True

    async def execute(attempt: Attempt[Scope]) -> Outcome:
        customer_id = attempt.identity.customer_id
        if attempt.target == "this_call":
            if attempt.call_id:
                await drop_call_rows(host.outbox, customer_id, attempt.call_id)
            return Outcome(
                "succeeded",
                "Done: nothing from this call will be kept. Tell the caller, briefly.",
                external_ref="this_call",
            )
        report = await erase_caller(stores(), customer_id)
        if report.failed:
            return Outcome(
                "failed",
                "Part of the caller's details could not be removed just now. Tell the caller "
                "the team will finish removing them and confirm.",
                error_code="erase_incomplete",
            )
        return Outcome(
            "succeeded",
            "Done: everything we held about the caller is forgotten. Do not repeat anything "
            "from their earlier details. Tell the caller it is done.",
            external_ref="everything",
        )

    async def resolve(host_key: str) -> Resolution:
        # By key alone the erasure cannot be told apart from its absence: the forget intent
        # resolver (below) redoes it from the intent's own payload.
        return Resolution(False, error_code="interrupted_before_forgetting")

    def remember(attempt: Attempt[Scope], outcome: Outcome) -> KeepNothing:
        customer_id = attempt.identity.customer_id

        async def erase_again() -> ErasureReport:
            return await erase_caller(stores(), customer_id)

        if attempt.target == "everything":
            return KeepNothing("everything", after_call=erase_again)
        return KeepNothing("this_call")

    return GatedAction(
        name=ACTION_NAME,
        phrase="erase",
        target=FORGET_SCOPE,
        words=FORGET_WORDS,
        precheck=precheck,
        authorize=authorize,
        execute=execute,
        resolve=resolve,
        remember=remember,
        tool=FORGET_TOOL,
    )


def forget_intent_resolver(stores: Sequence[CallerDataStore]) -> IntentResolver:
    """Crash recovery of a forget whose outcome nobody recorded: the erasure is idempotent,
    so it is simply run (again) for the intent's caller. "This call" cannot be redone after
    the call: nothing more was kept by it, but what its checkpoints queued before the yes
    may still be delivered (README "Caller data")."""

    async def resolve(payload: dict[str, Any]) -> dict[str, Any]:
        if payload.get("target") != "everything":
            return Resolution(False, error_code="interrupted_before_forgetting").receipt()
        report = await erase_caller(stores, str(payload["customer_id"]))
        if report.failed:
            raise RuntimeError(f"erase incomplete: {sorted(report.failed)}")  # retried later
        return Resolution(True, external_ref="everything").receipt()

    return resolve


def build_forget_tool(action: GatedAction[Scope], identity: CallerIdentity) -> FunctionTool:
    return build_action_tool(action, identity)
