"""The credit amount: a target kind that is not a day (`tools.service_credit`)."""

from __future__ import annotations

from datetime import date

import pytest

from contextdb_livekit.kit.replies import classify_reply
from contextdb_livekit.kit.target import InvalidTarget
from tools.service_credit import CREDIT_AMOUNT, CREDIT_WORDS

TODAY = date(2026, 12, 4)


@pytest.mark.parametrize(
    ("text", "pence"),
    [("25", 2500), ("25.50", 2550), ("£25", 2500), ("£ 7.05", 705), ("25 pounds", 2500),
     (" 100 ", 10_000), ("0.01", 1)],
)  # fmt: skip
def test_the_model_names_an_amount_in_pounds(text: str, pence: int) -> None:
    assert CREDIT_AMOUNT.parse(text, today=TODAY) == pence


@pytest.mark.parametrize(
    "text",
    ["0", "100.01", "twenty", "25.5", "-5", "25;drop", "2,500", "", "1" * 30, "25 dollars"],
)
def test_anything_else_is_refused_with_one_fixed_sentence(text: str) -> None:
    with pytest.raises(InvalidTarget) as refused:
        CREDIT_AMOUNT.parse(text, today=TODAY)
    assert str(refused.value) == "Say the amount in pounds, like 25 or 25.50, up to £100."


def test_read_back_words_and_keys() -> None:
    assert CREDIT_AMOUNT.spoken(2550) == "of £25.50"
    assert CREDIT_AMOUNT.key(2550) == "2550"


def read(text: str, offered: int = 2500) -> tuple[str, str | None]:
    reading = classify_reply(text, CREDIT_AMOUNT, offered=offered, today=TODAY, action=CREDIT_WORDS)
    return reading.kind, reading.target


@pytest.mark.parametrize(
    "text",
    ["yes", "yes please", "yes £25", "yeah 25 pounds is right", "yes, twenty five pounds",
     "yes apply it", "go ahead and credit my account", "£25.00, yes", "yes 25 quid"],
)  # fmt: skip
def test_a_yes_to_the_offered_amount(text: str) -> None:
    assert read(text) == ("yes", None)


@pytest.mark.parametrize(
    ("text", "named"),
    [("yes, 30 pounds", "£30.00"), ("yes £30", "£30.00"), ("yeah make it thirty pounds",
     "£30.00"), ("yes 25.50", "£25.50"), ("yes, fifty p", "£0.50"), ("no, 20", "£20.00")],
)  # fmt: skip
def test_another_amount_is_a_new_request(text: str, named: str) -> None:
    assert read(text) == ("new_request", named)


@pytest.mark.parametrize(
    "text", ["no", "not £25", "i'd rather have a refund", "don't apply it", "no credit thanks"]
)
def test_a_no(text: str) -> None:
    assert read(text)[0] == "no"


@pytest.mark.parametrize("text", ["what is it for?", "maybe", "yes twenty five", "yes, one more"])
def test_neither(text: str) -> None:
    assert read(text)[0] == "other"
