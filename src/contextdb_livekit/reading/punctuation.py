"""Clause boundaries for a caller turn that speech-to-text wrote without punctuation.

The reader splits clauses at commas: "thursdays are no good, i work then, fridays are fine".
Speech-to-text without punctuation writes "thursdays are no good i work then fridays are fine",
and a negator or a predicate then reaches the wrong day. Hand-written split rules caught one
phrasing at a time; this module puts the commas back with a small learned model instead: a
logistic score over the words either side of each gap, read from `punctuation.tsv`.

The table is learned from the written caller turns of the scorecard's tuning sets (where the
writers punctuated) and rebuilt by `python -m bench.punctuation_table`; see that script for how
it was trained and what it measures. It holds words and weights only, no caller's sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

TABLE = "punctuation.tsv"
# A turn this short is an answer ("no not friday"), too short to cut.
MIN_WORDS = 4
_PUNCTUATED = re.compile(r"[.,!?;:\u2014\u2013()]|\s-+\s")
_DAY = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$")
_DIGITS = frozenset(
    {"zero", "oh", "nought", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
)
_TENS = frozenset({"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"})
_HUNDREDS = frozenset({"hundred", "thousand"})
_NUMBER_WORDS = _DIGITS | _TENS | _HUNDREDS | {
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen",
}  # fmt: skip
_WORD = re.compile(r"[a-z0-9']+")
# A clause does not start with its verb: "the old radiators were on the second floor" keeps
# its subject ("radiators, were" would leave "were on the second floor" without one).
_VERBS = frozenset({
    "is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "will", "would", "can",
    "could", "do", "does", "did", "should", "must", "isnt", "arent", "wasnt", "werent", "hasnt",
    "havent", "hadnt", "wont", "wouldnt", "cant", "couldnt", "dont", "doesnt", "didnt",
})  # fmt: skip
_LETTER = re.compile(r"[a-h]")


def word_class(word: str) -> str:
    """A word as the model sees it: every weekday one word, every number one word, and no
    apostrophes (speech-to-text writes "dont" as often as "don't")."""
    word = word.replace("'", "")
    if _DAY.match(word):
        return "<day>"
    if word.isdigit() or word in _NUMBER_WORDS:
        return "<num>"
    return word


def gap_features(words: list[str], i: int) -> list[str]:
    """The features of the gap after `words[i]` (words already through `word_class`)."""
    left, right = words[i], words[i + 1]
    before = words[i - 1] if i else "<s>"
    after = words[i + 2] if i + 2 < len(words) else "</s>"
    return [
        "",
        f"L1 {left}",
        f"R1 {right}",
        f"L1R1 {left} {right}",
        f"L2L1 {before} {left}",
        f"R1R2 {right} {after}",
        f"L2L1R1 {before} {left} {right}",
        f"L1R1R2 {left} {right} {after}",
    ]


def _in_one_number(said: list[str], i: int) -> bool:
    """The gap after `said[i]` is inside one number said as words: "twenty eight", "eight oh
    two", "a hundred and six", "flat nine a" (not "twelve, fifteen": two numbers)."""
    left, right = said[i], said[i + 1]
    before = said[i - 1] if i else ""
    after = said[i + 2] if i + 2 < len(said) else ""
    number = left.isdigit() or left in _NUMBER_WORDS
    return (
        (left in _TENS and right in _DIGITS)  # "twenty eight"
        or (left in _DIGITS and right in _DIGITS)  # "eight oh two"
        or right in _HUNDREDS  # "two hundred"
        or (number and _LETTER.fullmatch(right) is not None)  # "nine a"
        or (left.isdigit() and right in _NUMBER_WORDS)  # "80, eight zero": spelt out
        # "a hundred and six": "and" inside one number.
        or (left in _HUNDREDS and right == "and" and after in _NUMBER_WORDS)
        or (before in _HUNDREDS and left == "and" and right in _NUMBER_WORDS)
    )


@dataclass(frozen=True)
class BoundaryModel:
    """Feature weights; a gap whose weights sum above zero is a clause boundary."""

    weights: dict[str, float]

    @classmethod
    def parse(cls, text: str, where: str = TABLE) -> BoundaryModel:
        weights: dict[str, float] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line or line.startswith("#"):
                continue
            feature, tab, weight = line.rpartition("\t")
            try:
                if not tab:
                    raise ValueError("no tab")
                weights[feature] = float(weight)
            except ValueError:
                raise ValueError(f"{where}:{number}: expected 'feature<TAB>weight'") from None
        if "" not in weights:
            raise ValueError(f"{where}: no bias line ('<TAB>weight'); the table is damaged")
        return cls(weights)

    @classmethod
    def load(cls, path: Path | None = None) -> BoundaryModel:
        if path is not None:
            return cls.parse(path.read_text(encoding="utf-8"), str(path))
        table = resources.files("contextdb_livekit.reading").joinpath(TABLE)
        return cls.parse(table.read_text(encoding="utf-8"))

    def boundaries(self, words: list[str]) -> list[int]:
        """The indexes `i` whose gap (after `words[i]`) is a clause boundary."""
        classes = [word_class(w) for w in words]
        said = [w.replace("'", "") for w in words]
        return [
            i
            for i in range(len(words) - 1)
            if not _in_one_number(said, i)
            and classes[i + 1] not in _VERBS
            and sum(self.weights.get(f, 0.0) for f in gap_features(classes, i)) > 0
        ]

    def restore(self, text: str) -> str:
        """`text` with a comma at each boundary, if it has no punctuation of its own and is
        long enough to hold two clauses; otherwise `text` unchanged."""
        words = text.split()
        if len(words) < MIN_WORDS or _PUNCTUATED.search(text):
            return text
        lowered = [" ".join(_WORD.findall(w.casefold().replace("\u2019", "'"))) or w for w in words]
        for i in reversed(self.boundaries(lowered)):
            words[i] += ","
        return " ".join(words)
