"""Amounts in pounds and pence as a target (`api.PoundAmounts`, library `kit/amounts.py`)."""

from __future__ import annotations

from datetime import date

import pytest

from contextdb_livekit.api import InvalidTarget, PoundAmounts, spoken_pounds

TODAY = date(2026, 12, 4)


def test_spoken_pounds_always_shows_pence() -> None:
    assert [spoken_pounds(p) for p in (1, 50, 2500, 2550, 10_000)] == [
        "£0.01",
        "£0.50",
        "£25.00",
        "£25.50",
        "£100.00",
    ]
    assert PoundAmounts().spoken(705) == "of £7.05"
    assert PoundAmounts().key(705) == "705"


def test_the_maximum_is_the_kinds_and_named_in_the_refusal() -> None:
    small = PoundAmounts(max_pence=5050)
    assert small.parse("50.50", today=TODAY) == 5050
    assert small.parse("£ 7.05", today=TODAY) == 705
    for text in ("50.51", "0", "0.00", "fifty", "1" * 21):
        with pytest.raises(InvalidTarget) as refused:
            small.parse(text, today=TODAY)
        assert str(refused.value) == "Say the amount in pounds, like 25 or 25.50, up to £50.50."
    assert PoundAmounts(max_pence=500_000).parse("4999.99", today=TODAY) == 499_999
    assert PoundAmounts().invalid.endswith("up to £100.")


def mentioned(reply: str, offered: int | None = 2500) -> list[tuple[str | None, bool, int, int]]:
    kind = PoundAmounts()
    tokens = kind.protect(reply).split()
    return [
        (m.label, m.offered, m.start, m.end)
        for m in kind.mentions(tokens, offered=offered, today=None)
    ]


@pytest.mark.parametrize(
    ("reply", "labels"),
    [
        ("£25.50 please", ["£25.50"]),
        ("25.50", ["£25.50"]),
        ("£25 pounds", ["£25.00"]),
        ("25 quid", ["£25.00"]),
        ("50 pence", ["£0.50"]),
        ("twenty five pounds", ["£25.00"]),
        ("a hundred pounds", ["£100.00"]),
        # The whole number, never its tail: a different amount is not a yes to £100.
        ("three hundred pounds", ["£300.00"]),
        ("one hundred and fifty quid", ["£150.00"]),
        ("ninety nine pence", ["£0.99"]),
        ("fifty p", ["£0.50"]),
        ("that one is fine", []),
        ("twenty five", []),
        ("25 or 30", ["£25.00", "£30.00"]),
    ],
)
def test_the_amounts_a_reply_names(reply: str, labels: list[str]) -> None:
    assert [label for label, *_ in mentioned(reply)] == labels


def test_a_mention_spans_its_currency_word_and_says_whether_it_is_the_offer() -> None:
    assert mentioned("yes twenty five pounds") == [("£25.00", True, 1, 4)]
    assert mentioned("yes 30 quid thanks") == [("£30.00", False, 1, 3)]
    assert mentioned("yes 25", offered=None) == [("£25.00", False, 1, 2)]
    # "yes, three hundred pounds" to a read-back of £100 names another amount.
    assert mentioned("yes three hundred pounds", offered=10_000) == [("£300.00", False, 1, 4)]
    assert not any(offered for _, offered, *_ in mentioned("yes 2 hundred pounds", offered=10_000))
