"""Classify a caller's reply to a read-back ("a service visit on Thursday 10 December?").

    classify_reply("uh huh", offered=date(2026, 12, 10))        -> yes
    classify_reply("yes, friday", offered=date(2026, 12, 10))   -> new_request, day="friday"
    classify_reply("yes still at elm road", offered=...)        -> other (a yes to something else)

The rule is a closed vocabulary, because the costly mistake is a false yes (a booking the
caller never agreed to) and a re-ask costs one turn. A reply is `yes` only when it has an
agreement word and *every* other word is a filler, politeness, a word about the visit itself,
or a day/date equal to `offered`. Any word outside that vocabulary ("still", "elm", "morning")
makes it `other`: it is not a clean answer to this question. Precedence, first match wins:

1. a day or date other than `offered`, not negated ("not friday")  -> new_request (that day)
2. a question ("?", "what", a clause opening with is/can/do ...)     -> other
3. an explicit refusal ("that won't work", "not thursday")           -> no
4. a hedge or deferral ("hold on", "maybe", "but", "let me check")   -> other
5. a negation ("no", "nope", "don't", "nein") without a yes          -> no   (with a yes: other)
6. words outside the vocabulary, or a reply cut off mid-phrase       -> other
7. an agreement word                                                  -> yes, else other

Days are English weekdays (and Spanish/French/German weekday names, so "sí, el viernes" is a
new request, not a yes), "today", "tomorrow", ISO dates, "the 10th", "10th", "the tenth",
"december 10", "10 december", "the 10th of december [2026]". A date without a month or year is
the nearest such date to `offered` (else `today`), never before `today` (see `_resolve`).
"today" and "tomorrow" match `offered` only when `today` is given. Nothing reads the clock.

Non-English yes/no supported (accents optional): Spanish sí/claro/vale/de acuerdo/por supuesto/
está bien/perfecto, no; French oui/ouais/d'accord/bien sûr/parfait/c'est bon/ça marche, non;
German ja/genau/gerne/klar/in Ordnung/passt/einverstanden, nein/nee/nicht.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

ReplyKind = Literal["yes", "no", "other", "new_request"]

MAX_REPLY_CHARS = 2000


@dataclass(frozen=True)
class ReplyReading:
    kind: ReplyKind
    day: str | None = None
    reason: str = ""


# --- vocabulary -------------------------------------------------------------------------------

YES, NEG, REFUSE, HEDGE, SOFT, QUESTION, FILLER, NEUTRAL, POLITE, OFFTOPIC = (
    "yes",
    "neg",
    "refuse",
    "hedge",
    "soft",
    "question",
    "filler",
    "neutral",
    "polite",
    "offtopic",
)


def _phrases(category: str, text: str) -> dict[tuple[str, ...], str]:
    return {tuple(p.split()): category for p in text.split("|") if p.strip()}


_LEXICON: dict[tuple[str, ...], str] = {}
for _category, _text in (
    (
        YES,
        "yes|yeah|yea|yeh|ya|yah|yep|yup|aye|okay|alright|sure|surely|absolutely|definitely|"
        "certainly|correct|exactly|precisely|indeed|affirmative|fine|great|perfect|lovely|"
        "brilliant|excellent|wonderful|fantastic|grand|cool|awesome|super|superb|splendid|nice|"
        "good|marvellous|marvelous|ideal|works|confirm|confirmed|agreed|please|uhhuh|mmhmm|"
        "happy|gladly|of course|sounds good|sounds great|sounds perfect|sounds fine|"
        "sounds lovely|sounds right|sounds like a plan|that works|works for me|go for it|"
        "go ahead|go on|go on then|please do|do it|do that|let's do it|let's do that|let's go|"
        "book it|book it in|book that|book me in|book|pencil me in|pencil it in|put me down|"
        "sign me up|lock it in|you bet|sure thing|for sure|you got it|will do|that's right|"
        "that is right|that's correct|all right|all good|no problem|no problems|not a problem|"
        "no worries|no bother|by all means|i'd like that|i would like that|spot on|bang on|"
        "can you book it|could you book it|can you book that|could you book that|"
        "please book it|i confirm|i agree|suits me|that suits me|that suits|suits|put it in|"
        "pop it in|put me in|i'm free|i'm available|"
        "we're free|that's the one|that'll do|that will do|okey dokey|okay dokey|okie dokie|"
        "can do|grand so|right so|i can do that|you can book it|you can book that|"
        "you can go ahead|fair enough|"
        "i'm fine with that|i'm ok with that|i'm okay with that|i'm good with that|"
        "i'm happy with that|fine with me|fine by me|good with me|okay with me|okay by me|"
        "good for me|great for me|perfect for me|great stuff|"
        # Spanish, French, German (accents are stripped before matching).
        "si|claro|vale|de acuerdo|por supuesto|esta bien|muy bien|perfecto|"
        "oui|ouais|d'accord|bien sur|parfait|c'est bon|c'est parfait|tres bien|ca marche|"
        "ja|jawohl|genau|gerne|klar|in ordnung|passt|einverstanden|sehr gut",
    ),
    (
        NEG,
        "no|nope|nah|naw|not|never|negative|don't|doesn't|won't|can't|cannot|isn't|wouldn't|"
        "couldn't|shouldn't|didn't|wrong|incorrect|uhuhneg|"
        "nunca|non|jamais|pas|nein|nee|nicht|kein|keine",
    ),
    (
        REFUSE,
        "won't work|doesn't work|does not work|will not work|not work|not going to work|"
        "can't do|cannot do|can't do that|can't make|cannot make|can't make it|no good|not good|"
        "absolutely not|definitely not|certainly not|of course not|hell no|no way|don't book|"
        "do not book|please don't|don't bother|no thanks|no thank you|i'd rather not|"
        "rather not|not really|don't think so|i don't think so|i do not think so|"
        "wrong day|that's wrong|not right|that's not right|cancel|"
        "cancel it|not for me|impossible|unavailable|busy|i'm away|we're away|"
        "no gracias|non merci|nein danke|auf keinen fall",
    ),
    (
        HEDGE,
        "maybe|perhaps|possibly|probably|guess|suppose|think|reckon|wait|hold on|hang on|"
        "hold up|one sec|one second|a sec|a second|a moment|one moment|a minute|just a minute|"
        "just a sec|let me|let me see|check|checking|depends|dunno|i don't know|don't know|"
        "do not know|not sure|unsure|no idea|hmm|hm|hmmm|might|could be|kind of|sort of|"
        "kinda|sorta|but|though|although|except|unless|if|first|later|i don't mind|"
        "don't mind|i do not mind|either way|whatever|need to|have to|got to|gotta|should|"
        "ask|tal vez|quizas|a lo mejor|peut etre|vielleicht|momento|moment",
    ),
    (SOFT, "i'm good|i'm fine|i'm ok|i'm okay|i'm all set|we're good|we're fine|we're okay"),
    (
        QUESTION,
        "what|what's|when|where|which|who|why|how|huh|quoi|wann|cuando|como",
    ),
    (
        FILLER,
        "um|umm|uh|uhh|uhm|er|erm|mm|ah|ahh|oh|ooh|eh|well|so|like|actually|right|look|hey|hi|"
        "hello|you know|i mean|anyway|alors|bueno|pues|also",
    ),
    (
        NEUTRAL,
        "i|we|me|us|it|that|this|is|it's|that's|that'd|that'll|i'd|i'll|we'll|i'm|we're|for|on|"
        "the|a|an|to|of|and|then|just|all|very|really|much|too|totally|quite|be|with|by|in|at|"
        "would|will|sounds|sound|you|now|again|visit|service|appointment|booking|slot|day|"
        "date|time|engineer|technician|someone|come|coming|round|over|see you then|"
        "home|here|there|around|available|any time|anytime|whenever|all day|the sooner the better|"
        "that one|this one|the visit|el|la|le|am|der|das|es|c'est|est|ist|es",
    ),
    (
        POLITE,
        "thanks|thank you|thanks a lot|thank you very much|cheers|much appreciated|"
        "appreciate it|ta|sir|madam|ma'am|mate|love|dear|gracias|merci|danke|bitte|por favor|"
        "s'il vous plait|s'il te plait|danke schon",
    ),
    (
        OFFTOPIC,
        "still|address|number|phone|email|name|account|road|street|lane|avenue|postcode|zip|"
        "live|living|moved|that's me|it's me|this is me|that is me|it is me|speaking|same|"
        "boiler|radiator|heating|gas|dog|parking|card|pay|payment|bill|invoice",
    ),
):
    _LEXICON.update(_phrases(_category, _text))

_MAX_PHRASE = max(len(k) for k in _LEXICON)


def _split(words: str) -> list[str]:
    return words.split()


# A reply ending on one of these was cut off or answers some other question ("yes i do").
_DANGLING = frozenset(
    _split(
        "i we and the a an to on for with that's it's is are am do does did have has can will "
        "would could should i'm i'd i'll we're my of at be or just because so like well"
    )
)
# Clause-opening auxiliaries make a question even when ASR drops the "?".
_QUESTION_OPENERS = frozenset(_split("is are do does did can could would will shall isn't aren't"))
# Before a day, these negate it ("not friday", "can't do friday", "instead of friday").
_NEG_BEFORE = frozenset(_split("not can't cannot never won't don't isn't except besides nicht"))
_NEG_AFTER_1 = frozenset(_split("doesn't won't isn't wouldn't can't cannot no"))
_NEG_AFTER_AUX = frozenset(_split("is does do will would"))

_WEEKDAYS: Mapping[str, int] = {
    **{
        name: i
        for i, names in enumerate(
            [
                "monday mondays lunes lundi montag",
                "tuesday tuesdays tues martes mardi dienstag",
                "wednesday wednesdays weds miercoles mercredi mittwoch",
                "thursday thursdays thurs jueves jeudi donnerstag",
                "friday fridays fri viernes vendredi freitag",
                "saturday saturdays sabado samedi samstag",
                "sunday sundays domingo dimanche sonntag",
            ]
        )
        for name in names.split()
    }
}
_WEEKDAY_NAMES = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
_MONTHS: Mapping[str, int] = {
    name: i + 1
    for i, names in enumerate(
        [
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ]
    )
    for name in names.split()
}
_UNITS = _split("one two three four five six seven eight nine")
_ORD_UNITS = _split("first second third fourth fifth sixth seventh eighth ninth")
_TEENS = _split("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
_ORD_TEENS = _split(
    "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
    "nineteenth"
)
_CARDINAL_WORDS: dict[tuple[str, ...], int] = {
    **{(w,): i + 1 for i, w in enumerate(_UNITS)},
    **{(w,): i + 10 for i, w in enumerate(_TEENS)},
    ("twenty",): 20,
    ("thirty",): 30,
    **{("twenty", w): 21 + i for i, w in enumerate(_UNITS)},
    ("thirty", "one"): 31,
}
_ORDINAL_WORDS: dict[tuple[str, ...], int] = {
    **{(w,): i + 1 for i, w in enumerate(_ORD_UNITS)},
    **{(w,): i + 10 for i, w in enumerate(_ORD_TEENS)},
    ("twentieth",): 20,
    ("thirtieth",): 30,
    **{("twenty", w): 21 + i for i, w in enumerate(_ORD_UNITS)},
    ("thirty", "first"): 31,
}
_NUMERIC_ORDINAL = re.compile(r"^([0-9]{1,2})(st|nd|rd|th)$")
_NUMERIC_DAY = re.compile(r"^([0-9]{1,2})(st|nd|rd|th)?$")
_YEAR = re.compile(r"^20[0-9]{2}$")

# Spoken contractions ASR writes without the apostrophe.
_CONTRACTIONS: Mapping[str, str] = {
    "dont": "don't",
    "doesnt": "doesn't",
    "wont": "won't",
    "cant": "can't",
    "isnt": "isn't",
    "thats": "that's",
    "its": "it's",
    "im": "i'm",
    "id": "i'd",
    "ill": "i'll",
    "lets": "let's",
    "whats": "what's",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "didnt": "didn't",
    "arent": "aren't",
    "thatd": "that'd",
    "thatll": "that'll",
    "ok": "okay",
    "okey": "okay",
    "k": "okay",
    "kk": "okay",
    "alrighty": "alright",
    "aight": "alright",
    "yas": "yes",
    "yeas": "yes",
    "cest": "c'est",
    "daccord": "d'accord",
}
_STRETCHED = (
    (re.compile(r"^y+e+s+$"), "yes"),
    (re.compile(r"^y+e+a+h*$"), "yeah"),
    (re.compile(r"^y+u+p+$"), "yup"),
    (re.compile(r"^y+e+p+$"), "yep"),
    (re.compile(r"^o+k+a*y*$"), "okay"),
    (re.compile(r"^n+o+$"), "no"),
    (re.compile(r"^n+a+h+$"), "nah"),
    (re.compile(r"^u+m+$"), "um"),
    (re.compile(r"^u+h+$"), "uh"),
    (re.compile(r"^e+r+m+$"), "erm"),
    (re.compile(r"^h+m+$"), "hmm"),
    (re.compile(r"^m+$"), "mm"),
)
_BOUNDARY = "|"
_ISO_RE = re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b")


# --- tokens and units ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Day:
    """A day or date named in the reply: `label` is what a new request returns."""

    label: str | None  # None: named but cannot be resolved to one date
    when: date | None  # the resolved date, when there is one
    weekday: int | None  # a bare weekday
    start: int
    end: int  # token span [start, end)


@dataclass(frozen=True)
class _Unit:
    category: str
    words: tuple[str, ...]
    start: int


def _normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    folded = re.sub(r"[\u2018\u2019\u02bc`´]", "'", folded)
    folded = _ISO_RE.sub(lambda m: f" iso{m.group(1)}{m.group(2)}{m.group(3)} ", folded)
    # Grunts: "uh-uh"/"nuh uh" refuse; "uh huh"/"mm-hmm"/"mhm" agree.
    folded = re.sub(r"\bn?uh-uh\b|\bnuh[- ]uh\b", " uhuhneg ", folded)
    folded = re.sub(r"\buh+[- ]?huh+\b", " uhhuh ", folded)
    folded = re.sub(r"\bm+[- ]?h+m+\b|\bmhm+\b", " mmhmm ", folded)
    # A word cut off by barge-in ("yes I-") is a fragment, not an answer.
    folded = re.sub(r"(?<=[a-z])-(?=\s|$)", " cutoffmark ", folded)
    folded = folded.replace("-", " ")
    return re.sub(r"[,.;:!?…()\"\u2014\u2013/¿¡]+", f" {_BOUNDARY} ", folded)


def _tokens(normalized: str) -> list[str]:
    out: list[str] = []
    for raw in re.findall(r"[a-z0-9']+|\|", normalized):
        token = raw.strip("'")
        if not token:
            continue
        token = _CONTRACTIONS.get(token, token)
        for pattern, replacement in _STRETCHED:
            if pattern.match(token):
                token = replacement
                break
        # "thursday's fine" -> thursday is fine
        if token.endswith("'s") and (
            token[:-2] in _WEEKDAYS or token[:-2] in {"tomorrow", "today"}
        ):
            out.extend([token[:-2], "is"])
            continue
        out.append(token)
    return out


def _day_number(tokens: list[str], i: int, *, ordinal_only: bool) -> tuple[int, int] | None:
    """(day of month, tokens used) for a day number at tokens[i]."""
    if i >= len(tokens):
        return None
    numeric = (_NUMERIC_ORDINAL if ordinal_only else _NUMERIC_DAY).match(tokens[i])
    if numeric:
        return int(numeric.group(1)), 1
    tables = (_ORDINAL_WORDS,) if ordinal_only else (_ORDINAL_WORDS, _CARDINAL_WORDS)
    for width in (2, 1):
        key = tuple(tokens[i : i + width])
        for table in tables:
            if len(key) == width and key in table:
                return table[key], width
    return None


def _resolve(
    year: int | None, month: int | None, dom: int, *, offered: date | None, today: date | None
) -> date | None:
    """The date meant by a day of the month (and maybe month, year), or None.

    Without a month: that day in the month of the reference, or the month before/after; with a
    month but no year: that date in the reference's year, or the year before/after. Of those,
    the one nearest the reference (`offered`, else `today`), never before `today`: "january 5th"
    said about a 10 December visit is next January, "the 8th" is two days before it.
    """
    ref = offered or today
    if ref is None:
        return None
    candidates: list[date] = []
    for step in (-1, 0, 1):
        if year is not None and step:
            continue
        if month is None:
            m_index = ref.year * 12 + ref.month - 1 + step
            y, m = divmod(m_index, 12)
            y, m = y, m + 1
        else:
            y, m = (year if year is not None else ref.year + step), month
        try:
            candidates.append(date(y, m, dom))
        except ValueError:
            continue
    if today is not None:
        candidates = [c for c in candidates if c >= today]
    if not candidates:
        return None
    return min(candidates, key=lambda c: (abs((c - ref).days), c))


def _find_days(tokens: list[str], *, offered: date | None, today: date | None) -> list[_Day]:
    days: list[_Day] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.startswith("iso") and len(tok) == 11 and tok[3:].isdigit():
            try:
                when: date | None = date(int(tok[3:7]), int(tok[7:9]), int(tok[9:11]))
            except ValueError:
                when = None
            days.append(_Day(when.isoformat() if when else None, when, None, i, i + 1))
            i += 1
            continue
        if tok in _WEEKDAYS:
            wd = _WEEKDAYS[tok]
            days.append(_Day(_WEEKDAY_NAMES[wd], None, wd, i, i + 1))
            i += 1
            continue
        if tok == "today":
            days.append(_Day("today", today, None, i, i + 1))
            i += 1
            continue
        if tok == "tomorrow":
            if i >= 2 and tokens[i - 2 : i] == ["day", "after"]:
                when = today + timedelta(days=2) if today else None
                days.append(_Day(when.isoformat() if when else None, when, None, i - 2, i + 1))
            else:
                when = today + timedelta(days=1) if today else None
                days.append(_Day("tomorrow", when, None, i, i + 1))
            i += 1
            continue
        # month first: "december 10", "dec the 10th", "december tenth 2026"
        if tok in _MONTHS:
            j = i + 1 + (i + 1 < n and tokens[i + 1] == "the")
            num = _day_number(tokens, j, ordinal_only=False)
            if num is not None:
                end = j + num[1]
                year = int(tokens[end]) if end < n and _YEAR.match(tokens[end]) else None
                end += year is not None
                when = _resolve(year, _MONTHS[tok], num[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
        # day first: "10 december", "the 10th", "10th of dec", "the tenth"
        has_the = tok == "the"
        j = i + 1 if has_the else i
        num = _day_number(tokens, j, ordinal_only=False)
        if num is not None:
            end = j + num[1]
            k = end + (end < n and tokens[end] == "of")
            if k < n and tokens[k] in _MONTHS:
                end = k + 1
                year = int(tokens[end]) if end < n and _YEAR.match(tokens[end]) else None
                end += year is not None
                when = _resolve(year, _MONTHS[tokens[k]], num[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
            ordinal = _day_number(tokens, j, ordinal_only=True)
            # A bare ordinal word needs "the" ("wait a second" is not the 2nd); "10th" does not.
            if ordinal is not None and (has_the or _NUMERIC_ORDINAL.match(tokens[j])):
                end = j + ordinal[1]
                when = _resolve(None, None, ordinal[0], offered=offered, today=today)
                days.append(_Day(when.isoformat() if when else None, when, None, i, end))
                i = end
                continue
        i += 1
    return days


def _matches_offered(day: _Day, offered: date | None) -> bool:
    if offered is None:
        return False
    if day.weekday is not None:
        return day.weekday == offered.weekday()
    return day.when == offered


_SCOPE_ENDS = frozenset({("but",), ("instead",)})


def _clause_units(units: list[_Unit], start: int, step: int, limit: int) -> list[_Unit]:
    out: list[_Unit] = []
    i = start
    while 0 <= i < len(units) and units[i].category != _BOUNDARY and len(out) < limit:
        # A contrast ends the scope: "thursday doesn't work but friday does".
        if units[i].words in _SCOPE_ENDS:
            break
        out.append(units[i])
        i += step
    return out


def _negates(unit: _Unit, words: frozenset[str]) -> bool:
    # Phrases decide first: "no worries friday" is not a negated Friday, "can't do friday" is.
    return unit.category == REFUSE or (unit.category == NEG and unit.words[0] in words)


def _is_negated(units: list[_Unit], at: int) -> bool:
    """Whether the day unit at index `at` is negated within its clause."""
    before = _clause_units(units, at - 1, -1, 3)
    if any(_negates(u, _NEG_BEFORE) for u in before):
        return True
    if at >= 2 and [u.words for u in units[at - 2 : at]] == [("instead",), ("of",)]:
        return True
    after = _clause_units(units, at + 1, 1, 2)
    if after and _negates(after[0], _NEG_AFTER_1):
        return True
    return (
        len(after) == 2
        and after[0].words[0] in _NEG_AFTER_AUX
        and _negates(after[1], frozenset({"not", "no"}))
    )


def _units(tokens: list[str], days: list[_Day]) -> list[_Unit]:
    """Greedy longest-phrase match; each named day is one unit of its own."""
    day_at = {d.start: d.end for d in days}
    in_day = {k for d in days for k in range(d.start, d.end)}
    units: list[_Unit] = []
    i = 0
    while i < len(tokens):
        if i in day_at:
            units.append(_Unit("day", tuple(tokens[i : day_at[i]]), i))
            i = day_at[i]
            continue
        tok = tokens[i]
        if tok == _BOUNDARY:
            units.append(_Unit(_BOUNDARY, (tok,), i))
            i += 1
            continue
        for width in range(min(_MAX_PHRASE, len(tokens) - i), 0, -1):
            key = tuple(tokens[i : i + width])
            if _BOUNDARY in key or any(k in in_day for k in range(i, i + width)):
                continue
            category = _LEXICON.get(key)
            if category is not None:
                units.append(_Unit(category, key, i))
                i += width
                break
        else:
            units.append(_Unit("unknown", (tok,), i))
            i += 1
    return units


def _opens_question(units: list[_Unit]) -> bool:
    at_clause_start = True
    opener_seen = False
    for unit in units:
        if unit.category == _BOUNDARY:
            at_clause_start, opener_seen = True, False
            continue
        if unit.category in (FILLER, POLITE) or unit.words == ("and",):
            continue
        if at_clause_start and unit.words[0] in _QUESTION_OPENERS and len(unit.words) == 1:
            opener_seen = True
        elif opener_seen:
            return True  # an opener followed by more words: "is that the morning"
        at_clause_start = False
    return False


def _words(units: Iterable[_Unit]) -> str:
    return " ".join(" ".join(u.words) for u in units)


# --- the classifier ------------------------------------------------------------------------------


def classify_reply(
    text: str, *, offered: date | None = None, today: date | None = None
) -> ReplyReading:
    """What the caller's reply says about the offered visit day; see the module docstring."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if len(text) > MAX_REPLY_CHARS:
        # Not truncated: a cut could drop the "friday" at the end and leave a bare yes.
        return ReplyReading("other", reason="too long to be a clean answer")
    tokens = _tokens(_normalize(text))
    if not [t for t in tokens if t != _BOUNDARY]:
        return ReplyReading("other", reason="empty")

    days = _find_days(tokens, offered=offered, today=today)
    units = _units(tokens, days)
    unit_at = {u.start: i for i, u in enumerate(units)}
    negated = [_is_negated(units, unit_at[d.start]) for d in days]
    for day, neg in zip(days, negated, strict=True):
        if neg or _matches_offered(day, offered):
            continue
        if day.label is None:
            return ReplyReading("other", reason="names a date that cannot be resolved")
        return ReplyReading("new_request", day=day.label, reason=f"names {day.label}")

    content = [u for u in units if u.category != _BOUNDARY]
    cats = {u.category for u in content}

    if "cutoffmark" in tokens:
        return ReplyReading("other", reason="cut off mid-word")
    if "?" in text or "¿" in text or QUESTION in cats or _opens_question(units):
        return ReplyReading("other", reason="question")
    refused_offer = any(
        n and _matches_offered(d, offered) for d, n in zip(days, negated, strict=True)
    )
    if REFUSE in cats or refused_offer:
        return ReplyReading("no", reason="refusal")
    if HEDGE in cats:
        return ReplyReading(
            "other", reason=f"hedge: {_words(u for u in content if u.category == HEDGE)}"
        )
    if NEG in cats:
        if YES in cats:
            return ReplyReading("other", reason="both yes and no")
        return ReplyReading("no", reason="negation")
    if SOFT in cats:
        return ReplyReading("other", reason="ambiguous: could be a polite no")
    if OFFTOPIC in cats:
        off = _words(u for u in content if u.category == OFFTOPIC)
        return ReplyReading("other", reason=f"answers a different question: {off}")
    if "unknown" in cats:
        extra = _words(u for u in content if u.category == "unknown")
        return ReplyReading("other", reason=f"content beyond agreement: {extra}")
    last = content[-1]
    if last.category in (NEUTRAL, FILLER) and len(last.words) == 1 and last.words[0] in _DANGLING:
        return ReplyReading("other", reason="incomplete or answers another question")
    if YES in cats:
        return ReplyReading("yes", reason="agreement")
    if days:
        return ReplyReading("other", reason="repeats the day without agreeing")
    return ReplyReading("other", reason="no agreement word")
