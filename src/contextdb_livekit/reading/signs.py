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
    _weekday,
)
from contextdb_livekit.reading.sentences import Clause


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
    if (
        base is not None
        and base < 0
        and negators
        and any(
            m.group(0).split()[0] in ("no", "not") and not _DAY_RE.search(m.group(0))
            for m in _NEG_ATOMS.finditer(text)
        )
    ):
        # "not wednesday not a chance": a negative that carries its own "not" beside another
        # negator is said twice for emphasis, or turned round; which is a guess.
        return True
    if negators > 1:
        # "we can't do neither thursday nor friday", "never not in": negative concord or a
        # double negative; either way not a reading to store.
        return True
    if base is not None and base > 0 and negators == 1 and _positives_both_ways(text):
        # "tuesdays are fine i'm never home before six": one positive word negated and another
        # not; two clauses run together, and which one the day belongs to is a guess.
        return True
    # "can't do Monday nor Thursday": a "nor" goes on the list under the negation before it.
    negated = {
        _weekday(day)
        for m in _DAY_NEGATOR_DAY.finditer(text)
        if not m.group(0).startswith("nor ")
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
    if len(days) > 1 and re.search(rf"\s(?:just|only)\s+(?:on\s+)?(?:the\s+)?{_DAY}\W*$", text):
        # "no no saturdays are fine just sundays": the day after "just" is set against the
        # day said fine before it, or added to it; which is a guess.
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


# The caller at work ("i work in cardiff on tuesdays", "we're working", "i do shifts"): a day
# said with it does not suit, whatever "work" means when the day is its subject ("fridays work").
_CALLER_WORKS = re.compile(
    r"\b(?:i|we)\s+(?:am\s+|are\s+)?(?:(?!off\b)\w+\s+)?(?:work|working|do (?:\w+ )?shifts?)\b"
    r"(?! from home)"
)
# A day off ("it's my day off", "i'm off work", "i have mondays off"): free.
_CALLER_OFF = re.compile(r"\b(?:days? off|off work|(?:have|got|get) (?:\w+ )?off)\b")
# "right okay, ...", "lovely, ...": the caller taking in what was said, not a sign.
_ACKNOWLEDGED = re.compile(
    r"^(?:(?:right|ok|okay|yeah|yes|well|so|oh|alright|lovely|great|cheers|thanks)\b\s*)+"
)
# "i've packed that in": given up, not busy.
_GAVE_UP = re.compile(r"\bpacked (?:\w+ )?(?:in|up)\b")
# "i'm home", "we're in anyway": at home, said with its copula ("in leeds" is away).
_HOME = re.compile(r"(?:home|in(?=\s*$|\s+(?:anyway|all day|then)\b))")
_COPULA_BEFORE = re.compile(r"\b(?:am|are|be)\s+$")
# "work" the predicate ("that works", "works for me"), not the job ("cos of work").
_WORK_PREDICATE = re.compile(
    r"(?:\b(?:that|it|this|which|they|do|does|will|would|should|could|can|might|always|also|"
    r"usually|normally)\s+|s\s+)works?\b|\bworks?\s+(?:for|with)\s+(?:me|us|you|everyone)\b"
)
# A sentence about other days, a correction or a doubt: other clauses are not about this day.
_SENTENCE_ELSEWHERE = re.compile(
    r"\b(?:rest|other|others|else|every|any(?! ?more\b| longer\b)|all|most|week|weekdays?|"
    r"weekends?|whatever|whichever|whenever|except|apart|bar|only|just|sorry|mean|meant|actually|"
    r"wait|if|when|whether|maybe|probably|perhaps|might)\b"
)
# "i work the rest", "i work every day except thursday": the caller's work is the other days'.
_OTHER_DAYS = re.compile(r"\b(?:rest|else|others?|every|all|except|apart|bar|but|besides)\b")
# "the kids are home", "my husband's off": a clause about somebody else; its signs are theirs.
_THEIR_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|because|cos|cause|as|though)\s+)*(?:(?:the|my|our|his|her|their)\s+\w+|"
    r"he|she|they)\b"
)
# A clause that says what was, or what changed: the reader's change rules read it, not this.
_OF_THE_OTHERS = re.compile(
    r"(?:otherwise|the rest|everything else|every other day|any other day|other days|"
    r"other than that)\b"
)
_CLAUSE_CHANGE = re.compile(
    r"\b(?:used to|before|now|any ?more|no longer|these days|nowadays|since|until|again|"
    r"changed|swapped|moved|instead|was|were|had|days)\b"
)


def _cue_signs(text: str) -> set[int]:
    """The signs a clause's own words give, read crudely and apart from `reading.reader`: each
    positive or negative word, turned by a plain negator among the three words before it."""
    signs: set[int] = set()
    text = _GAVE_UP.sub(" ", _ACKNOWLEDGED.sub("", text))
    for match in _CALLER_WORKS.finditer(text):
        signs.add(1 if _negated_before(text, match.end(), _PLAIN_NEGATOR) else -1)
    if _CALLER_OFF.search(text):
        signs.add(1)
    text = _CALLER_OFF.sub(" ", _CALLER_WORKS.sub(" ", text))
    for match in _NEG_ATOMS.finditer(text):
        own_negator = match.group(0).split()[0] in ("no", "not")
        turned = not own_negator and _negated_before(text, match.start(), _PLAIN_NEGATOR)
        signs.add(1 if turned else -1)
    text = _NEG_ATOMS.sub(" ", text)
    for match in _POS.finditer(text):
        word = match.group(0)
        at_home = bool(_HOME.match(text, match.start())) and bool(
            _COPULA_BEFORE.search(text, 0, match.start())
        )
        if (word in _WEAK_POS and not at_home) or _REQUEST.fullmatch(word):
            continue
        if word.startswith("work") and not _WORK_PREDICATE.search(text, max(0, match.start() - 12)):
            continue
        signs.add(-1 if _negated_before(text, match.start(), _PLAIN_NEGATOR) else 1)
    return signs


def disagrees(clauses: list[Clause], index: int, sign: int) -> bool:
    """The sentence's other words say the day of clause `index` the other way round: a clause
    with no day of its own that refers back to it gives the opposite sign ("i work in cardiff on
    tuesdays so there is no chance of me being home then", "thursday is no skin off my nose i am
    home anyway"), or the day's own clause does by the caller's work or day off. Which reading
    is the caller's is a guess, so the caller's words are kept instead of a typed fact."""
    parts = [clause.text for clause in clauses]
    own = parts[index]
    if (
        not _CLAUSE_CHANGE.search(own)
        and not _OTHER_DAYS.search(own)
        and (_CALLER_WORKS.search(own) or _CALLER_OFF.search(own))
        and _cue_signs(own) == {-sign}
    ):
        return True
    if any(clause.corrects for clause in clauses) or _SENTENCE_ELSEWHERE.search(" ".join(parts)):
        return False
    with_day = [i for i, part in enumerate(parts) if _DAY_RE.search(part)]
    for other, text in enumerate(parts):
        if (
            other in with_day
            or _CLAUSE_CHANGE.search(text)
            or _THEIR_SUBJECT.match(text)
            # "..., otherwise I'm in": said of the other days.
            or _OF_THE_OTHERS.match(text)
        ):
            continue
        # The clause refers back to the nearest day before it (or after it, when none is).
        before = [i for i in with_day if i < other]
        after = [i for i in with_day if i > other]
        refers_to = before[-1] if before else (after[0] if after else None)
        if refers_to == index and -sign in _cue_signs(text):
            return True
    return False
