"""`apply_service_credit`: a gated action whose target is an amount, not a day.

Added with the kit alone (README "Adding a gated action"): the model names only the amount,
the host reads it back ("Just to confirm: shall I apply a service credit of £25.00?"), the
caller's yes to that applies exactly one credit with exactly one receipt, and a crash or a lost
answer is resolved by the credit's own idempotency key through the outbox.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from livekit.agents import RunContext, function_tool
from livekit.agents.llm import FunctionTool, ToolResult

from billing_client import BillingClient, CreditRefused
from contextdb_livekit.api import (
    ActionWords,
    Attempt,
    CallerIdentity,
    FactToRemember,
    GatedAction,
    GatedTool,
    InvalidTarget,
    Mention,
    Outcome,
    Resolution,
    run_gated_action,
)
from memory.facts import HOST_CONFIDENCE
from tools.systems import VisitCall, VisitSystems

# The most one call may credit, and the most an account may hold in credits.
MAX_CREDIT_PENCE = 10_000
ACCOUNT_CREDIT_CAP_PENCE = 20_000

_SPOKEN_INVALID = "Say the amount in pounds, like 25 or 25.50, up to £100."
_MODEL_AMOUNT = re.compile(r"£?\s*([0-9]{1,3})(?:\.([0-9]{2}))?(?:\s*(?:pounds|gbp))?")


def spoken_amount(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


@dataclass(frozen=True)
class CreditAmounts:
    """Amounts in pence, from 1p to `max_pence`. A reply names one as "£25", "£25.50",
    "25.50", "25 pounds", "25 quid", "twenty five pounds", or a bare "25" (pounds)."""

    max_pence: int = MAX_CREDIT_PENCE
    noun: str = "amount"

    def parse(self, text: str, *, today: date) -> int:
        if not isinstance(text, str) or len(text) > 20:
            raise InvalidTarget(_SPOKEN_INVALID)
        match = _MODEL_AMOUNT.fullmatch(" ".join(text.lower().split()))
        if match is None:
            raise InvalidTarget(_SPOKEN_INVALID)
        pence = int(match.group(1)) * 100 + int(match.group(2) or 0)
        if not 0 < pence <= self.max_pence:
            raise InvalidTarget(_SPOKEN_INVALID)
        return pence

    def spoken(self, target: int) -> str:
        return f"of {spoken_amount(target)}"

    def key(self, target: int) -> str:
        return str(target)

    def protect(self, folded: str) -> str:
        # "£25.50", "£25", "25.50" become one word each before "." ends a clause.
        folded = _POUNDS_SIGN.sub(lambda m: f" amt{_pence(m.group(1), m.group(2))} ", folded)
        return _DECIMAL.sub(lambda m: f" amt{_pence(m.group(1), m.group(2))} ", folded)

    def mentions(
        self, tokens: Sequence[str], *, offered: int | None, today: date | None
    ) -> list[Mention]:
        found: list[Mention] = []
        i = 0
        while i < len(tokens):
            amount = _amount_at(tokens, i)
            if amount is None:
                i += 1
                continue
            pence, end = amount
            found.append(Mention(i, end, spoken_amount(pence), pence == offered))
            i = end
        return found


CREDIT_AMOUNT = CreditAmounts()

_POUNDS_SIGN = re.compile(r"£\s?([0-9]{1,6})(?:\.([0-9]{2}))?\b")
_DECIMAL = re.compile(r"\b([0-9]{1,6})\.([0-9]{2})\b")
_AMOUNT_TOKEN = re.compile(r"^amt([0-9]{1,8})$")
_NUMBER_TOKEN = re.compile(r"^[0-9]{1,6}$")
_POUND_WORDS = frozenset({"pound", "pounds", "quid", "gbp"})
_PENCE_WORDS = frozenset({"p", "pence", "penny", "pennies"})
_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS: dict[tuple[str, ...], int] = {
    **{(w,): i + 1 for i, w in enumerate(_UNITS)},
    **{(w,): i + 10 for i, w in enumerate(_TEENS)},
    **{(w,): 20 + 10 * i for i, w in enumerate(_TENS)},
    **{(t, u): 20 + 10 * i + j + 1 for i, t in enumerate(_TENS) for j, u in enumerate(_UNITS)},
    ("a", "hundred"): 100,
    ("one", "hundred"): 100,
    ("hundred",): 100,
}


def _pence(pounds: str, pennies: str | None) -> int:
    return int(pounds) * 100 + int(pennies or 0)


def _amount_at(tokens: Sequence[str], i: int) -> tuple[int, int] | None:
    """(pence, end) for an amount starting at tokens[i]."""
    token = tokens[i]
    if match := _AMOUNT_TOKEN.match(token):
        end = i + 1 + (i + 1 < len(tokens) and tokens[i + 1] in _POUND_WORDS)
        return int(match.group(1)), end
    if _NUMBER_TOKEN.match(token):
        unit = tokens[i + 1] if i + 1 < len(tokens) else ""
        if unit in _PENCE_WORDS:
            return int(token), i + 2
        return int(token) * 100, i + 1 + (unit in _POUND_WORDS)
    # Number words only with a currency word: "that one" is not £1.
    for width in (2, 1):
        words = tuple(tokens[i : i + width])
        if len(words) == width and words in _NUMBER_WORDS:
            unit = tokens[i + width] if i + width < len(tokens) else ""
            if unit in _POUND_WORDS:
                return _NUMBER_WORDS[words] * 100, i + width + 1
            if unit in _PENCE_WORDS:
                return _NUMBER_WORDS[words], i + width + 1
    return None


# How a caller names applying the credit in the answer to its read-back (kit.replies).
CREDIT_WORDS = ActionWords(
    agree=(
        "apply",
        "apply it",
        "apply the credit",
        "apply that credit",
        "credit it",
        "credit me",
        "credit us",
        "credit my account",
        "credit the account",
        "add it",
        "add the credit",
        "put it on my account",
        "put it on the account",
        "i'll take it",
        "we'll take it",
        "i'll take the credit",
        "we'll take the credit",
    ),
    refuse=(
        "rather have a refund",
        "a refund instead",
        "refund instead",
        "no credit",
        "don't bother with the credit",
    ),
)


@dataclass(frozen=True)
class CreditRecord:
    """The host's record of an applied credit, kept by the end-of-call write."""

    credit_id: str
    pence: int
    today: date

    def to_write(self) -> FactToRemember:
        return FactToRemember(
            content=(
                f"Service credit of {spoken_amount(self.pence)} applied to the account, "
                f"reference {self.credit_id} (recorded {self.today.isoformat()})"
            ),
            source="third_party",
            confidence=HOST_CONFIDENCE,
            entity="account",
            attribute=f"credit_{self.credit_id}",
        )


def apply_credit_action(billing: BillingClient) -> GatedAction[int]:
    async def precheck(identity: CallerIdentity, pence: int) -> str | None:
        held = sum(c.pence for c in await billing.credits_for(identity.customer_id))
        if held + pence > ACCOUNT_CREDIT_CAP_PENCE:
            return (
                f"The account already holds {spoken_amount(held)} in service credits; the most "
                f"it can hold is {spoken_amount(ACCOUNT_CREDIT_CAP_PENCE)}. Nothing was applied. "
                "Offer to have the team follow up."
            )
        return None

    async def authorize(identity: CallerIdentity, pence: int) -> bool:
        return await billing.can_credit(identity.actor_id, identity.customer_id, pence)

    async def execute(attempt: Attempt[int]) -> Outcome:
        try:
            credit = await billing.apply_credit(
                attempt.identity.customer_id, attempt.target, idempotency_key=attempt.host_key
            )
        except CreditRefused:
            return Outcome(
                "failed",
                "The account can't take that credit. Tell the caller a team member will follow up.",
                error_code="credit_refused",
            )
        return Outcome(
            "succeeded",
            f"Applied a service credit of {spoken_amount(credit.pence)} to the account. "
            f"Reference {credit.credit_id}.",
            external_ref=credit.credit_id,
        )

    async def resolve(host_key: str) -> Resolution:
        credit = await billing.credit_for_key(host_key)
        if credit is not None:
            return Resolution(True, external_ref=credit.credit_id)
        return Resolution(False, error_code="interrupted_before_crediting")

    return GatedAction(
        name="apply_service_credit",
        phrase="apply a service credit",
        target=CREDIT_AMOUNT,
        words=CREDIT_WORDS,
        precheck=precheck,
        authorize=authorize,
        execute=execute,
        resolve=resolve,
        remember=lambda attempt, outcome: CreditRecord(
            outcome.external_ref or "", attempt.target, attempt.today
        ),
    )


def build_credit_tool(action: GatedAction[int], identity: CallerIdentity) -> FunctionTool:
    async def apply_service_credit(context: RunContext[VisitCall], amount: str) -> str | ToolResult:
        """Apply a one-off service credit to the caller's account (e.g. after a missed visit).

        Args:
            amount: The amount in pounds, e.g. "25" or "25.50". Nothing else.
        """
        return await run_gated_action(action, context, identity, amount)

    return function_tool(apply_service_credit, name="apply_service_credit")


# Built from the line's systems: this action's side effects are the billing system's.
SERVICE_CREDIT: GatedTool[VisitSystems] = GatedTool(
    lambda line: apply_credit_action(line.billing), build_credit_tool
)
