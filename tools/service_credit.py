"""`apply_service_credit`: a gated action whose target is an amount, not a day.

Added with the kit alone (README "Adding a gated action"): the model names only the amount,
the host reads it back ("Just to confirm: shall I apply a service credit of £25.00?"), the
caller's yes to that applies exactly one credit with exactly one receipt, and a crash or a lost
answer is resolved by the credit's own idempotency key through the outbox.
"""

from __future__ import annotations

from billing_client import BillingClient, CreditRefused
from contextdb_livekit.api import (
    ActionWords,
    Attempt,
    CallerIdentity,
    FactToRemember,
    GatedAction,
    GatedTool,
    Outcome,
    PoundAmounts,
    Resolution,
    ToolText,
    spoken_pounds,
)
from memory.facts import HOST_CONFIDENCE
from tools.systems import VisitSystems

# The most one call may credit, and the most an account may hold in credits.
MAX_CREDIT_PENCE = 10_000
ACCOUNT_CREDIT_CAP_PENCE = 20_000

CREDIT_AMOUNT = PoundAmounts(max_pence=MAX_CREDIT_PENCE)

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


def credit_record(attempt: Attempt[int], outcome: Outcome) -> FactToRemember:
    """The host's record of an applied credit, kept by the end-of-call write."""
    credit_id = outcome.external_ref or ""
    return FactToRemember(
        content=(
            f"Service credit of {spoken_pounds(attempt.target)} applied to the account, "
            f"reference {credit_id} (recorded {attempt.today.isoformat()})"
        ),
        source="third_party",
        confidence=HOST_CONFIDENCE,
        entity="account",
        attribute=f"credit_{credit_id}",
    )


def apply_credit_action(billing: BillingClient) -> GatedAction[int]:
    async def precheck(identity: CallerIdentity, pence: int) -> str | None:
        held = sum(c.pence for c in await billing.credits_for(identity.customer_id))
        if held + pence > ACCOUNT_CREDIT_CAP_PENCE:
            return (
                f"The account already holds {spoken_pounds(held)} in service credits; the most "
                f"it can hold is {spoken_pounds(ACCOUNT_CREDIT_CAP_PENCE)}. Nothing was applied. "
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
            f"Applied a service credit of {spoken_pounds(credit.pence)} to the account. "
            f"Reference {credit.credit_id}.",
            external_ref=credit.credit_id,
        )

    return GatedAction(
        name="apply_service_credit",
        phrase="apply a service credit",
        target=CREDIT_AMOUNT,
        words=CREDIT_WORDS,
        precheck=precheck,
        authorize=authorize,
        execute=execute,
        resolve=Resolution.by_key(
            billing.credit_for_key, lambda c: c.credit_id, otherwise="interrupted_before_crediting"
        ),
        remember=credit_record,
        tool=ToolText(
            "Apply a one-off service credit to the caller's account (e.g. after a missed visit).",
            argument="amount",
            argument_description='The amount in pounds, e.g. "25" or "25.50". Nothing else.',
        ),
    )


# Built from the line's systems: this action's side effects are the billing system's.
SERVICE_CREDIT: GatedTool[VisitSystems] = GatedTool(lambda line: apply_credit_action(line.billing))
