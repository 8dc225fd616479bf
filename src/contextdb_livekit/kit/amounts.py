"""Amounts of money in pounds and pence as the target of a gated action (`TargetKind[int]`,
in pence).

The model names an amount as "25", "25.50", "£25", "£ 7.05" or "25 pounds" (nothing else, from
1p to `max_pence`); a caller's reply names one as "£25", "£25.50", "25.50", "25 pounds",
"25 quid", "50 pence", "twenty five pounds", "a hundred pounds", or a bare "25" (pounds). Number
words count only with a currency word after them: "that one" is not £1.

    PoundAmounts(max_pence=10_000)   "of £25.00" in a read-back, keyed "2500"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from text_to_num import text2num

from contextdb_livekit.kit.target import InvalidTarget, Mention

_MODEL_AMOUNT = re.compile(r"£?\s*([0-9]{1,6})(?:\.([0-9]{2}))?(?:\s*(?:pounds|gbp))?")
_MAX_MODEL_CHARS = 20


def spoken_pounds(pence: int) -> str:
    """An amount as said in a read-back: £25.50."""
    return f"£{pence // 100}.{pence % 100:02d}"


@dataclass(frozen=True)
class PoundAmounts:
    """Amounts in pence, from 1p to `max_pence`."""

    max_pence: int = 10_000
    noun: str = "amount"

    @property
    def invalid(self) -> str:
        """The one sentence every refused argument gets (it never echoes the input)."""
        most = spoken_pounds(self.max_pence).removesuffix(".00")
        return f"Say the amount in pounds, like 25 or 25.50, up to {most}."

    def parse(self, text: str, *, today: date) -> int:
        if not isinstance(text, str) or len(text) > _MAX_MODEL_CHARS:
            raise InvalidTarget(self.invalid)
        match = _MODEL_AMOUNT.fullmatch(" ".join(text.lower().split()))
        if match is None:
            raise InvalidTarget(self.invalid)
        pence = _pence(match.group(1), match.group(2))
        if not 0 < pence <= self.max_pence:
            raise InvalidTarget(self.invalid)
        return pence

    def spoken(self, target: int) -> str:
        return f"of {spoken_pounds(target)}"

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
            found.append(Mention(i, end, spoken_pounds(pence), pence == offered))
            i = end
        return found


_POUNDS_SIGN = re.compile(r"£\s?([0-9]{1,6})(?:\.([0-9]{2}))?\b")
_DECIMAL = re.compile(r"\b([0-9]{1,6})\.([0-9]{2})\b")
_AMOUNT_TOKEN = re.compile(r"^amt([0-9]{1,8})$")
_NUMBER_TOKEN = re.compile(r"^[0-9]{1,6}$")
_POUND_WORDS = frozenset({"pound", "pounds", "quid", "gbp"})
_PENCE_WORDS = frozenset({"p", "pence", "penny", "pennies"})
# The words a number said in words is made of ("three hundred and fifty"), read by text2num.
_NUMBER_WORDS = frozenset(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
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
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
    ]
)


def _number_words(tokens: Sequence[str], i: int) -> tuple[int, int] | None:
    """(value, end) of the whole number said in words from tokens[i] ("a hundred" included)."""
    start = i + (tokens[i] == "a" and i + 1 < len(tokens) and tokens[i + 1] == "hundred")
    end = start
    while end < len(tokens) and (
        tokens[end] in _NUMBER_WORDS
        or (tokens[end] == "and" and end + 1 < len(tokens) and tokens[end + 1] in _NUMBER_WORDS)
    ):
        end += 1
    if end == start:
        return None
    try:
        return text2num(" ".join(tokens[start:end]), "en"), end
    except ValueError:
        return None


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
    # Number words only with a currency word: "that one" is not £1. The whole number is read,
    # never its tail: "three hundred pounds" is £300, not £100.
    if i > 0 and (tokens[i - 1] in _NUMBER_WORDS or _NUMBER_TOKEN.match(tokens[i - 1])):
        return None
    said = _number_words(tokens, i)
    if said is not None:
        value, end = said
        unit = tokens[end] if end < len(tokens) else ""
        if unit in _POUND_WORDS:
            return value * 100, end + 1
        if unit in _PENCE_WORDS:
            return value, end + 1
    return None
