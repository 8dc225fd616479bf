"""How the rule extractor reads a caller: sentences → clauses → typed statements.

`memory.extract` turns what this module reads into `CallerFact`s. It models the language
rather than listing sentences:

- **Clauses, in order.** A sentence is cut at commas, dashes and clause conjunctions ("but",
  "so", "because"); the later clause wins its slot. A clause that opens with a correction
  ("sorry", "I mean", "no wait", "or rather", "scratch that", "actually") also takes back what
  the clause before it said of the same kind ("Tuesdays work - I mean Thursdays").
- **Polarity = predicate × negators × tense.** A day's predicate is positive ("works",
  "free", "home", "can do") or negative ("busy", "away", "no good", "a non-starter", "avoid");
  every negator in the clause ("not", "never", "no", "nobody", "neither", "no longer",
  "unable", "stopped") flips it once; a change marker ("used to", "before", "previously",
  "once", a plural day in the past tense) says the statement was true and is no longer, so it
  flips once more ("we used to be free on Tuesdays" → Tuesdays do not work). "Since",
  "these days", "from now on", "any more" and "now" mark the present and never flip.
- **Scope.** An exception ("any day except Monday", "every day bar Friday") makes the
  excepted day the opposite of the rest; "only"/"just"/"no other day" make a positive day
  exclusive ("Fridays only"). A clause with no day of its own ("but not any more", "these
  days they don't", "that's no good", "no other day") refers back to the last day mentioned
  in the turn — or in the agent's question the caller is answering ("Any days to avoid?" →
  "Fridays") — and inherits its predicate when it has none.
- **Requests are not preferences.** A positive day in a clause that asks for a visit (book,
  send, slot, "for this one", a specific date such as "this Friday" or "the 9th"), or that
  answers the agent's offer of that day, states nothing; a negative one still does when it is
  general ("never a Monday", "not on Fridays").
- **Values** (count, make, floor, flat, address, channel): the last mention in the sentence
  that is not negated, past or replaced wins ("we had two boilers, down to one now", "we
  swapped the Baxi for a Vaillant", "flat 9 now, not flat 3"); a bare value after a
  correction or a question takes the kind of what it corrects or answers ("the third floor,
  sorry, the fourth"; "How many boilers?" → "just the two").
- Questions and hedged clauses ("maybe", "not sure", "probably", "I reckon") state nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from text_to_num import alpha2digit

from contextdb_livekit.api import REVIEW_OPENING
from memory.facts import StatedKind, counted_thing

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_DAY_RE = re.compile(rf"\b({_DAY})\b")


@dataclass(frozen=True)
class Statement:
    """One typed thing a clause says: a kind, its value and (availability) the weekday."""

    kind: StatedKind
    value: str
    key: str | None = None
    negative: bool = False
    # False when the reading rests on a guess (a negator that does not govern the day, with
    # no predicate the reader knows): `memory.extract` keeps the caller's words instead.
    sure: bool = True


# -- normalising -----------------------------------------------------------------------------

_CONTRACTIONS = [
    (re.compile(r"\bcan'?t\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon'?t\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"\b(do|does|did|is|are|was|were|has|have|had|would|could|should|must|ai|need)n'?t\b"),
     r"\1 not"),
    (re.compile(r"'m\b"), " am"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"(\w)'d\b"), r"\1 would"),
    (re.compile(rf"\b(it|that|there|he|she|what|who|nobody|everybody|everyone|someone|here|"
                rf"where|this|everything|nothing|{_DAY})'s\b"), r"\1 is"),
    (re.compile(r"'s (?=(?:a|an|the|my|our|gone|no|not|never|only|usually|always|normally|"
                r"home|in|there|out|off|fine|good|ok|okay|been|just|free|called|down|up|now|"
                r"number|on|at|a|really|definitely|also|still|due|broken|round|around|under|behind|outside|"
                r"inside|next|beside|by|near|upstairs|downstairs)\b)"), " is "),
    (re.compile(r"\banymore\b"), "any more"),
    # Speech-to-text drops the apostrophe: "its in the garage" is "it is in the garage".
    (re.compile(r"\bits (?=(?:a|an|the|in|on|under|round|behind|outside|by|next|now|fine|"
                r"ok|okay|no|not|never|only|just|always|gone|been|broken)\b)"), "it is "),
    (re.compile(r"\bno-go\b"), "no go"),
    (re.compile(r"\bno-?no\b"), "no go"),
    (re.compile(r"\bnon-starter\b"), "non starter"),
    (re.compile(r"\bwrite-off\b"), "write off"),
    (re.compile(r"\be-mail"), "email"),
    (re.compile(r"\b(?:uh+|um+|erm+|uhm+|er)\b"), " "),
]  # fmt: skip


# Small numbers after a word that takes a number ("flat four", "number nine"): a maintained
# parser (text2num) reads the rest, but leaves one to ten as words on purpose.
_SMALL_NUMBER = re.compile(
    r"\b(flat|apartment|unit|number|no|house)\s+(one|two|three|four|five|six|seven|eight|nine|ten)\b"
)
_SMALL = {w: str(n) for n, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=1
)}  # fmt: skip


_NUMBER_LETTER = re.compile(
    r"\b(?P<lead>(?:flat|apartment|unit|number) )(?P<n>\d{1,4}) (?P<l>[a-h])\b(?=\s*(?:[.,!?]|$))|"
    r"\b(?P<lead2>)(?P<n2>\d{1,4}) (?P<l2>[a-h]) (?=(?:[a-z'-]+ ){0,3}(?:road|street|lane|avenue|"
    r"close|drive|way|crescent|terrace|grove|gardens|place|row|mews|hill)\b)"
)


def _join_letter(match: re.Match[str]) -> str:
    if match.group("n") is not None:
        return f"{match.group('lead')}{match.group('n')}{match.group('l')}"
    return f"{match.group('n2')}{match.group('l2')} "


_DAY_RANGE = re.compile(
    r"(?<!from )\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s? "
    r"(?:to|through|till|until|thru) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
)


def _range_days(match: re.Match[str]) -> str:
    start, end = WEEKDAYS.index(match.group(1)), WEEKDAYS.index(match.group(2))
    if end <= start:
        return match.group(0)
    days = list(WEEKDAYS[start : end + 1])
    return " and ".join(days)


def normal(text: str) -> str:
    text = " ".join(text.casefold().replace("\u2019", "'").split())
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    # Numbers said as words ("forty two queens road", "flat fourteen", "eleven radiators").
    text = alpha2digit(text, "en")
    text = _SMALL_NUMBER.sub(lambda m: f"{m.group(1)} {_SMALL[m.group(2)]}", text)
    # "monday to friday", "weekends": the days themselves ("from Tuesday to Thursday" is a
    # move, read by `_MOVED_DAYS`).
    text = _DAY_RANGE.sub(_range_days, text)
    text = re.sub(r"\bweekends\b(?! \w+ing\b)", "saturdays and sundays", text)
    text = re.sub(r"\bthe only (?:thing|problem|issue) is\b", "", text)
    # "flat 23 b", "21 a high street": the letter is part of the number.
    text = _NUMBER_LETTER.sub(_join_letter, text)
    text = re.sub(r"\bhalf a dozen\b", "6", text)
    text = re.sub(r"\b(?:a|one) dozen\b", "12", text)
    text = re.sub(r"\btwin (?=boilers|heat pumps|tanks|cylinders)", "2 ", text)
    return " ".join(text.split())


# -- clauses ---------------------------------------------------------------------------------

_CORRECTION = (
    r"(?:no wait|wait|sorry|i mean|i meant|or rather|rather|scratch that|scrap that|actually|"
    r"hang on|"
    r"hold on|on second thoughts?|my mistake|correction|oh wait|oh no wait|oh no)"
)
_CORRECTION_START = re.compile(
    rf"^(?:or\s+)?(?:(?:no|oh|nope|well)\s+)*{_CORRECTION}\b(?:\s+no\b)?\s*"
)
_SPLIT = re.compile(
    r"\s*[,;:]\s*|\s+-+\s+|\s+\u2014\s+"
    r"|\s+(?=(?:but|although|though|however|whereas|so|because|cos|cause)\b)"
    rf"|(?:(?<=\bgood)|(?<=\bfine)|(?<=\bbad)|(?<=\bout)|(?<=\bnow)|(?<=\bfree)|(?<=\bbusy))"
    rf"\s+(?=and (?:on\s+)?{_DAY}\s+(?:are|is)\b)"
    # "tuesdays are no good it's wednesdays i can do": a new clause after a predicate.
    rf"|(?:(?<=\bgood)|(?<=\bfine)|(?<=\bbad)|(?<=\bout)|(?<=\bok)|(?<=\bokay)|(?<=\bwork))"
    rf"\s+(?=it is (?:an? )?{_DAY}\b)"
    r"|(?<!am)\s+(?=(?:no wait|sorry|i mean|i meant|or rather|scratch that|scrap that|hang on|"
    r"hold on|no hang on|"
    r"i forgot|i was thinking|actually no|no actually)\b)"
)
_DAY_LIST = re.compile(
    rf"(?:(?:and|or|nor)\s+)?(?:on\s+)?(?:an?\s+)?{_DAY}"
    rf"(?:\s+(?:and|or|nor)\s+(?:on\s+)?(?:an?\s+)?{_DAY})*"
    r"(?:\s+(?:any more|any longer|now|either|too|as well|please|at all))*"
)
# The head of a list that runs on past a comma: a bare day, or "none of", "neither", "both"
# before one ("never on a Thursday" is whole already).
_NEGATED_LIST_HEAD = re.compile(
    rf"(?:(?:none of|neither|either|both|all of|any of)\s+(?:on\s+)?(?:an?\s+)?)?{_DAY}"
)
_DAY_LIST_HEAD = re.compile(rf"^(?:(?:and|or|nor)\s+)?{_DAY}(?:\s+(?:and|or|nor)\s+{_DAY})*\b")
_EXCEPTED = re.compile(rf"but\s+(?:not\s+)?(?:on\s+)?(?:an?\s+)?{_DAY}\b")
_LEADING_PARTICLE = re.compile(
    r"^(?:(?:no|nope|yes|yeah|oh|well|ok|okay)\s+)+(?=(?:they|them|it|that|i|we|you|this|those|"
    r"there|he|she|the|my|our|sorry|actually)\b)"
)
# "no, Saturday's fine": "no" before a day with a verb of its own answers, it does not negate.
_LEADING_NO_BEFORE_DAY = re.compile(
    rf"^no\s+(?={_DAY}\s+(?:are|is|were|was|will|would|do|does|have|has)\b)"
)
# "yeah my wife is", "no we're both out": an answer particle, then words, no comma between.
_ANSWER_THEN_WORDS = re.compile(r"^(yes|yeah|yep|no|nope|nah)\s+(?!(?:no|yes|yeah)\b)\w")
# A clause that is only a value: a day, an ordinal or a number, maybe after "just".
_BARE_VALUE = re.compile(
    rf"(?:(?:just|only|no|oh|er|um)\s+)*"
    rf"(?:{_DAY}|\d{{1,3}}(?:st|nd|rd|th)?|the \d{{1,3}}(?:st|nd|rd|th))"
)
_FILLER = re.compile(
    r"(?:no|nope|nah|yes|yeah|yep|oh|well|ok|okay|right|thanks|thank you|cheers|please|"
    r"sorry|no no|not really|correct|that is right)"
)
_PARTICLE = re.compile(r"^(?:(no|nope|nah|not really)|(yes|yeah|yep|yup|correct|that is right))$")


@dataclass
class Clause:
    text: str
    corrects: bool = False


def clauses(sentence: str) -> list[Clause]:
    out: list[Clause] = []
    pending = False
    for raw in _SPLIT.split(sentence):
        text = raw.strip(" .!")
        if (
            out
            and _EXCEPTED.match(text)
            and _UNIVERSAL.search(out[-1].text)
            and not _EXCEPTION_WITH_PREDICATE.match(text)
        ):
            out[-1].text += " " + text  # "any day but Tuesday" is one clause
            continue
        if out and text in ("please", "thanks", "thank you"):
            out[-1].text += " " + text  # "Friday, please": one clause, a request
            continue
        if out and (
            (_DAY_LIST.fullmatch(text) and _DAY_RE.search(out[-1].text))
            or (
                # "None of Monday, Tuesday or Wednesday work": the list runs on.
                _DAY_LIST_HEAD.match(text) and _NEGATED_LIST_HEAD.fullmatch(out[-1].text)
            )
        ):
            # "I can't do Monday, Tuesday or Wednesday any more": one clause over the list.
            out[-1].text += " " + text
            continue
        text = re.sub(
            r"^(?:but|although|though|however|whereas|so|because|cos|cause|and)\s+", "", text
        )
        if not text:
            continue
        corrects = pending
        if (
            out
            and len(out) == 1
            and re.fullmatch(r"sorry", text)
            and _BARE_VALUE.fullmatch(out[0].text)
        ):
            # "Third, sorry", "Just Monday, sorry": the value said first is the correction.
            out[0].corrects = pending = True
            continue
        if match := _CORRECTION_START.match(text):
            corrects, text = True, text[match.end() :].strip()
            if not text or re.fullmatch(r"(?:no|oh|nope|sorry)", text):
                pending = True
                continue
        if re.fullmatch(r"(?:no|nope|oh|no no)", text):
            # A bare "no" answers a question, or corrects what comes next ("fine - no, sorry";
            # "no, the fifth").
            out.append(Clause(text, corrects))
            pending = True
            continue
        pending = False
        # "no they aren't", "yes it is": an answer particle, not a negator of what follows.
        text = _LEADING_PARTICLE.sub("", text)
        text = _LEADING_NO_BEFORE_DAY.sub("", text)
        out.append(Clause(text, corrects))
    return out


# -- lexicon ---------------------------------------------------------------------------------

_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|not sure|unsure|not certain|i think|i guess|i reckon|"
    r"i suppose|might|dunno|do not know|let me (?:check|think|ask|have a think|see)|"
    r"(?:i|we) will (?:check|confirm|let you know|ask|have to check|"
    r"see(?=\s*$|\s+(?:if|what|how|whether|about)\b))|have to check|"
    r"need to check|could be|hopefully|we will see|not decided|if i can|may or may not|"
    r"(?:it|that) depends|depending on|whatever|either way|fairly sure|pretty sure|"
    r"(?:would|will) not swear|not (?:a )?(?:hundred|100) (?:per ?cent|%)|if i remember|"
    r"as far as i know|i believe)\b"
)
_QUESTION_START = re.compile(
    r"^(?:(?:can|could|would|will|shall|should|do|does|did|is|are|am|have|has|may)\s+"
    r"(?:you|i|we|it|he|she|they|there|the|a|an|my|our|your|someone|anyone|somebody)\b|"
    r"(?:what|which|when|where|who|how|why)\b)"
)
# Negative predicates (atoms that carry their own negation are matched whole).
_NEG_ATOMS = re.compile(
    rf"\bno (?:more )?{_DAY}\b|"  # "no Fridays please": the day itself is negated
    r"\b(?:an? (?:\w+ )?issue|stopping (?:me|us)|(?:a )?no go|no good|(?:a )?dead loss|"
    # "please don't offer me a Friday", "don't be putting me down for a Monday".
    r"do not (?:be )?(?:offer\w*|giv\w+|book\w*|put\w*|send\w*|schedul\w+)|"
    r"over my dead body|(?:a )?non[- ]runner|"
    r"(?:a )?wash ?out|no dice|not happening|no use|not a chance|no chance|no way|no go|"
    r"a (?:\w+ )?no|both a no|non starter|"
    r"write off|off limits|off the table|out of the question|not (?:an? )?option|"
    r"(?:do )?not bother(?: with)?|under no circumstances|"
    r"a (?:\w+ )?nightmare|a (?:\w+ )?problem|problems?|hopeless|impossible|unavailable|"
    r"busy|tied up|away|out|at work|working|on nights|on shifts?|bad|terrible|awful|"
    r"rubbish|awkward|difficult|tricky|avoid|forget|keep (?:\w+ )?(?:clear|free)|dreadful|horrible|"
    r"hard|inconvenient|unworkable|a (?:\w+ )?pain|a (?:\w+ )?struggle|hectic|manic|chaotic|"
    r"packed|fully booked|booked up|tough|a (?:\w+ )?bad shout|stuck at \w+|"
    r"(?:am|are|is|be)\s+(?:always\s+|usually\s+|normally\s+)?at\s+(?:the|my|our|his|her|a)\s+"
    r"(?!home\b)\w+|"
    r"a (?:\w+ )?day at (?:work|the hospital)|my (?:\w+ )?(?:class|clinic|shift|session))\b"
)
# Positive predicates that carry their own negation ("I don't mind Thursdays").
_POS_ATOMS = re.compile(
    r"\b(?:(?:do|does|would|will) not mind|not bothered|no problem|no trouble|not fussed|"
    r"not fussy|no bother)\b"
)
_NEGATED_POSITIVE = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?(?:do|free|around|in|home|available|make|manage|able)\b"
)
_NEG_WITH_NOT = re.compile(r"\b(?:not a chance|not (?:an? )?option|(?:do )?not bother(?: with)?)\b")
_POS = re.compile(
    r"\b(?:works?|worked|working from home|work from home|suits?|suited|fine|good|ok|okay|"
    r"alright|all right|great|perfect|best|ideal|better|free|available|possible|an option|"
    r"grand|lovely|brilliant|spot on|handy|sound|sorted|a safe bet|safe|nothing on|"
    r"any ?time|find (?:me|us) in|catch (?:me|us)|"
    r"(?:i|we) (?:can|could)(?=(?: actually| too| as well)?$)|"
    r"have (?:anyone|anybody|someone|somebody|people|you|an engineer|the engineer) round|"
    r"convenient|easy|happy|home|around|about|in|there|off|(?:can|could|able to) (?:do|make|"
    r"manage)|do|manage|make|prefer|preferred|favou?rite|no problem|"
    r"book|booking|schedule|send|sending|come|put me (?:down|in))\b"
)
_PHRASAL_OUT = re.compile(
    r"\b(?:took|take|taken|sort|find|work|try|get|lock|keep|shut|go|went|come|be) out\s*$"
)
# "in", "off" and "there" are predicates only after a copula ("I'm in", "I'm off").
_WEAK_POS = {"in", "off", "there", "about", "do", "make", "manage", "home"}
_COPULA = r"(?:am|are|is|be|been|being|was|were|not|never|always|usually|normally|also|all|both)"
_NEGATOR = re.compile(
    r"\b(?:not|never|no|nobody|no one|noone|nothing|neither|nor|none|no longer|unable|stopped|"
    r"stop|quit|gave up|give up|given up|giving up|without|"
    r"changed(?=\s*$|\s+(?:now|recently|completely|though)\b))\b"
)
# "not only Mondays", "not just Fridays": neither a negation nor exclusive.
_NOT_ONLY = re.compile(r"\bnot (?:only|just)\b")
# "better than Mondays", "instead of Fridays": the day after is not what the clause says.
_COMPARED = re.compile(
    rf"\b(?:(?<!other )than|instead of|rather than|over)\s+(?:on\s+)?(?:an?\s+)?({_DAY})\b"
)
_PAST = re.compile(
    r"\b(?:used to|previously|once(?! a\b)|in the past|formerly|back then|"
    r"(?:i|we) (?:was|were)(?! (?:thinking|going|wondering|saying|told|just|meaning)))\b|"
    r"\bbefore(?:\s+(?:that|then|now))?\s*$"
)
_PRESENT = re.compile(
    r"\b(?:now|these days|nowadays|from now on|going forward|any more|any longer|since|as of|"
    r"again|at the moment|currently|in future|from here on)\b"
)
_EXCLUSIVE = re.compile(
    r"\b(?:only|just|exclusively|solely|no other days?|nothing else|one free day|no other time|"
    r"the one day|nothing but)\b"
)
_EXCLUSIVE_ATOMS = re.compile(r"\b(?:no other days?|nothing else(?: works)?|no other time)\b")
_EXCEPTION = re.compile(
    rf"\b(?:except(?: for)?|apart from|other than|bar|besides|excluding|aside from|save for|"
    rf"but)\s+(?:on\s+)?(?:an?\s+|the\s+)?"
    rf"({_DAY}(?:\s*(?:,|and|or|nor)\s+(?:on\s+)?(?:an?\s+)?{_DAY})*)\b"
)
_EXCEPTION_WITH_PREDICATE = re.compile(
    rf"\bbut\s+(?:on\s+)?(?:an?\s+)?{_DAY}(?:\s+(?:and|or)\s+{_DAY})*\s+"
    rf"(?:are|is|will be|would be|should be|do|does)\b"
)
_UNIVERSAL = re.compile(
    r"\b(?:any|every|all|most|anything|everything|weekdays|whichever|whatever)\b"
)
_WISH = re.compile(
    r"\b(?:would|might)\b|(?<!\bi )(?<!\bwe )\bcould\b|\bthis time\b|\bfor the visit\b"
)
_REQUEST = re.compile(
    r"\b(?:book|booking|booked|schedule|reschedule|put me (?:down|in)|send|sending|come|coming|"
    r"visit|appointment|slot|cancel|reserve|arrange|pencil|let us (?:do|go|say)|"
    r"let's (?:do|go|say)|how about|what about|i will take|i want|i would like|"
    r"for (?:the|this|that) (?:booking|visit|one|appointment|job)|for (?:that|it)|this one)\b"
)
_GENERIC = re.compile(
    rf"\b(?:{_DAY[:-2]})s\b|\b(?:a|any|every|most)\s+(?:{_DAY[:-2]})\b|\b(?:ever|never|"
    rf"in future|from now on|going forward|any more|no more|under no circumstances|usually|"
    rf"always|generally|normally|in general)\b"
)
_SPECIFIC = re.compile(
    rf"\b(?:this|next|last|coming|tomorrow|today)\s+({_DAY})\b|"
    rf"\b({_DAY})\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"\b({_DAY})\s+(?:morning|afternoon|evening|week)\b(?!s)|"
    rf"\b(?:since|until|till|by|(?<!apart )(?<!aside )from|after|last)\s+(?:last\s+|next\s+)?"
    rf"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
)
_JOB = re.compile(
    rf"\b(?:i|we|he|she|they)\s+(?:\w+\s+){{0,2}}?(?P<verb>work|working|works)\s+(?:on\s+)?(?:a\s+)?"
    rf"(?:every\s+)?{_DAY}\b"
)
_BARE_DAYS = re.compile(
    rf"(?:(?:yes|yeah|and|or|also|too|on|a|the|just|i mean|mostly|usually|well|is|are|"
    rf"same for|same goes for|same with|ditto)\s+)*"
    rf"{_DAY}(?:\s+(?:and|or|too|also|as well|please|then|again|mostly|usually|generally|"
    rf"normally|mainly))*"
    rf"(?:\s+{_DAY}(?:\s+(?:and|or|too|also|as well|please|then))*)*"
)
# A change of routine: a day said to work now replaces the days that worked before.
# A negator on the day itself: "no Fridays", "not Mondays", "never on a Tuesday".
_NEGATED_DAY = re.compile(
    rf"\b(?:no|not|never|nor|neither)\s+(?:on\s+)?(?:the\s+|any\s+|an?\s+)?{_DAY}\b|"
    rf"\b(?:stopped|quit|gave up|given up|no longer)\s+(?:\w+\s+)?(?:on\s+)?(?:an?\s+)?{_DAY}\b|"
    rf"\b{_DAY}\s+(?:are\s+|is\s+)?(?:not|never|no)\b"
)
_MOVED_DAYS = re.compile(
    rf"\b(?:moved|switched|changed|swapped|gone|changing|moving|switching)\s+(?:\w+\s+){{0,2}}?"
    rf"from\s+(?:an?\s+)?({_DAY})\s+(?:over\s+)?to\s+(?:an?\s+)?({_DAY})\b"
)
_DAY_NEGATOR = re.compile(rf"\b(?:not|no|never)\s+(?:on\s+)?(?:an?\s+)?{_DAY}\b")
# A negator with the day or list of days it governs ("not Monday, Wednesday or Friday").
_DAY_NEGATOR_DAY = re.compile(
    rf"\b(?:not|no|never|nor|neither)\s+(?:on\s+)?(?:an?\s+)?{_DAY}"
    rf"(?:\s+(?:(?:and|or|nor)\s+)?(?:on\s+)?(?:an?\s+)?{_DAY})*\b"
)
_TURN_CORRECTION = re.compile(
    r"^(?:(?:oh|no|well|ah)\s+)*(?:sorry|actually|wait|hang on|hold on|my mistake|"
    r"i got that wrong|i meant|i mean|correction|scratch that|on second thoughts?|no no|"
    r"not quite|that is wrong|that is not right)\b"
)
_SWITCH = re.compile(
    r"\b(?:swapped|swapped over|switched|changed|changed over|instead|from now on|going forward|"
    r"these days|nowadays|it is now|now it is|it will have to be|has to be|have to be)\b"
)
_PREFER = re.compile(r"\b(?:prefer|preferred|best|better|ideal|ideally|favou?rite)\b")
_SIMILE = re.compile(r"\blike an? (?:\w+ ){0,2}\w+")
_TIME_OF_DAY = re.compile(r"\b(?:mornings?|afternoons?|evenings?|lunchtime|early|late)\b")
_PRONOUN_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|though|then|no|oh)\s+)*(?:they|those|that|it|this)\b"
)
# Words a clause may consist of and still be only what is left of an earlier one.
_REMNANT_WORDS = frozenset(
    re.findall(
        r"\w+",
        "not never no any more longer now these days nowadays again though really actually "
        "sorry from on going forward at all they them those that it this are is do does did "
        "will would was were have has be been i we am definitely certainly anyway still either "
        "even just please mate for me us thanks changed",
    )
)


# -- values ----------------------------------------------------------------------------------

_NUMBERS = {
    "one": 1, "a single": 1, "single": 1, "the one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_NUMBER = r"(\d{1,2}|a single|one|two|three|four|five|six|seven|eight|nine|ten)"
_UNITS = (
    r"(boilers?|heat pumps?|units?|radiators?|rads|furnaces?|water heaters?|air conditioners?|"
    r"air conditioning units?|ac units?|aircon units?|air con units?|air-con units?|tanks?|"
    r"storage heaters?|"
    r"hot water cylinders?|cylinders?|thermostats?|solar panels?|bathrooms?|bedrooms?|"
    r"shower rooms?|towel rails?)"
)
_COUNT = re.compile(rf"\b{_NUMBER} {_UNITS}\b")
# "two more radiators": the talk is about radiators, but not how many there are.
_SINGLE = re.compile(
    r"\b(?:a|an|one)\s+(?:(?:combi|new|gas|small|little|big|single|electric)\s+)?"
    r"(boiler|heat pump|radiator|furnace|water heater|air conditioner|tank|storage heater|"
    r"hot water cylinder|cylinder|thermostat|solar panel)\b(?!s)"
)
_PARTIAL_COUNT = re.compile(
    r"\b(?:each|every|per|apiece|upstairs|downstairs|in the (?:\w+ )?(?:kitchen|lounge|"
    r"bedroom|bathroom|hall|diner|living room|front room|back room|annexe|extension|office))\b"
)
_COUNT_MENTION = re.compile(rf"\b{_NUMBER} (?:more |extra |new |old )?{_UNITS}\b")
# "down from three radiators to two", "up to 6 rads now": the number after "to" is current.
_COUNT_CHANGE = re.compile(
    rf"\b(?:down|up|gone|went|going|cut|dropped)\s+(?:from\s+{_NUMBER}(?:\s+{_UNITS})?\s+)?"
    rf"to\s+(?:just\s+|only\s+)?(?:the\s+)?{_NUMBER}(?:\s+{_UNITS})?\b"
)
# "three or four radiators", "5 to 6 rads": a range is a guess, not a count.
_COUNT_RANGE = re.compile(rf"\b{_NUMBER}\s+(?:or|to)\s+{_NUMBER}\s+{_UNITS}")
_BOILER_TYPE = re.compile(
    r"\b(?:(combi(?:nation boiler)?)(?: boiler)?|(system) boiler|(back) boiler|"
    r"(conventional|regular|heat only|heat-only|open vent|open-vent|traditional) "
    r"(?:boiler|system)|"
    r"(?<!no )(tanks?|cold water tanks?|header tanks?)(?: is| are|'s)? (?:up )?in the loft|"
    r"(sealed system|unvented)|(open[- ]vent(?:ed)?|heat[- ]only|header tank))\b"
)
_WHERE = re.compile(
    r"^(?:it is\s+|it's\s+)?((?:round|around|in|under|by|behind|on|outside|inside|next to|"
    r"beside|near|above|below)\b.*)$"
)
# A bare room or place answering "Where's the meter?" ("Kitchen, in the cupboard").
_BARE_PLACE = re.compile(
    r"^(?:the |in the |it is in the )?(?:kitchen|hall|hallway|garage|cellar|basement|porch|"
    r"utility(?: room)?|pantry|loft|shed|garden|outside|downstairs|upstairs)$"
)
_WHERE_WORDS = re.compile(r"\b(?:outside|inside|round|around|under|behind|next to|in the|at the)\b")
_METER = re.compile(
    r"\b(?:gas |electric |electricity |water )?meters?(?: box| cupboard)?\s+"
    r"(?:for (?:\w+\s+){1,3}?)?(?:it is\s+)?"
    r"(?P<verb>(?:(?:is|has|have|was|were) (?:been )?)?moved(?: to)?(?: it is)?|"
    r"is|are|has been|have been|was|were|used to be|now is|lives|sits)?\s*(?:now\s+)?"
    r"(?P<place>(?:(?<=moved to )the|round|around|at|in|under|by|behind|on|outside|inside|next to|"
    r"beside|near|above|"
    r"below|down|up|to the (?:left|right) of|left of|right of)\b.*)$"
)
_BARE_COUNT = re.compile(r"^(?:(?:it is|that is|there are|there is|we have|just|only|now|"
                         r"so|which makes|making)\s+)*(?:the\s+)?"
                         r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
                         r"(?:\s+(?:now|then|actually|of them|in total))*$")  # fmt: skip
_BRANDS = (
    "vaillant", "worcester bosch", "worcester", "baxi", "ideal", "viessmann", "glow-worm",
    "glow worm",
    "glowworm", "potterton", "navien", "rinnai", "bosch", "daikin", "mitsubishi", "carrier",
    "trane", "lennox", "rheem", "ariston", "alpha", "intergas", "vokera",
)  # fmt: skip
# How a brand is written when callers shorten or run it together.
_BRAND_NAMES = {
    "worcester": "Worcester Bosch",
    "worcester bosch": "Worcester Bosch",
    "glow-worm": "Glow-worm",
    "glowworm": "Glow-worm",
    "glow worm": "Glow-worm",
}
# Words that are brands only when the talk is about equipment ("Friday would be ideal").
_AMBIGUOUS_BRANDS = frozenset({"ideal", "alpha", "carrier", "trane", "mitsubishi", "bosch"})
_BRAND = re.compile(
    r"\b(" + "|".join(re.escape(b) for b in _BRANDS) + r")\b((?:\s+[a-z]*\d[\w-]*|\s+ecotec\w*|"
    r"\s+greenstar\w*|\s+logic\w*|\s+duo-tec\w*|\s+vitodens\w*)*)"
)
_EQUIPMENT = re.compile(
    r"\b(?:boiler|heat pump|furnace|unit|system|combi|model|make|brand|water heater|"
    r"air conditioner|installed|fitted)\b"
)
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip
_ORDINAL_WORDS = (
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\d{1,2}(?:st|nd|rd|th)"
)
_ORDINAL = f"({_ORDINAL_WORDS})"
_FLOOR = re.compile(
    rf"\b(?:(lower ground|ground|basement|top|{_ORDINAL_WORDS}) floor|floor (\d{{1,2}})|"
    rf"(basement)(?= (?:flat|apartment))|(?:live|living|are|am|is) in the (basement))\b"
)
_BARE_ORDINAL = re.compile(
    rf"^(?:(?:it is|we are|i am|on|up on|up|down on)\s+)*(?:the\s+)?{_ORDINAL}"
    rf"(?:\s+(?:one|now|actually))*$"
)
_FLOOR_NOT_OURS = re.compile(
    r"\b(?:boiler|meter|tank|radiator|cupboard|fuse box|stopcock|pump|thermostat|valve)\b"
)
_FLAT = re.compile(
    r"\b(flat|apartment|apt|unit|suite)(?:\s+is|\s+number|\s+no\.?)*\s+(\d{1,4}[a-z]?|[a-z]\d{1,3})\b"
)
_BARE_FLAT = re.compile(r"^(?:(?:it is|number|flat|we are|i am|in)\s+)*(\d{1,4}[a-z]?)$")
_FLAT_NUMBER = re.compile(r"\bnumber (\d{1,4}[a-z]?)\b")
_STREET = (
    r"(\d{1,5}[a-z]?\s+(?:[a-z'-]+\s+){0,4}?(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|"
    r"dr|way|court|ct|place|pl|crescent|terrace|grove|gardens|boulevard|blvd|walk|row|mews|hill|"
    r"view|rise|parade|square|vale|wharf|quay|green|park|close))\b"
)
# "It's 9 Mill Lane": a whole clause that is a street address.
_BARE_ADDRESS = re.compile(
    rf"^(?:(?:it is|that is|the address is|address|the new address is|new address is|number|no|"
    rf"er|um|its|we are at|i am at|we are now at|it is number)\s+)*{_STREET}"
    rf"(?:\s+(?:now|these days))?$"
)
_HOUSE_NUMBER = re.compile(r"^(?:(?:it is|number|no)\s+)*(\d{1,5}[a-z]?)$")
_ADDRESS = re.compile(
    r"\b(?:my (?:new )?address is|our (?:new )?address is|address is|i live at|i am at|we are at|"
    r"were at|"
    r"(?:i|we)(?: have)? moved to|(?:i|we) are now at|we are now at|new address is|now at|"
    r"(?:i|we) relocated to|(?:i|we) live at)\s+"
    r"(\d{1,5}[a-z]?\s+(?:[a-z'-]+\s+){0,4}?(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|"
    r"dr|way|court|ct|place|pl|crescent|terrace|grove|gardens|boulevard|blvd|walk|row|mews|hill))\b"
)
_CONTACT = [
    (re.compile(r"\b(?:text(?:ing|s)?(?! of)|sms|message me|whatsapp)\b"), "text message"),
    (re.compile(r"\b(?:email(?:ing|s)?|e mail)\b"), "email"),
    (re.compile(r"\b(?:(?:call|ring|bell|called|rang|phoned) (?:me|us|my|on)|calling|calls|"
                r"(?:call|ring|called|rang|phoned) the (?:landline|mobile|house phone|home phone)|"
                r"phone(?: me| call| calls|s)?|ringing|by phone|on the phone|"
                r"give (?:me|us) a (?:call|ring|bell))\b"), "phone call"),
]  # fmt: skip
# Which phone, when the caller names one for calls ("ring me on the landline not the mobile").
_PHONE = re.compile(
    r"\b(landline|home phone|house phone|home number|the house|mobile|cell|mobile phone)\b"
)
_CALL_VERB = re.compile(
    r"\b(?:call|calls|called|calling|ring|rang|ringing|phone me|phone the|phoned|reach me|get me|"
    r"try|bell)\b"
)
_DENIED_CHANNEL = re.compile(
    r"\b(?:not|no longer|rather than|instead of)\s+(?:on\s+|by\s+|to\s+)?(?:the\s+|my\s+|a\s+)?"
    r"(?:landline|home phone|house phone|mobile|cell|email|text|texts|phone)\b"
)
_PHONE_PREFERRED = re.compile(
    r"\b(landline|home phone|house phone|mobile|mobile phone)(?:'s| is| number is)?\s+"
    r"(?:is\s+)?(?:the\s+)?(?:best|better|easiest|easier|preferred|best bet|way to go|"
    r"best way|please)\b"
)
_ONE_OFF_CONTACT = re.compile(
    r"\b(?:the|that|this|your|my) (?:email|e mail|text|message|letter) (?:i|we|you|from|about|"
    r"with)\b|"
    r"\b(?:i|we) (?:will|can|shall|am going to|could) (?:text|email|e mail|call|ring|phone|"
    r"message|send)\b|"
    r"\b(?:text|email|call|ring|phone|message)(?: me| us)?(?: \w+){0,2} "
    r"(?:when|once|before|after|if) (?:you|the engineer|he|she|they)\b"
)
_CONTACT_CONTEXT = re.compile(
    r"\b(?:me|better|best|easier|prefer|please|instead|rather|by|is|works|reach|contact|way|"
    r"mobile|landline|us|"
    r"good|fine|send|a text|an email|on the phone)\b"
)
# A value said to be gone, replaced, past or denied: the mention is not the current value.
_OLD_BEFORE = re.compile(
    r"\b(?:not|no longer|never|old|had|used to (?:have|be|live)|got rid of|took out|take out|"
    r"taken out|removed|replaced|swapped|swap|sold|instead of|rather than|from|previously|"
    r"was|were|moved out of|left)\b(?:\s+[\w-]+){0,3}\s*$"
)
_NEW_BEFORE = re.compile(
    r"\b(?:with|by|for|to|into|now|put in|got|have|has|is|are|new|installed|fitted)\s+"
    r"(?:(?:a|an|the|our|my|new|just|only)\s+)*$"
)
_OLD_AFTER = re.compile(
    r"^\s*(?:(?:boiler|unit|heat pump|one|combi)\s+)?(?:is gone|has gone|gone|is no more|"
    r"(?:was|were|got|has been|have been) (?:replaced|removed|taken out|swapped)|was our old|"
    r"was the old|(?:is|was) old|before|(?:does|do|is|are|was) not (?:count|matter|apply)|"
    r"(?:was|were) (?:at |in |from )?(?:the|our|my) (?:last|old|previous|other) "
    r"(?:house|place|flat|home|address))\b"
)
_HAVE_HAD = re.compile(r"\b(?:have|we've|i've)\s+had\s*$")
_ACCESS = re.compile(
    r"\b(door code|gate code|key ?safe|lock ?box|alarm code|access code|the key is|key under|"
    r"side gate|back gate|ring the bell|buzzer|intercom|spare key|side door|back door|knock|"
    r"doorbell|entrance|access is|cattle grid|steep|path up|door sticks)\b"
)
_PARKING = re.compile(
    r"\b(?:park|parking|parked|driveway|(?:the|our|my|on the|in the) drive|car park|"
    r"visitor (?:bay|space|parking|permit)|double yellows?|pay and display|parking permit|"
    r"permits?)\b"
)
_NOT_PARKING = re.compile(
    r"\bpark (?:road|rd|lane|avenue|street|way|close|drive|crescent|view|place)\b|"
    r"\b(?:business|retail|industrial|trading|science|the) park\b"
)
_ANIMALS = (
    r"dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|budgies?|birds?|rabbits?|bunn(?:y|ies)|"
    r"hamsters?|guinea pigs?|tortoises?|snakes?|lizards?|chickens?|hens?|ferrets?|"
    r"labradors?|spaniels?|terriers?|german shepherds?|shepherds?|collies?|poodles?|"
    r"retrievers?|cockapoos?|cavapoos?|greyhounds?|whippets?|huskies|husky|pugs?|bulldogs?|"
    r"staffies|staffy|dachshunds?|pets?|animals?"
)
# Words that answer a question without saying anything of their own.
_ASSENT_WORDS = frozenset(
    re.findall(
        r"\w+",
        "yes yeah yep yup no nope nah ok okay sure fine problem of course absolutely that is "
        "it all right alright definitely certainly not really thanks please oh well correct",
    )
)
_NOT_AN_ANIMAL = re.compile(r"\b[a-z] for \w+\b|(?:^|\s)pet\s*$|\b(?:love|pet|petal|hun|mate)$")
_PAST_PET = re.compile(r"\b(?:used to have|died|passed away|put down|rehomed|we lost)\b")
_PETS = re.compile(rf"(?<!\bas a )\b(?:{_ANIMALS})\b")  # not "free as a bird"
_NO_PETS = re.compile(
    r"\b(?:no|not (?:have|got) any|not any|nor any|without) (?:pets|animals)\b|"
    r"\bpet free\b"
)
_PERSON = (
    r"(?:my|our|the|caller's|his|her|their)\s+(?:[a-z]+\s+)?(husband|wife|partner|son|daughter|"
    r"mum|mom|mother|dad|father|brother|sister|grandson|granddaughter|grandma|granny|gran|"
    r"grandad|grandpa|grandfather|grandmother|lodger|tenant|carer|nanny|cleaner|neighbou?r|"
    r"caretaker|landlord|landlady|housemate|flatmate|au pair|friend|boyfriend|girlfriend|"
    r"uncle|aunt|niece|nephew|concierge|porter|housekeeper|childminder|mother-in-law|"
    r"father-in-law|son-in-law|daughter-in-law|builder)\b"
)
_PRESENCE = re.compile(
    rf"\b{_PERSON}(?:\s+(?!in\b)[a-z0-9]+){{0,3}}?\s+(?:"
    # Where they will be needs a verb: "my husband will be in", not "my friend in Leeds".
    rf"(?:(?:is|are|will|would|should|can|usually|normally|always|generally|often|be|has)\s+)+"
    rf"(?:be\s+)?(?:in(?=\s*$|\s+(?:on|all|most|every|during|when|from|after|before|until|"
    rf"till|at|today|tomorrow|the (?:morning|afternoon|evening|day)|mornings?|afternoons?|"
    rf"evenings?|{_DAY}|to let|and|so|anyway)\b)|home|at home|there|around|about|"
    rf"in the house)|"
    rf"(?:(?:is|are|will|would|should|can|usually|normally|always|generally|often|be|has)\s+)*"
    rf"(?:let (?:you|the engineer|them|him|her|people) in(?:to)?|answer the door|open up|"
    rf"meet (?:you|your engineer|the engineer|him|her|them)|"
    rf"a key|has a key|works from home|working from home|stays? (?:in|home)|to let|will let))\b"
)
# "it'll be my dad at the house", "grandad will be in": who will be there, said another way.
_WHO_WILL_BE = re.compile(
    r"\bit will be (?:my|our|the) (?:\w+ )?(?:husband|wife|partner|son|daughter|mum|dad|mother|"
    r"father|brother|sister|nan|gran|grandad|grandma|lodger|tenant|carer|neighbou?r|landlord|"
    r"landlady|friend)\b|"
    r"^(?:my |our )?(?:grandad|grandpa|grandma|granny|nan|gran|mum|dad|"
    r"(?:sister|brother|mother|father|son|daughter) in law) (?:will|is|would|can) "
    r"(?:be )?(?:in|home|there|around|about|here)\b"
)
_SOMEONE_HOME = re.compile(
    r"\b(?:someone|somebody|one of us|always someone)\s+(?:is\s+|will be\s+)?(?:always\s+)?"
    r"(?:in|home|around|there|about)\b"
)
_PERSON_RE = re.compile(rf"\b{_PERSON}|\b(?:my|our|me)\s+(husband|wife|partner|son|daughter|mum|"
                        rf"dad|brother|sister|lodger|tenant|carer|neighbou?r)\b")  # fmt: skip


# Somebody else is what a clause is about ("my neighbour can't do Mondays", "my mum's only free
# on Wednesdays", "she's on the fifth floor"): never the caller's fact, unless the caller is
# in it too ("my wife and I can't do Mondays").
_OTHER_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|also|plus|then|because|cos|yeah|yes|no|for|with|at)\s+)*"
    r"(?:next door(?:'s)?|the (?:lady|man|woman|bloke|guy|people|family|couple|folks?|"
    r"neighbou?rs?|tenants?|owners?|previous owners?|last owners?)(?:'s)?"
    r"(?: (?:upstairs|downstairs|next door|below|above|opposite|across the road))?|"
    r"the (?:flat|house|place|people|one) (?:above|below|upstairs|downstairs|next door|"
    r"opposite|across the road)(?: me| us| ours)?|"
    r"(?:(?:my|our|the|his|her|their|a|caller's)\s+(?:[a-z]+\s+){0,2}|me\s+)"
    r"(?:husband|wife|partner|son|daughter|"
    r"mum|mom|mother|dad|father|brother|sister|grandson|granddaughter|grandma|granny|gran|nan|"
    r"nana|grandad|grandpa|grandfather|grandmother|lodger|tenant|carer|neighbou?r|landlord|"
    r"landlady|housemate|flatmate|friend|boyfriend|girlfriend|uncle|aunt|auntie|niece|nephew|"
    r"colleague|boss|cousin|kids?|children|child|in-laws?|mother-in-law|father-in-law|family|"
    r"mate|pal|"
    r"parents|folks)s?(?:'s)?|he|she|his|her|hers|theirs)\b"
)
# Somebody else's something, anywhere in a clause ("... my sister's got a Baxi").
_SOMEONE_ELSES = re.compile(
    r"\b(?:(?:my|our|his|her|their|me)\s+(?:[a-z]+\s+)?(?:husband|wife|partner|son|daughter|mum|"
    r"mom|mother|dad|father|brother|sister|gran|nan|grandma|grandad|neighbou?rs?|friend|mate|"
    r"landlord|landlady|auntie|aunt|uncle|cousin|in-laws?|mother-in-law|father-in-law|"
    r"son-in-law|daughter-in-law|colleague|boss)|next door|the (?:flat|house|people) "
    r"(?:above|below|upstairs|downstairs|next door))(?:'s| is| has| have| had| got)\b"
)
_OWN_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|yes|yeah|no)\s+)*"
    r"(?:i|we|me|us|my|our|ours|mine|it|there|that|this)\b"
)
_FIRST_PERSON = re.compile(r"\b(?:i|we|me|us|myself|ourselves|ours|mine)\b")
# What another person's words may still tell us about the caller's own visit.
ABOUT_THE_VISIT: frozenset[str] = frozenset({"who_home", "access_notes"})


# What a tradesman said of himself: "the engineer last time said Tuesdays were his day off".
_REPORTED = re.compile(
    r"^(?:the|a|our|my|your)\s+(?:engineer|plumber|fitter|electrician|technician|installer|"
    r"chap|lad|bloke|man|woman|lady)\b(?:\s+\w+){0,4}?\s+(?:said|says|told|reckons|mentioned)\b"
)


# A correction said a few words into a turn ("oh no wait sorry", "let me recount").
_CORRECTION_WORDS = (
    r"(?:sorry|actually|wait|hang on|hold on|my mistake|i got that wrong|i meant|i mean|"
    r"correction|scratch that|scrap that|on second thoughts?|not quite|that is wrong|"
    r"that is not right|that is not it|let me recount|recount|recounted|thinking about it|"
    r"or rather|come to think of it)"
)
_EARLY_CORRECTION = re.compile(
    rf"^(?:(?:oh|no|nope|wait|um|umm|er|erm|ah|well|sorry|actually|just|ok|okay|right|"
    rf"yes|yeah|hmm|so)\s+){{0,5}}(?:\w+\s+)?{_CORRECTION_WORDS}\b"
)
_ADDING = re.compile(r"\b(?:too|also|as well|another thing|one more thing)\b")
# Markers that make a second, different value in the same turn a change, not a contradiction.
_CHANGE = re.compile(
    rf"\b{_CORRECTION_WORDS}\b|"
    r"^(?:oh\s+|well\s+)?no\b|"
    r"\b(?:instead|now|any more|no longer|swapped|switched|changed|from now on|"
    r"used to|these days|nowadays|going forward|before|new|old)\b"
)
# Words that show a turn is about a kind of fact, whether or not the reader can type it.
_KIND_WORDS: dict[str, re.Pattern[str]] = {
    "availability": _DAY_RE,
    "preferred_day": _DAY_RE,
    "equipment_count": re.compile(
        r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|count|"
        r"counted|recount)\b"
    ),
    "equipment_make": re.compile(r"\b(?:make|brand|model|sticker|label|badge|it is an?)\b"),
    "boiler_type": re.compile(r"\b(?:combi|system|conventional|tank|cylinder|back boiler)\b"),
    "meter_location": re.compile(r"\b(?:meter|cupboard|under|outside|inside|by the|next to)\b"),
    "floor": re.compile(r"\b(?:floor|ground|basement|upstairs|downstairs|storey|level)\b"),
    "flat": re.compile(r"\b(?:flat|apartment|unit|number|\d+[a-z]?)\b"),
    "address": re.compile(r"\b(?:\d+|number|road|street|lane|avenue|close|drive|way)\b"),
    "contact_preference": re.compile(
        r"\b(?:call|ring|phone|text|texts|email|e mail|mobile|landline|number|message)\b"
    ),
}


def corrects_last_turn(turn: str) -> bool:
    """ "Oh no wait, sorry…", "Let me recount…": the turn corrects the caller's last one."""
    text = " ".join(re.sub(r"[^\w\s']", " ", normal(turn)).split())
    opens = bool(_TURN_CORRECTION.match(text) or _EARLY_CORRECTION.match(text))
    return opens and not _ADDING.search(text)


def kinds_mentioned(text: str) -> set[str]:
    """The kinds of fact a text is about, read loosely (a mention, not a reading)."""
    normalised = normal(text)
    kinds = {kind for kind, words in _KIND_WORDS.items() if words.search(normalised)}
    if _BRAND.search(normalised):
        kinds.add("equipment_make")
    return kinds


def says_change(text: str) -> bool:
    """A sentence that marks a correction or a change, so its value replaces an earlier one."""
    normalised = normal(text)
    return bool(_CHANGE.search(normalised)) or any(c.corrects for c in clauses(normalised))


def says_routine_changed(sentence: str) -> bool:
    """ "We've swapped, it's Tuesdays from now on": the days that worked before no longer do."""
    return bool(_SWITCH.search(normal(sentence)))


def about_someone_else(clause: str) -> bool:
    if _REPORTED.match(clause):
        return True
    match = _OTHER_SUBJECT.match(clause)
    return match is not None and not _FIRST_PERSON.search(clause[match.end() :])


# -- what the agent asked --------------------------------------------------------------------


@dataclass
class Asked:
    """The agent's last question: what a short answer is about."""

    days: tuple[str, ...] = ()
    base: int | None = None  # the predicate the question asks about
    topic: str | None = None  # a value kind ("equipment_count", "floor", ...)
    unit: str | None = None
    offered: tuple[str, ...] = ()  # days in an offer or read-back: a yes is not a preference
    best: bool = False  # "Which days suit you best?": a day named in answer is the favourite
    proposed: str | None = None  # "Is it a combi?": the value a bare yes takes the agent's word for


_OFFER = re.compile(
    r"\bfor (?:the|this|your) (?:booking|visit|appointment|engineer|job)\b|"
    r"\b(?:shall i|should i|would you like|do you want|can i (?:book|put)|i can (?:offer|do)|"
    r"there is a slot|how about|what about|i have|book|cancel)\b"
)


def read_question(text: str) -> Asked:
    t = normal(text)
    if t.startswith(normal(REVIEW_OPENING)):
        return Asked()  # the host's review read-back (`tools.review`): "yes" answers it, no kind
    days = tuple(dict.fromkeys(_weekday(d) for d in _DAY_RE.findall(t)))
    if t.endswith("?") and re.search(
        r"\b(?:contact|reach|get hold of|get in touch with) you\b|\bget in touch\b|"
        r"\bhow (?:would|do|shall|should) (?:you like|we|i) (?:us to )?(?:contact|reach|get)\b",
        t,
    ):
        return Asked(topic="contact_preference")
    if _OFFER.search(t) or _SPECIFIC.search(t) or re.search(r"\b\d{1,2}\b", t):
        return Asked(offered=days)
    if not t.rstrip().endswith("?"):
        return Asked()
    if match := re.search(rf"\bhow many {_UNITS}", t):
        return Asked(topic="equipment_count", unit=match.group(1))
    if re.search(r"\b(?:what|which) (?:make|brand|model|kind of (?:boiler|system|heat pump))\b", t):
        return Asked(topic="equipment_make")
    if re.search(r"\b(?:which|what) (?:flat|apartment)\b|\b(?:flat|apartment) number\b", t):
        return Asked(topic="flat")
    if re.search(r"\bmeters?\b", t):
        return Asked(topic="meter_location")
    if re.search(r"\b(?:what|which) (?:type|kind|sort) of boiler\b", t):
        return Asked(topic="boiler_type")
    if re.match(r"^(?:is|so is) (?:it|that|your boiler|the boiler) an? ", t) and (
        kind := _BOILER_TYPE.search(t)
    ):
        # "Is it a combi boiler?": a bare "yes" takes the agent's word for it.
        return Asked(topic="boiler_type", proposed=_boiler_type_value(kind))
    if re.search(r"\b(?:what|which) floor\b", t):
        return Asked(topic="floor")
    if re.search(r"\b(?:park|parking)\b", t):
        return Asked(topic="parking")
    if re.search(r"\b(?:pets?|animals?|dogs?|cats?)\b", t):
        return Asked(topic="pets")
    if days:
        # "Is anyone home on Fridays?": a yes or no is said of the days.
        sign, negators = _predicate(t)
        return Asked(days=days, base=(sign or 1) * (-1) ** negators)
    if re.search(r"\b(?:anyone|anybody|someone|somebody|who)\b.*\b(?:home|in|there|around)\b", t):
        return Asked(topic="who_home")
    if re.search(r"\b(?:days?|weekdays?)\b", t):
        sign, negators = _predicate(t)
        best = bool(re.search(r"\b(?:best|prefer|preferred|particularly good|favou?rite)\b", t))
        return Asked(days=days, base=(sign or 1) * (-1) ** negators, best=best)
    return Asked()


# -- reading ---------------------------------------------------------------------------------


@dataclass
class _Reading:
    days: list[str]
    base: int | None
    polarity: int | None = None  # what the clause said of its days, negators included
    asked: bool = False  # the agent's question, not the caller's own clause
    echo: bool = False  # "Tuesday?": the caller's next clause is about it
    excepted: bool = False  # "apart from Mondays, ...": what follows is said of the others


@dataclass
class CallReader:
    """Reads one call's caller sentences in order; what a clause refers back to is kept here."""

    asked: Asked = field(default_factory=Asked)
    antecedent: _Reading | None = None
    last_value_kind: str | None = None
    last_unit: str | None = None
    retracted: list[tuple[str, str | None]] = field(default_factory=list)
    _previous: list[Statement] = field(default_factory=list)
    _kinds_here: set[str] = field(default_factory=set)  # value kinds named in this sentence
    _requested_here: set[str] = field(default_factory=set)  # days asked for in this turn
    _last_reading: _Reading | None = None  # the caller's last clause about days, this call
    _working_days: set[str] = field(default_factory=set)  # said to work earlier this call
    _switch_here: bool = False  # this sentence says the routine changed
    _last_address: str = ""
    _sentence: str = ""  # the sentence being read, normalised
    _guessed: bool = False  # the clause's day polarity is a guess (see `Statement.sure`)
    _this_turn: list[Statement] = field(default_factory=list)
    _last_turn: list[Statement] = field(default_factory=list)  # the caller's last turn's facts
    _turn_opening: bool = False
    _correcting_turn: bool = False
    _equipment_talk: bool = False  # this sentence is about equipment
    _more_here: bool = False  # more clauses follow in this sentence

    def agent_said(self, text: str) -> None:
        self.asked = read_question(text)

    def new_turn(self) -> None:
        if self._this_turn:
            self._last_turn = self._this_turn
        self._this_turn, self._turn_opening, self._correcting_turn = [], True, False
        self.antecedent = None
        if self.asked.base is not None:
            self.antecedent = _Reading(list(self.asked.days), self.asked.base, asked=True)
        if self.asked.topic is not None:
            self.last_value_kind, self.last_unit = self.asked.topic, self.asked.unit
        self._requested_here = set()

    def take_retracted(self) -> list[tuple[str, str | None]]:
        out, self.retracted = self.retracted, []
        return out

    def read(self, sentence: str) -> list[Statement]:
        """What one sentence states, in the order said (later statements win their slot)."""
        text = normal(sentence)
        if not text:
            return []
        question = text.endswith("?") or bool(_QUESTION_START.match(text))
        if question:
            # "Tuesday? No way": a day asked back is what the next clause is about.
            if re.fullmatch(rf"(?:a |on a |on )?{_DAY}\s*\?", text):
                asked = _DAY_RE.search(text)
                assert asked is not None  # the full match above contains a day
                day = _weekday(asked.group(1))
                self.antecedent = _Reading([day], None, echo=True)
            return []
        found_first: list[Statement] = []
        answer = _ANSWER_THEN_WORDS.match(text)
        if answer and self._turn_opening and self.antecedent and self.antecedent.asked:
            # "yeah my wife is" to "Is someone home on Fridays?": the yes or no answers.
            base = self.antecedent.base or 1
            sign = -base if answer.group(1) in ("no", "nope", "nah") else base
            found_first = [_availability(d, sign) for d in self.antecedent.days]
        if self._turn_opening:
            # "Sorry, I got that wrong, it's Tuesdays": the whole turn corrects the last one.
            self._correcting_turn = bool(_TURN_CORRECTION.match(text))
            self._turn_opening = False
        parts = clauses(text)
        if any(_is_pure_hedge(c.text) for c in parts):
            return []
        found: list[Statement] = list(found_first)
        self._kinds_here = set()
        self._switch_here = bool(_SWITCH.search(text))
        self._sentence = text
        self._equipment_talk = bool(_EQUIPMENT.search(text)) or any(
            m.group(1) not in _AMBIGUOUS_BRANDS for m in _BRAND.finditer(text)
        )
        someone_else = hedged = False
        for index, clause in enumerate(parts):
            self._more_here = index < len(parts) - 1
            # "Email might be easier, I'm not sure, or text": the alternative is hedged too.
            hedged = bool(_HEDGE.search(clause.text)) or (hedged and clause.text.startswith("or "))
            said = [] if hedged else self._clause(clause)
            # "The flat above me, number 9, has had the same problem": a clause with no
            # subject of its own after one about somebody else is still theirs.
            if about_someone_else(clause.text):
                someone_else = True
            elif _OWN_SUBJECT.match(clause.text) or _DAY_RE.search(clause.text):
                someone_else = False
            if someone_else:
                said = [s for s in said if s.kind in ABOUT_THE_VISIT]
            elif _SOMEONE_ELSES.search(clause.text):
                # "we have a vaillant my sister has a baxi": somebody else's thing in the same
                # clause; whose value is whose is a guess.
                said = [
                    dataclasses.replace(s, sure=False)
                    if s.kind not in ABOUT_THE_VISIT and s.kind != "availability"
                    else s
                    for s in said
                ]
            if said and clause.corrects and not re.search(r"\b(?:too|also|as well)\b", clause.text):
                # A correction takes back what the clause before said of the same kind.
                kinds = {s.kind for s in said}
                if kinds & {"availability", "preferred_day"}:
                    kinds |= {"availability", "preferred_day"}  # "Mondays only. No, both fine"
                slots = {(s.kind, s.key) for s in said}
                for earlier in self._previous:
                    if earlier.kind in kinds and (earlier.kind, earlier.key) not in slots:
                        slot = (earlier.kind, earlier.key)
                        found = [s for s in found if (s.kind, s.key) != slot]
                        self.retracted.append(slot)
            if said:
                self._previous = said
                found.extend(said)
                restated = {(s.kind, s.key) for s in said if s.sure}
                self.retracted = [slot for slot in self.retracted if slot not in restated]
            elif not _FILLER.fullmatch(clause.text):
                # A correction takes back only the clause right before it.
                self._previous = []
        if self._correcting_turn and not re.search(r"\b(?:too|also|as well)\b", text):
            # What the caller's last turn said of the same kind, in another slot, is taken back.
            slots = {(s.kind, s.key) for s in found}
            for earlier in self._last_turn:
                slot = (earlier.kind, earlier.key)
                if earlier.kind in {s.kind for s in found} and slot not in slots:
                    self.retracted.append(slot)
        kept = [c.text for c in parts if not _HEDGE.search(c.text)]
        # Parking and pets of somebody else are not the caller's; who lets the engineer in is.
        found.extend(_free_text(sentence, kept, self.asked.topic))
        self._this_turn.extend(found)
        return found

    # -- one clause ----------------------------------------------------------------------

    def _clause(self, clause: Clause) -> list[Statement]:
        text = clause.text
        particle = _PARTICLE.match(text)
        if particle and self.asked.proposed is not None and self.asked.topic == "boiler_type":
            # "Is it a combi boiler?" "Yes, it is.": the agent's word, confirmed by the caller.
            return [] if particle.group(1) else [Statement("boiler_type", self.asked.proposed)]
        if particle:
            antecedent = self.antecedent
            if antecedent is not None and antecedent.base is not None and antecedent.asked:
                # An answer to the agent's yes/no question about days.
                sign = antecedent.base * (-1 if particle.group(1) else 1)
                return [_availability(d, sign) for d in antecedent.days]
            return []
        self._guessed = False
        out = self._days(text, clause.corrects)
        if self._guessed:
            # Not sure: the words are kept instead, and whatever was said of these days
            # before in the call is not current either.
            out = [dataclasses.replace(s, sure=False) for s in out]
            self.retracted += [(s.kind, s.key) for s in out]
        out += self._values(text, clause.corrects)
        return out

    def _days(self, text: str, corrects: bool) -> list[Statement]:
        text = _NOT_ONLY.sub("also", text)
        text = _SIMILE.sub(" ", text)  # "around like a bad smell": the simile is not the sign
        said_before = _said_of(self._last_reading)
        if moved := _MOVED_DAYS.search(text):
            # "We've moved from Tuesdays to Thursdays": the old day no longer, the new one now.
            old, new = _weekday(moved.group(1)), _weekday(moved.group(2))
            self._working_days = (self._working_days - {old}) | {new}
            return [_availability(old, -1), _availability(new, 1)]
        specific = {_weekday(d) for m in _SPECIFIC.finditer(text) for d in m.groups() if d}
        compared = {_weekday(m.group(1)) for m in _COMPARED.finditer(text)}
        mentioned = [_weekday(d) for d in _DAY_RE.findall(text)]
        days = list(dict.fromkeys(d for d in mentioned if d not in specific | compared))
        if mentioned and not days:
            return []  # a date ("this Friday", "Monday the 9th"), not a weekday in general
        exceptions = [
            _weekday(day)
            for m in _EXCEPTION.finditer(text)
            for day in _DAY_RE.findall(m.group(1))
            # "but" excepts only after "any day", "anything", "every day", ...
            if not m.group(0).startswith("but") or _UNIVERSAL.search(text[: m.start()])
        ]
        base, negators = _predicate(text)
        if base is not None and base < 0 and negators == 1 and _NEGATED_POSITIVE.search(text):
            # "i can't do thursdays, i'm working them": the negator belongs to "do", and the
            # two say the same thing; it does not flip "working".
            negators = 0
        # "not Mondays, not Fridays": each negator governs its own day, one negation in all.
        negators -= max(0, len(_DAY_NEGATOR.findall(text)) - 1)
        past = bool(_PAST.search(text)) or _plural_past(text)
        exclusive = bool(_EXCLUSIVE.search(text)) and not _only_counts(text)
        topic = self.antecedent is not None and self.antecedent.echo
        referring = not days and (
            bool(_PRONOUN_SUBJECT.match(text))
            or _is_remnant(text)
            or bool(_EXCLUSIVE_ATOMS.search(text))
            or (topic and (base is not None or negators > 0))
        )
        if referring and self.antecedent is not None:
            days = list(self.antecedent.days)
            if base is None and (_is_remnant(text) or _EXCLUSIVE_ATOMS.search(text)):
                base = self.antecedent.base
        if not days:
            return []
        bare = bool(_BARE_DAYS.fullmatch(text))
        if (
            exceptions
            and base is None
            and negators == 0
            and not set(days) - set(exceptions)
            and not _UNIVERSAL.search(text)
        ):
            # "Apart from Mondays, I'm not free at all": the sign comes in the next clause,
            # and is said of every other day.
            self.antecedent = _Reading(days, None, echo=True, excepted=True)
            return []
        if base is None and negators == 0 and not exclusive and not exceptions:
            inherited = _said_of(self.antecedent)
            if inherited is None and corrects:
                inherited = _said_of(self._last_reading)  # "can't do Weds, I mean Tuesdays"
            if bare and re.search(r"\bplease\b", text):
                self._requested_here.update(days)  # "Friday, please": a request for a visit
                return []
            if bare and inherited is not None and not self._more_here:
                # A bare day answers the agent's question or continues the last clause.
                base = inherited
            elif _PRESENT.search(text) and re.search(rf"\b(?:it is|it will be) {_DAY}", text):
                base = 1  # "now it's Tuesdays"
            elif bare:
                # "Friday, not a chance": a day said first is what the next clause is about.
                self.antecedent = _Reading(days, None, echo=True)
                return []

        # "nothing stopping me on a Saturday": a negator with no predicate the reader knows,
        # not on the day itself, is a guess about polarity, never a typed fact.
        self._guessed = (
            (base is None and negators > 0 and not _NEGATED_DAY.search(text))
            # "saturday's fine it's sunday that's no good": two days, both signs, one clause.
            or (
                len(days) > 1
                and bool(_NEG_ATOMS.search(text))
                and _predicate(_NEG_ATOMS.sub(" ", text)) == (1, 0)
            )
            or _sign_in_doubt(text, days, base, negators, exclusive, bool(exceptions))
            # "oh wait no, i meant thursdays fridays are fine": which day the correction names
            # and which the predicate is said of is a guess.
            or (corrects and bool(re.match(rf"({_DAY}) (?!\1){_DAY}\b", text)))
            or (self.antecedent is not None and self.antecedent.excepted and referring)
        )
        polarity = None
        if base is not None or negators:
            polarity = (base or 1) * (-1) ** negators
            if past and base is not None:
                polarity = -polarity
        request = bool(_REQUEST.search(text))
        generic = bool(_GENERIC.search(text))
        self.antecedent = self._last_reading = _Reading(days, base, polarity)
        if exceptions and not (past and polarity is None):
            rest = polarity if polarity is not None else 1
            out = [_availability(d, -rest) for d in dict.fromkeys(exceptions)]
            others = [d for d in days if d not in exceptions]
            if polarity is not None and not request:
                out += [_availability(d, polarity) for d in others]
            return out
        if polarity is None:
            # "they'll just be stood on the doorstep": a "just" that refers back is not "only".
            own = not referring or bool(_EXCLUSIVE_ATOMS.search(text))
            if exclusive and own and not past and len(days) == 1:
                if corrects:
                    # "Just Monday, sorry": of the days said before, this one, not "only".
                    return [] if said_before is None else [_availability(days[0], said_before)]
                return _exclusive(days[0])
            return []
        if polarity > 0:
            if _WISH.search(text) and not re.search(rf"\b(?:{_DAY[:-2]})s\b", text):
                # "a Monday would be perfect": a wish for this visit, not a standing fact.
                request = True
            if request:
                self._requested_here.update(days)
                return []
            if any(d in self.asked.offered or d in self._requested_here for d in days) and (
                not generic
            ):
                return []  # "yes, Friday's fine" to the offer of Friday, or after asking for it
            if exclusive and len(days) == 1:
                if corrects:
                    return [_availability(days[0], 1)]  # "Just Monday, sorry": of the two said
                return _exclusive(days[0])
            prefers = _PREFER.search(text) and not _TIME_OF_DAY.search(text)
            if (prefers or (self.asked.best and bare)) and len(days) == 1 and not past:
                return [Statement("preferred_day", days[0])]
            replaced: list[Statement] = []
            if self._switch_here:
                # "we've swapped, it's Tuesdays from now on": Thursdays (said earlier) no longer.
                replaced = [_availability(d, -1) for d in sorted(self._working_days - set(days))]
                self._working_days -= {s.key or "" for s in replaced}
            self._working_days.update(days)
            return [*replaced, *(_availability(d, 1) for d in days)]
        if request and not generic:
            return []
        return [_availability(d, -1) for d in days]

    def _values(self, text: str, corrects: bool) -> list[Statement]:
        out: list[Statement] = []
        # Counts, one per thing counted ("two boilers and five radiators").
        counts: dict[str, str] = {}
        if not _COUNT_RANGE.search(text):
            for count in _all_current(_COUNT, text):
                counts[counted_thing(count.group(2))] = _count_value(count.group(1), count.group(2))
            for change in _COUNT_CHANGE.finditer(text):
                unit = change.group(4) or change.group(2) or self.last_unit or "units"
                counts[counted_thing(unit)] = _count_value(change.group(3), unit)
        for mentioned in _COUNT_MENTION.finditer(text):
            self._mentioned("equipment_count", mentioned.group(2))
        if _COUNT.search(self._sentence) and not _COUNT_RANGE.search(text):
            # "a heat pump, twelve radiators and two thermostats": in a list of counts, "a"
            # counts one.
            for single in _all_current(_SINGLE, text):
                thing = single.group(1)
                counts.setdefault(counted_thing(thing), _count_value("1", thing))
        if counts:
            # "five radiators downstairs and four upstairs", "two in each bedroom": a part of
            # the count, or a sum the caller left to us, is a guess.
            sure = not _partial_count(self._sentence)
            out += [
                Statement("equipment_count", value, key=k, sure=sure) for k, value in counts.items()
            ]
        elif (bare := _BARE_COUNT.match(text)) and self._bare_ok("equipment_count", corrects):
            unit = self.last_unit or "units"
            out.append(
                Statement("equipment_count", _count_value(bare.group(1), unit), counted_thing(unit))
            )
        # Boiler type ("it's a combi now", "swapped the back boiler for a combi").
        if kind := _last_current(_BOILER_TYPE, text):
            out.append(Statement("boiler_type", _boiler_type_value(kind)))
        # Where the meter is ("the meter's round the back now").
        meter = _METER.search(text)
        where: str | None = None
        if meter is not None:
            self._mentioned("meter_location")
            if meter.group("verb") not in ("was", "were", "used to be") and not _is_old(
                text, meter
            ):
                # The place runs on past the clause: "at the bottom of the garden, by the shed".
                whole = _METER.search(self._sentence)
                where = (whole or meter).group("place")
                before = self._sentence[: (whole or meter).start()]
                if _WHERE_WORDS.search(before):
                    # "it's outside in the meter box by the gate": the place starts before.
                    where = re.sub(r"^(?:it is|its|it's)\s+", "", self._sentence)
        elif (
            self._bare_ok("meter_location", corrects)
            and not _METER.search(self._sentence)
            and (_WHERE.match(text) or _BARE_PLACE.match(text))
        ):
            # "In the garage." to "Where's your meter?"; "Kitchen, in the cupboard…".
            where = re.sub(r"^(?:it is|it's)\s+", "", self._sentence)
        if where is not None:
            where = re.sub(r"\s+(?:now|these days|then|actually|anyway)$", "", where.strip(" ."))
            out.append(Statement("meter_location", where.strip()))
        # Make.
        make = _last_current(_BRAND, text, self._brand_ok)
        if _BRAND.search(text) and any(self._brand_ok(m) for m in _BRAND.finditer(text)):
            self._mentioned("equipment_make")
        if make is not None:
            brand = _BRAND_NAMES.get(make.group(1), make.group(1).capitalize())
            # The model as said, each word capitalised ("ecotec plus 832" → "Ecotec Plus 832").
            model = " ".join(w.capitalize() for w in (make.group(2) or "").split())
            out.append(Statement("equipment_make", f"{brand} {model}".strip()))
        # Floor (of the caller's home, not of the boiler cupboard or the meter room).
        if not _FLOOR_NOT_OURS.search(text) and meter is None:
            floor = _last_current(_FLOOR, text)
            if _FLOOR.search(text):
                self._mentioned("floor")
            if floor is not None:
                out.append(Statement("floor", _floor_value(floor)))
            elif (bare := _BARE_ORDINAL.match(text)) and self._bare_ok("floor", corrects):
                out.append(Statement("floor", _floor_value_from(bare.group(1))))
        # Flat, apartment or unit number.
        flat = _last_current(_FLAT, text)
        if _FLAT.search(text) or re.search(r"\b(?:flat|apartment)\b", text):
            self._mentioned("flat")
        if flat is not None:
            out.append(Statement("flat", f"{flat.group(1).capitalize()} {flat.group(2).upper()}"))
        elif (number := _FLAT_NUMBER.search(text)) and "flat" in self._kinds_here:
            out.append(Statement("flat", f"Flat {number.group(1).upper()}"))
        elif (bare_flat := _BARE_FLAT.match(text)) and self._bare_ok("flat", corrects):
            out.append(Statement("flat", f"Flat {bare_flat.group(1).upper()}"))
        # Address.
        # "Number nine, Willow Way": the street runs on past the comma.
        whole = _BARE_ADDRESS.match(self._sentence.replace(",", "").rstrip(" .!"))
        address = (
            _last_current(_ADDRESS, text)
            or _BARE_ADDRESS.match(text)
            or (whole if whole and _HOUSE_NUMBER.match(text) else None)
        )
        if address is not None:
            self._mentioned("address")
            self._last_address = _title_address(address.group(1))
            out.append(Statement("address", self._last_address))
        elif (
            (number := _HOUSE_NUMBER.match(text))
            and self._last_address
            and self._bare_ok("address", corrects)
        ):
            # "9 Mill Lane, sorry, 19": the corrected number on the same street.
            street = self._last_address.split(" ", 1)[1]
            self._last_address = f"{number.group(1)} {street}"
            out.append(Statement("address", self._last_address))
        # Contact channel.
        channel = self._channel(text)
        if channel is not None:
            out.append(Statement("contact_preference", channel))
        return out

    def _mentioned(self, kind: str, unit: str | None = None) -> None:
        self.last_value_kind = kind
        self._kinds_here.add(kind)
        if unit is not None:
            self.last_unit = unit

    def _bare_ok(self, kind: str, corrects: bool) -> bool:
        """A bare value ("the fourth", "just the two") answers the agent's question about its
        kind, follows a mention of its kind in the same sentence ("not the third floor, the
        fourth"), or corrects the caller's last value of that kind."""
        return (
            self.asked.topic == kind
            or kind in self._kinds_here
            or (corrects and self.last_value_kind == kind)
        )

    def _brand_ok(self, match: re.Match[str]) -> bool:
        """A brand that is also an ordinary word ("ideal", "alpha") counts only when the talk is
        about equipment: in this sentence, the agent's question, or the caller's last value."""
        return match.group(1) not in _AMBIGUOUS_BRANDS or (
            self._equipment_talk
            or self.asked.topic == "equipment_make"
            or self.last_value_kind == "equipment_make"
        )

    def _channel(self, text: str) -> str | None:
        mentions: list[tuple[int, str]] = []
        for pattern, channel in _CONTACT:
            for match in pattern.finditer(text):
                if _is_old(text, match):
                    continue
                mentions.append((match.start(), channel))
        if not mentions and _PHONE_PREFERRED.search(text):
            # "My mobile's the best bet", "no, the landline's better": a phone named as the
            # way to reach the caller.
            preferred = _PHONE_PREFERRED.search(text)
            assert preferred is not None
            home = preferred.group(1) not in ("mobile", "cell", "mobile phone")
            return None if _is_old(text, preferred) else ("landline" if home else "mobile")
        if not mentions or not (
            _CONTACT_CONTEXT.search(self._sentence) or self.asked.topic == "contact_preference"
        ):
            return None
        if _ONE_OFF_CONTACT.search(text):
            # "phone me when you arrive", "I'll text you the code": one call, not a preference.
            return None
        start, channel = max(mentions)
        # Negation is the channel's own ("don't text me", "never by email"): a denied old
        # channel elsewhere ("not the mobile", "I never look at emails") says nothing of it.
        if _negated_before(text, start):
            return None
        kept = _DENIED_CHANNEL.sub(" ", text)
        for pattern, _ in _CONTACT:
            for match in pattern.finditer(text):
                if _is_old(text, match):
                    kept = kept.replace(_old_span(text, match), " ")
        base, _ = _predicate(kept)
        if base is not None and base < 0:
            return None
        if channel == "phone call" and _CALL_VERB.search(text):
            phones = [m for m in _all_current(_PHONE, text) if not _negated_before(text, m.start())]
            if phones:
                phone = phones[-1].group(1)
                home = phone not in ("mobile", "cell", "mobile phone")
                return "landline" if home else "mobile"
        return channel


# -- helpers ---------------------------------------------------------------------------------


def _weekday(token: str) -> str:
    day = token.lower()
    return day[:-1] if day.endswith("s") and day[:-1] in WEEKDAYS else day


def _said_of(reading: _Reading | None) -> int | None:
    """What a bare day after `reading` continues: the polarity the clause said (a question's
    base is already signed)."""
    if reading is None:
        return None
    return reading.polarity if reading.polarity is not None else reading.base


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
    if re.search(rf"\b(?:i meant|i mean|sorry|no)\s+({_DAY}) (?!\1)({_DAY})\b", text):
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
    ):
        # "it's only ever mondays, everything else i'm at work": only-X with a negative.
        return True
    # "most of the time, but Mondays are definitely fine": the excepted days carry their own
    # predicate.
    return excepted and bool(_EXCEPTION_WITH_PREDICATE.search(text))


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


def _availability(day: str, sign: int) -> Statement:
    if sign < 0:
        return Statement("availability", "unavailable", key=day, negative=True)
    return Statement("availability", "available", key=day)


def _exclusive(day: str) -> list[Statement]:
    return [Statement("preferred_day", f"{day} only"), _availability(day, 1)]


def _is_pure_hedge(text: str) -> bool:
    rest = _HEDGE.sub(" ", text)
    rest = re.sub(r"\b(?:i|we|so|and|but|yes|no|well|though|about that|that)\b", " ", rest)
    return bool(_HEDGE.search(text)) and not rest.strip()


def _is_remnant(text: str) -> bool:
    """What is left of a clause whose day and predicate were said before it ("but not any
    more", "these days they don't", "from now on they are")."""
    words = text.split()
    return (
        bool(words)
        and len(words) <= 7
        and all(w in _REMNANT_WORDS for w in words)
        and bool(_NEGATOR.search(text) or _PRESENT.search(text) or _PRONOUN_SUBJECT.match(text))
    )


def _only_counts(text: str) -> bool:
    return bool(re.search(rf"\b(?:only|just)\s+(?:the\s+)?{_NUMBER}\b", text)) and not re.search(
        rf"\b(?:only|just)\s+(?:on\s+)?(?:an?\s+)?{_DAY}", text
    )


def _plural_past(text: str) -> bool:
    """A day-in-general said in the past tense ("Fridays were fine"): no longer so."""
    return bool(
        re.search(
            rf"\b(?:{_DAY[:-2]})s\s+(?:were|used|suited|worked)\b|"
            rf"\b(?:{_DAY[:-2]})s\s+(?:\w+\s+)?(?:were|suited|worked)\b",
            text,
        )
    )


def _predicate(text: str) -> tuple[int | None, int]:
    """The clause's predicate sign (None: it has none) and how many negators it carries."""
    sign: int | None = None
    rest = text
    if _POS_ATOMS.search(rest):
        sign, rest = 1, _POS_ATOMS.sub(" ", rest)
    for match in _NEG_ATOMS.finditer(rest):
        if (
            match.group(0) == "out"
            and _PHRASAL_OUT.search(text[: match.end()])
            and not re.search(r"\b(?:am|are|is|be|been|was|were)\s+(?:\w+\s+)?out\b", text)
        ):
            continue  # "took out", "sort out": not "we're out"
        if match.group(0) in ("away", "working", "problems") and not re.search(
            rf"\b(?:am|are|is|be|been|was|were|{_DAY})\s+(?:\w+\s+)?{match.group(0)}\b|"
            rf"\b{match.group(0)}\s+(?:on\s+)?(?:a\s+|every\s+)?{_DAY}",
            text,
        ):
            continue
        sign = -1
        rest = rest.replace(match.group(0), " ", 1)
    rest = _NEG_WITH_NOT.sub(" ", rest)
    rest = _EXCLUSIVE_ATOMS.sub(" ", rest)
    if job := _JOB.search(rest):
        sign = -1
        rest = rest[: job.start("verb")] + " " + rest[job.end("verb") :]
    if sign is None:
        for match in _POS.finditer(rest):
            word = match.group(0)
            if word in _WEAK_POS and not re.search(
                rf"\b(?:{_COPULA}|i|we|can|could|to|will|would|at)\s+{re.escape(word)}\b|"
                rf"\b(?:day|days) {re.escape(word)}\b",
                rest,
            ):
                continue
            if word in ("do", "make", "manage") and not re.search(
                rf"\b{word}\b(?:\s*$|\s+(?:on\s+)?(?:an?\s+|the\s+|any\s+|every\s+)?{_DAY}|"
                rf"\s+(?:it|that|those|them|either|both|then|too|as well|any|most|all)\b)",
                rest,
            ):
                continue  # "I do the car boot every Saturday": doing something else
            sign = 1
            break
    negators = len(_NEGATOR.findall(rest))
    # "not ... nor", "neither ... nor": one negation.
    if re.search(r"\bneither\b.*\bnor\b", rest):
        negators -= 1
    return sign, negators


def _old_span(text: str, match: re.Match[str]) -> str:
    """An old mention with the words that made it old ("do not check my texts")."""
    before = text[: match.start()].split()[-4:]
    return " ".join([*before, match.group(0)])


def _is_old(text: str, match: re.Match[str]) -> bool:
    before = text[: match.start()]
    after = text[match.end() :]
    if _NEW_BEFORE.search(before):
        return False
    if _OLD_BEFORE.search(before) and not _HAVE_HAD.search(before):
        return True
    return bool(_OLD_AFTER.match(after))


def _all_current(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    return [m for m in pattern.finditer(text) if not _is_old(text, m)]


def _last_current(
    pattern: re.Pattern[str],
    text: str,
    ok: Callable[[re.Match[str]], bool] | None = None,
) -> re.Match[str] | None:
    current = None
    for match in pattern.finditer(text):
        if ok is not None and not ok(match):
            continue
        if not _is_old(text, match):
            current = match
    return current


def _boiler_type_value(match: re.Match[str]) -> str:
    kinds = ("combi", "system", "back boiler", "conventional", "conventional", "system")
    said = next(i for i, group in enumerate(match.groups()) if group)
    return kinds[said] if said < len(kinds) else "conventional"


def _partial_count(sentence: str) -> bool:
    """A count of a part of the house ("three upstairs"), or a number with no thing after a
    count ("and four upstairs", "two in each bedroom"): a sum or a product left to us."""
    first = _COUNT.search(sentence)
    if first is None or not _PARTIAL_COUNT.search(sentence):
        return False
    if re.search(r"\b(?:upstairs|downstairs)\b", sentence) and not re.search(
        r"\bupstairs and down(?:stairs)?\b|\bdownstairs and up(?:stairs)?\b", sentence
    ):
        return True
    if re.match(r"\s+(?:\w+\s+){0,2}(?:each|every|per)\b", sentence[first.end() :]):
        return True  # "two storage heaters in each bedroom": a product
    rest = sentence[first.end() :]
    return any(
        not re.match(rf"\s+(?:more |extra |new |old )?{_UNITS}", rest[m.end() :])
        for m in re.finditer(rf"\b{_NUMBER}\b", rest)
    )


def _count_value(raw: str, unit: str) -> str:
    count = int(raw) if raw.isdigit() else _NUMBERS[raw]
    noun = unit if count != 1 or not unit.endswith("s") else unit[:-1]
    if count > 1 and not noun.endswith("s"):
        noun += "s"
    return f"{count} {noun}"


def _floor_value_from(word: str) -> str:
    number = _ORDINALS.get(word) or int(re.sub(r"\D", "", word))
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix} floor"


def _floor_value(match: re.Match[str]) -> str:
    word = match.group(1) or match.group(2) or match.group(3) or match.group(4)
    if word in ("basement",):
        return "basement"
    if word in ("ground", "lower ground", "top"):
        return f"{word} floor"
    return _floor_value_from(word)


def _title_address(raw: str) -> str:
    return " ".join(w if w[0].isdigit() else w.capitalize() for w in raw.split())


def _free_text(sentence: str, parts: list[str], topic: str | None) -> list[Statement]:
    """Parking, pets, who will be home and access: the caller's sentence is the value, when
    a clause that is not hedged names one (for pets, the last such clause decides between
    "no pets" and the sentence)."""
    found: dict[StatedKind, str] = {}
    for text in parts:
        other = about_someone_else(text)
        # "D for dog", "no bother at all, pet": spelt letters and endearments name no animal.
        text = _NOT_AN_ANIMAL.sub(" ", text)
        if not set(text.split()) - _ASSENT_WORDS:
            continue  # "No." to "Any pets?": an answer, but not words worth keeping as one
        if (
            ((_PRESENCE.search(text) or _WHO_WILL_BE.search(text)) and not _NEGATOR.search(text))
            or _SOMEONE_HOME.search(text)
            or (
                topic == "who_home"
                and (_PERSON_RE.search(text) or re.match(r"^(?:just )?(?:my|our|the) \w+", text))
            )
        ):
            found["who_home"] = sentence
        if _ACCESS.search(text) and not _METER.search(text):
            found["access_notes"] = sentence
        if other:
            continue
        if _PARKING.search(_NOT_PARKING.sub(" ", text)) or topic == "parking":
            found["parking"] = sentence
        if _NO_PETS.search(text):
            found["pets"] = "No pets"
        elif _PAST_PET.search(text):
            continue  # "We used to have a dog but he died": not a pet now
        elif _PETS.search(text) or topic == "pets":
            found["pets"] = sentence
    return [Statement(kind, value) for kind, value in found.items()]
