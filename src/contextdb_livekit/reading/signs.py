"""Whether the sign a clause gives its days can be trusted: a second, cruder reading that must
agree with `reading.reader`'s (where they could disagree the caller's words are kept instead of a
typed fact), and where a negator stands and what it governs.
"""

from __future__ import annotations

import re

from contextdb_livekit.reading.lexicon import (
    _DAY,
    _DAY_NEGATOR_DAY,
    _DAY_RE,
    _EXCEPTION_WITH_PREDICATE,
    _NEG_ATOMS,
    _NEGATOR,
    _POS,
    _REQUEST,
    _UNIVERSAL_BUT,
    _WEAK_POS,
)
from contextdb_livekit.reading.turn_cues import _weekday


def _sign_in_doubt(
    text: str, days: list[str], base: int | None, negators: int, exclusive: bool, excepted: bool
) -> bool:
    """A second, cruder reading of the clause's sign that must agree with the first: where
    they could disagree, the sign is a guess and the caller's words are kept instead of a
    typed fact (a day stored the wrong way round is the failure to design out)."""
    if base is not None and base < 0 and negators > 0 and not _atom_negated(text):
        # "mondays are a nightmare i'm never home": a negative word and a negator that is not
        # its own ("thursdays aren't a problem" is).
        return True
    if base is not None and negators == 1 and _DETERMINER_NO.search(text):
        # "saturday's no skin off my nose i'm in anyway": the only negator is a "no" that
        # belongs to a noun the reader does not know, not to the predicate.
        return True
    if negators and _JEST.search(text):
        # "mondays are just brilliant for me... not": a "not" tacked on the end turns the
        # clause round in jest; which way it is meant is a guess.
        return True
    if negators > 1:
        # "we can't do neither thursday nor friday", "never not in": negative concord or a
        # double negative; either way not a reading to store.
        return True
    if base is not None and base > 0 and negators == 1 and _positives_both_ways(text):
        # "tuesdays are fine i'm never home before six": one positive word negated and another
        # not; two clauses run together, and which one the day belongs to is a guess.
        return True
    negated = {
        _weekday(day)
        for m in _DAY_NEGATOR_DAY.finditer(text)
        for day in _DAY_RE.findall(m.group(0))
    }
    if len(days) > 1 and negated and set(days) - negated:
        # "it's thursdays now not tuesdays": a negator on some of the days only.
        return True
    if re.search(
        rf"\b(?:not any ?more|no longer|not now)\s+(?:\w+\s+)?{_DAY}\s+(?:are|is|will be|work)\b",
        text,
    ):
        # "used to be a nightmare but not anymore, fridays are fine now": the negator ends
        # what came before, it does not negate the days after it.
        return True
    if re.search(
        rf"\b(?:i meant|i mean|sorry|no|thinking of|thought)\s+({_DAY}) (?!\1)({_DAY})\b", text
    ):
        # "i meant thursdays fridays are fine": two days with nothing between them are two
        # clauses run together; which sign goes with which day is a guess.
        return True
    sign = (base or 1) * (-1) ** negators if (base is not None or negators) else None
    if (
        exclusive
        and sign is not None
        and sign < 0
        and not excepted
        and not re.search(r"\b(?:only|just)\s+(?:not|never|no|do not|can not|cannot)\b", text)
        # "Wednesday is the only day I can't do", "only Tuesday's out": the negative is the
        # only day's own when nothing else in the clause ("everything else") could take it.
        and bool(re.search(r"\b(?:else|other|others|rest|everything|anything|every|any)\b", text))
    ):
        # "it's only ever mondays, everything else i'm at work": only-X with a negative.
        return True
    # "most of the time, but Mondays are definitely fine": the excepted days carry their own
    # predicate.
    return (
        excepted
        and bool(_EXCEPTION_WITH_PREDICATE.search(text))
        and not _UNIVERSAL_BUT.search(text)
    )


# "brilliant for me not": a "not" tacked on after a positive word and the words that follow it.
_JEST = re.compile(rf"(?:{_POS.pattern})(?:\s+\w+){{1,3}}\s+not\s*$")
# A "no" before a noun: not before a day, an idiom the reader knows, a pronoun or an answer.
_DETERMINER_NO = re.compile(
    rf"\bno\s+(?!(?:{_DAY}|longer|more|one|body|thing|good|go|way|chance|use|hope|dice|problem|"
    r"bother|trouble|worries|hassle|issues?|drama|brainer|i|we|you|he|she|they|it|its|that|"
    r"thanks|thank|sorry|not|never|no|nope|yes|yeah|but|and|so|well|actually|wait|mate|love|"
    r"dear|way)\b)[a-z]+"
)


def _positives_both_ways(text: str) -> bool:
    """The clause has a positive word with a negator of its own ("never home") and one
    without ("fine")."""
    negated, plain = False, False
    for match in _POS.finditer(text):
        if re.match(r"\s+(?:not|never)\b", text[match.end() :]):
            continue  # "do not work": an auxiliary, not the predicate
        if _negated_before(text, match.start()):
            negated = True
        elif match.group(0) not in _WEAK_POS and not _REQUEST.fullmatch(match.group(0)):
            plain = True  # a strong positive word said plainly ("fine", "free", "suits")
    return negated and plain


def _negated_before(text: str, start: int, negator: re.Pattern[str] = _NEGATOR) -> bool:
    """A negator among the three words before `start` ("don't text me", "never home")."""
    return bool(negator.search(" ".join(text[:start].split()[-3:])))


_PLAIN_NEGATOR = re.compile(r"\b(?:not|never|no|nothing|nobody|none)\b")


def _atom_negated(text: str) -> bool:
    """Every negative word in the clause carries its own negator ("aren't a problem")."""
    atoms = list(_NEG_ATOMS.finditer(text))
    return bool(atoms) and all(_negated_before(text, m.start(), _PLAIN_NEGATOR) for m in atoms)
