"""A caller's sentence, cut for reading: normalised text (contractions, numbers said as
words, day ranges) and its clauses in order, each marked when it opens with a correction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from text_to_num import alpha2digit

from contextdb_livekit.reading.lexicon import (
    _AGO,
    _DAY,
    _DAY_RE,
    _EXCEPTING,
    _EXCEPTION_WITH_PREDICATE,
    _PAST,
    _PRESENT,
    _STREET_WORDS,
    _UNIVERSAL,
    _UNIVERSAL_BUT,
    WEEKDAYS,
    _weekdays_in,
)


@dataclass(frozen=True)
class Statement:
    """One typed thing a clause says: a kind, its value and (availability) the weekday."""

    kind: str
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
    (re.compile(r"\bain'?t\b"), "is not"),  # "it ain't", "it aint"
    (re.compile(r"\b(do|does|did|is|are|was|were|has|have|had|would|could|should|must|need)n'?t\b"),
     r"\1 not"),
    (re.compile(r"'m\b"), " am"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"(\w)'d\b"), r"\1 would"),
    (re.compile(rf"\b(it|that|there|he|she|what|who|nobody|everybody|everyone|someone|here|"
                rf"where|this|everything|nothing|{_DAY})'s\b"), r"\1 is"),
    # "my husband's working from home", "my neighbour's got a key".
    (re.compile(r"'s (?=\w+ing\b)"), " is "),
    (re.compile(r"'s (?=got\b)"), " has "),
    (re.compile(r"'s (?=(?:a|an|the|my|our|gone|no|not|never|only|usually|always|normally|"
                r"home|in|there|out|off|fine|good|ok|okay|been|just|free|called|down|up|now|"
                r"number|on|at|a|really|definitely|also|still|due|broken|round|around|under|behind|outside|"
                r"inside|next|beside|by|near|upstairs|downstairs)\b)"), " is "),
    (re.compile(r"\banymore\b"), "any more"),
    # Speech-to-text drops the apostrophe: "its in the garage" is "it is in the garage".
    (re.compile(rf"\bits (?=(?:a|an|the|in|on|under|round|behind|outside|by|next|now|fine|"
                rf"ok|okay|no|not|never|only|just|always|gone|been|broken|{_DAY})\b)"), "it is "),
    # ... and "I'll": "ill text you the code" (not "ill on Mondays": a verb must follow).
    (re.compile(r"\bill (?=(?:text|email|call|ring|phone|send|message|be|have|get|let|leave|"
                r"need|try|pop|give|make|do|check|ask|see|take|put|sort|just|probably|"
                r"definitely|always|never|not|only|also)\b)"), "i will "),
    (re.compile(r"\bim\b"), "i am"),
    # ... and "she'll", "he'll" before "be": "shell be in", "hell be home".
    (re.compile(r"\b(she|he)ll (?=be\b)"), r"\1 will "),
    (re.compile(r"\bive\b"), "i have"),
    (re.compile(r"\bweve\b"), "we have"),
    (re.compile(r"\btheyre\b"), "they are"),
    (re.compile(r"\byoure\b"), "you are"),
    (re.compile(r"\b(that|there|what)s\b"), r"\1 is"),
    (re.compile(r"\bid (?=(?:like|love|prefer|rather|be|have)\b)"), "i would "),
    (re.compile(r"\bno-go\b"), "no go"),
    (re.compile(r"\bno-?no\b"), "no go"),
    (re.compile(r"\bnon-starter\b"), "non starter"),
    (re.compile(r"\bwrite-off\b"), "write off"),
    (re.compile(r"\be-mail"), "email"),
    # "a top-floor flat", "the lower-ground-floor flat": the floor said as one word.
    (re.compile(r"\b(lower|ground|top|first|second|third|\d{1,2}(?:st|nd|rd|th))-(?=ground\b|floor\b)"),
     r"\1 "),
    (re.compile(r"\b(?:uh+|um+|erm+|uhm+|er)\b"), " "),
]  # fmt: skip


# Small numbers after a word that takes a number ("flat four", "number nine"): a maintained
# parser (text2num) reads the rest, but leaves one to ten as words on purpose.
_SMALL_NUMBER = re.compile(
    r"\b(flat|apartment|unit|number|no|house)\s+(one|two|three|four|five|six|seven|eight|nine|ten)\b"
)
# "flat eight oh two", "apartment one one four": a number said digit by digit.
_DIGIT_WORDS = {
    "zero": "0", "oh": "0", "nought": "0", "one": "1", "two": "2", "three": "3", "four": "4",
    "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
}  # fmt: skip
_SPOKEN_DIGITS = re.compile(
    rf"\b(flat|apartment|unit|number)\s+((?:(?:{'|'.join(_DIGIT_WORDS)})\b[\s-]*){{2,}})"
)
# "five oh two high street", "one-oh-four": digits with a spoken zero between them are one
# number, whatever word comes before.
_NONZERO = "one|two|three|four|five|six|seven|eight|nine"
_OH_DIGITS = re.compile(
    rf"\b((?:{_NONZERO})(?:[\s-]+(?:{_NONZERO}))*[\s-]+(?:oh|nought|zero)"
    rf"(?:[\s-]+(?:oh|nought|zero|{_NONZERO}))+)\b"
)
_SMALL = {w: str(n) for n, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=1
)}  # fmt: skip


_NUMBER_LETTER = re.compile(
    # "unit 7 b second floor": after a flat's number, "b" to "h" are never words of their own;
    # "a" is, so it joins only at the end.
    r"\b(?P<lead>(?:flat|apartment|unit|number) )(?P<n>\d{1,4}) "
    r"(?P<l>[b-h]\b|a\b(?=\s*(?:[.,!?]|$|(?:upstairs|downstairs|please|now|thanks|and|sorry|"
    r"yeah|on|in|at|is|it is|we|i)\b)))|"
    rf"\b(?P<lead2>)(?P<n2>\d{{1,4}}) (?P<l2>[a-h]) (?=(?:[a-z'-]+ ){{0,3}}(?:{_STREET_WORDS})\b)"
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


# "the weekend days", "weekdays", "any weekday": the days themselves — but not "at the
# weekend" (often the coming one), and not before an exception ("weekdays except Friday" is
# said of Friday; what it says of the rest is left unsaid).
_NO_EXCEPTION_AFTER = rf"(?![^.;]*\b(?:{_EXCEPTING}|not|only)\b)"
_WEEKEND = re.compile(rf"\b(?:the )?weekend days\b{_NO_EXCEPTION_AFTER}")
# "the weekdays monday tuesday are a no no": the days named after are the ones meant.
_WEEKDAYS = re.compile(
    rf"\b(?:the )?(?:weekdays|week days|(?:any|every|each) weekday)\b{_NO_EXCEPTION_AFTER}"
    rf"(?! (?:like |i mean |such as |especially )?{_DAY}\b)"
)


# "any day except the weekend and Wednesdays": every weekend, not the coming one.
# "Monday, Tuesday. Plus the weekend.": every weekend, listed with the days.
_WEEKEND_LISTED = re.compile(r"^((?:and|plus|also)(?: also)?) (?:the )?weekends?\b")
_WEEKEND_EXCEPTED = re.compile(rf"\b({_EXCEPTING}) (?:the |at the |on the )?weekends?\b")


def _weekend_days(match: re.Match[str]) -> str:
    """ "weekends" as the days themselves; after one weekend day named alone ("saturday's no
    good we're away most weekends"), the reason for that day, not a word on the other."""
    before = match.string[: match.start()]
    named = {day for day in ("saturday", "sunday") if re.search(rf"\b{day}s?\b", before)}
    return f"{named.pop()}s" if len(named) == 1 else "saturdays and sundays"


# Speech-to-text writes "we're" as "were": with no subject before it and a place after it
# ("were on the third floor", "yeah were at number 12"), it can only be "we are"; a past
# "were" has its subject before it ("the tanks were in the loft").
_STT_WE_ARE = re.compile(
    r"(^|[,;]\s*|\b(?:but|and|so|now|yes|yeah|no|well|oh|sorry|actually)\s+)"
    r"were (?=(?:on|at|in|not|the|number)\b)"
)


def _digit_words(said: str) -> list[str]:
    return [w for w in re.split(r"[\s-]+", said) if w]


# Days cut short, as written ("Mon or Tue"): capitalised, so "wed" (we'd) and "sun" in
# speech-to-text stay words; "Sat" and "Sun" only beside another day.
_SHORT_DAY = re.compile(r"\b(Mon|Tues?|Weds?|Thu|Thurs?|Fri|Sat|Sun)\b\.?")
_SHORT_DAYS = {
    "Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday",
    "Weds": "Wednesday", "Thu": "Thursday", "Thur": "Thursday", "Thurs": "Thursday",
    "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday",
}  # fmt: skip


def _days_in_full(text: str) -> str:
    shortened = _SHORT_DAY.findall(text)
    beside = len(shortened) > 1 or bool(re.search(_DAY, text, re.IGNORECASE))
    return _SHORT_DAY.sub(
        lambda m: (
            m.group(0) if m.group(1) in ("Sat", "Sun") and not beside else _SHORT_DAYS[m.group(1)]
        ),
        text,
    )


_HOUSEHOLD = (
    r"husband|wife|partner|son|daughter|mum|dad|mother|father|brother|sister|nan|gran|lodger|"
    r"carer|grandson|granddaughter|neighbour"
)
_STT_WILL = re.compile(
    rf"\b(he|she|they|(?:my|our) (?:{_HOUSEHOLD}))ll (?=(?:be|let|open|answer|meet|pop|come)\b)"
)
_STT_IS = re.compile(
    rf"\b((?:my|our) (?:{_HOUSEHOLD}))s (?=(?:home|in|around|there|off|working|stopping|"
    r"staying|always|usually|going|coming)\b)"
)
_NEGATED_DAYS_THEN_REASON = re.compile(
    rf"\b((?:not|no|never)\s+{_DAY}(?:\s+(?:(?:and|or|nor)\s+)?{_DAY})*)"
    r"\s+(?=(?:i|we) (?:am|are|have|work|do|go)\b)"
)


# Days as speech-to-text mishears or callers misspell them ("wensday", "thursdy").
_MISHEARD_DAY = re.compile(
    r"\b(?:(wen(?:d|e)?s|wedns)|(tues|tuse?|tews)|(thirs|thurs|thrus|thur)|(sater|satu))"
    r"(?:dy|day)(s?)\b"
)
_MISHEARD_AS = ("wednesday", "tuesday", "thursday", "saturday")


def _day_heard(match: re.Match[str]) -> str:
    said = next(i for i, group in enumerate(match.groups()[:4]) if group)
    return _MISHEARD_AS[said] + match.group(5)


# "flat fourteen oh two" (or "14 oh 2"): the "oh" is a nought inside the number.
_OH_INSIDE = re.compile(r"\b(\d{1,2}) oh (\d|one|two|three|four|five|six|seven|eight|nine)\b")


def _oh_digit(match: re.Match[str]) -> str:
    last = match.group(2)
    return f"{match.group(1)}0{_DIGIT_WORDS.get(last, last)}"


# "monday i'm i'm not here": a subject and verb said twice as the caller starts over.
_STUTTER = re.compile(
    r"\b((?:i|we|it|he|she|they) (?:am|are|is|was|have|had|will|can|do)|i|we)(?: \1)+\b"
)


_DAYS_I_CAN_DO = re.compile(
    # Not "the only day i can do is": one day, the only one.
    r"\bthe days (?:that )?(i|we) (can not|can|could not|could) do (?:are|would be) "
)


# "sixty one six one", "thirty one thirty one": a number said, then its digits (or itself)
# again to be sure of it; one number, not three.
_SPELT_AGAIN = re.compile(r"\b(\d{2,4}) (\d{1,4}(?: \d{1,4})*)\b")


def _spelt_once(match: re.Match[str]) -> str:
    number, again = match.group(1), match.group(2)
    return number if again.replace(" ", "") == number else match.group(0)


def normal(text: str) -> str:
    text = " ".join(_days_in_full(text).casefold().replace("\u2019", "'").split())
    text = _MISHEARD_DAY.sub(_day_heard, text)
    text = re.sub(r"\bnae\b", "no", text)  # "nae chance", "nae bother"
    # "off-limits", "a no-go", "a write-off": the idioms as the reader knows them, spaced.
    text = re.sub(r"\b(off|no|non|write)-(?=(?:limits|go|starter|off)\b)", r"\1 ", text)
    # "fridays full stop", "nor Tuesday for that matter": emphasis, no words of the day's.
    text = re.sub(r"\b(?:full stop|period|for that matter)\b", " ", text)
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    # "fridays are like a no go": "like" as a filler after a day's "is" or "are".
    text = re.sub(rf"\b({_DAY} (?:is|are)) like (?=an? |totally |really |so )", r"\1 ", text)
    text = _STT_WE_ARE.sub(r"\1we are ", " ".join(text.split()))
    text = _STUTTER.sub(r"\1", text)
    # "monday's no good and nor is friday": the day put on the list under the same negation.
    # Not "nor is friday a problem": a predicate of its own after the day.
    text = re.sub(
        rf"\b(?:and )?nor (?:is|are|was|were) (?=(?:on )?(?:an? )?(?:uh |er |um )?{_DAY}"
        r"\s*(?:$|[,.;!?]|to be honest|either|really|for that matter|i am afraid|sadly))",
        "nor ",
        text,
    )
    # "the days i can't do are wednesday and saturday": the days named as the clause says
    # them, "i can not do wednesday and saturday".
    text = _DAYS_I_CAN_DO.sub(r"\1 \2 do ", text)
    # "no no tuesdays and thursdays": one emphatic no, not two that cancel.
    text = re.sub(rf"\bno(?: no)+ (?=(?:on )?{_DAY})", "no ", text)
    text = _SPOKEN_DIGITS.sub(
        lambda m: f"{m.group(1)} {''.join(_DIGIT_WORDS[w] for w in _digit_words(m.group(2)))} ",
        text,
    )
    text = _OH_DIGITS.sub(
        lambda m: "".join(_DIGIT_WORDS[w] for w in _digit_words(m.group(1))), text
    )
    # Numbers said as words ("forty two queens road", "flat fourteen", "eleven radiators").
    text = alpha2digit(text, "en")
    text = _SMALL_NUMBER.sub(lambda m: f"{m.group(1)} {_SMALL[m.group(2)]}", text)
    text = re.sub(r"\bits (?=\d)", "it is ", text)  # "so its eleven now"
    text = _SPELT_AGAIN.sub(_spelt_once, text)
    text = _OH_INSIDE.sub(_oh_digit, text)
    # "monday to friday", "weekends": the days themselves ("from Tuesday to Thursday" is a
    # move, read by `_MOVED_DAYS`).
    text = _DAY_RANGE.sub(_range_days, text)
    # "sorry just mondays tuesdays are alright": speech-to-text runs the day a correction
    # narrows to into the next day's clause; the predicate after is the second day's only.
    text = re.sub(
        rf"\b((?:sorry|no|actually|i mean|i meant) (?:just|only) {_DAY}) (?={_DAY} (?:are|is)\b)",
        r"\1, ",
        text,
    )
    # "long weekends away" is a reason given for a Friday or a Monday, not a word on the
    # weekend days themselves.
    text = re.sub(r"(?<!\blong )\bweekends\b(?! \w+ing\b)", _weekend_days, text)
    text = _WEEKEND.sub("saturdays and sundays", text)
    text = _WEEKEND_EXCEPTED.sub(r"\1 saturdays and sundays", text)
    text = _WEEKEND_LISTED.sub(r"\1 saturdays and sundays", text)
    text = _WEEKDAYS.sub("mondays tuesdays wednesdays thursdays and fridays", text)
    text = re.sub(r"\bthe only (?:thing|problem|issue) is\b", "", text)
    # Speech-to-text's "shell be in", "my wifell let you in", "my husbands home all day".
    text = _STT_WILL.sub(r"\1 will ", text)
    text = _STT_IS.sub(r"\1 is ", text)
    # "not monday tuesday or wednesday im on nights": after the days a negation names, the
    # caller's reason is a clause of its own (speech-to-text drops the comma).
    text = _NEGATED_DAYS_THEN_REASON.sub(r"\1, ", text)
    # "flat 23 b", "21 a high street": the letter is part of the number.
    text = _NUMBER_LETTER.sub(_join_letter, text)
    text = re.sub(r"\bhalf a dozen\b", "6", text)
    text = re.sub(r"\b(?:a|one) dozen\b", "12", text)
    text = re.sub(r"\ba pair of\b", "2", text)  # exactly two ("a couple of" may be a guess)
    text = re.sub(r"\btwin (?=[a-z]+s\b)", "2 ", text)  # "twin boilers", "twin tanks"
    return " ".join(text.split())


# -- clauses ---------------------------------------------------------------------------------

_CORRECTION = (
    r"(?:no wait|wait|sorry|i meant to say|i mean|i meant|or rather|rather|scratch that|"
    r"scrap that|actually|whoops|oops|or no|"
    # "actually i was wrong wednesday's fine": the caller taking back what they said.
    r"i was wrong|i got (?:that|it) wrong|i had (?:that|it) wrong|my bad|"
    r"hang on|"
    r"hold on|on second thoughts?|my mistake|correction|oh wait|oh no wait|oh no|i tell a lie|"
    r"i tell you a lie|i beg your pardon|pardon me|what i meant was|or should i say|"
    # "Fridays are fine - well, except they're not": the clause before, taken back.
    r"except(?= (?:they|it|that) (?:are|is|do|does|will|would) not$))"
)
_CORRECTION_START = re.compile(
    rf"^(?:or\s+)?(?:(?:no|oh|nope|well|er|um)\s+)*{_CORRECTION}\b(?:\s+{_CORRECTION}\b)?"
    r"(?:\s+no\b)?\s*"
)
_MEANT = re.compile(r"i mean(?:t)?|i meant to say")
# Right after a weekday, as a lookbehind (each of fixed width).
_AFTER_A_DAY = (
    "(?:"
    + "|".join(
        f"(?<=\\b{day})|(?<=\\b{day}s)"
        for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
    + ")"
)
_SPLIT = re.compile(
    # A bracketed aside is a clause of its own ("cannot do Mondays (works at the hospital)").
    # An em dash ends a clause with or without spaces ("not Thursdays\u2014those are my office
    # days"); an en dash only between spaces (not "Monday\u2013Friday").
    r"\s*[,;:()]\s*|\s+-+\s+|\s+\u2013\s+|\s*\u2014\s*(?=\w)"
    # "nothing but Saturdays" is one clause: the one day, not a day set against nothing.
    r"|(?<!\bnothing)\s+(?=(?:but|although|though|however|whereas|so|because|cos|cause)\b)"
    # "she's not coming here, i'm the one who's in and i can do wednesdays": the caller as a
    # new subject starts a clause; the negator before it is another clause's.
    r"|\s+(?=and (?:i|we) (?:can|could|am|are|do|will|would)\b)"
    # "sunday works for me yeah we are not church people": speech-to-text drops the comma
    # before a "yeah" that opens a new subject; the negator after it is not the day's.
    r"|\s+(?=(?:yeah|yes|yep) (?:i|we|i am|we are)\b)"
    # "monday and wednesday yeah tuesday i can do": the yes ends the answer for the days
    # before it; the next day starts its own clause.
    rf"|(?:(?<=\byeah)|(?<=\byes)|(?<=\byep))\s+(?={_DAY}\b)"
    # "phone call please i cant see the screen very well for texts": the reason after a
    # request is a clause of its own.
    r"|(?<=\bplease)\s+(?=(?:i|we) \w+)"
    # "thursdays don't work i'm at my sister's all day", "wednesday i can't i'm at the
    # allotment": after a finished negative predicate, the caller as a new subject is a new
    # clause (the reason), as speech-to-text drops the comma ("fine i'm never home before six"
    # is not: which way the day goes is left in doubt).
    r"|(?:(?<=\bnot)|(?<=\bwork)|(?<=\bbad)|(?<=\bout)|(?<=\bbusy)|(?<=\brubbish)|"
    r"(?<=\bgone)|(?<=\bgone now)|(?<=\bnot work for us)|(?<=\bnot work for me)|"
    # "it doesn't matter i'll be in tuesdays": what does not matter is not the day.
    r"(?<=\bnot matter)|"
    # ... and after a positive word negated: "wednesday won't be possible i'm at the allotment".
    r"(?<=\bnot be possible)|(?<=\bnot be around)|(?<=\bnot around)|(?<=\bnot free)|"
    r"(?<=\bnot be in)|(?<=\bnot be home)|(?<=\bnot fine)|(?<=\bnot good)|(?<=\bnot ok)|"
    r"(?<=\bnot okay)|(?<=\bnot great)|(?<=\bnot ideal))"
    r"\s+(?=(?:i|we) (?:am|are|have|will|do|work|go|can)\b)"
    # "i'm home on mondays my wife is home on fridays": somebody else as a new subject, the
    # comma dropped by speech-to-text, starts a clause of their own.
    r"|(?<!\bat)(?<!\bto)(?<!\bround)(?<!\bover)(?<!\bwith)(?<!\bfrom)(?<!\bby)\s+"
    r"(?=(?:my|our) (?:wife|husband|partner|other half|mum|mother|dad|father|son|daughter|"
    r"brother|sister|neighbou?r|lodger|tenant|carer|uncle|aunt|auntie|nan|nana|gran|grandad|"
    r"grandma|grandson|granddaughter|niece|nephew|cousin|friend|mate) (?:works?|can|will|does|"
    # "ring the house phone my son sorts the mobile": what they do is theirs.
    r"sorts|deals|handles|uses|answers|checks|looks after|"
    r"(?:is|are) (?:home|in|off|free|busy|away|out|around|there)\b))"
    # "im just calling for her she cant do mondays": "she" or "he" as a new subject, the comma
    # dropped by speech-to-text, starts a clause of their own.
    r"|(?<=\w)\s+(?=(?:she|he) (?:can|cannot|could|will|would|works?|does|do|"
    r"is (?:not |never )?(?:in|home|out|off|free|busy|away|at|working))\b)"
    # "me im flexible its my flatmate who cant do tuesdays", "i'll be in on mondays it's just
    # him that's out": somebody else as the subject of a cleft, the comma dropped.
    r"|(?<=\w)\s+(?=(?:it is|its) (?:my|our) [a-z]+(?: [a-z]+)? who\b)"
    r"|(?<=\w)\s+(?=(?:it is|its) (?:just |only )?(?:him|her|them) (?:that|who)\b)"
    # "we've moved it's 12 church street": a value said anew, the comma dropped.
    r"|(?<=\w)(?<!\bso)(?<!\band)\s+(?=it is (?:now )?\d)"
    # "monday's best now my hours have changed": what changed is theirs, not the day's.
    r"|\s+(?=(?:now|since) (?:that |my |our |his |her |their )\w+ "
    r"(?:has|have|had|is|are|was|were|got|finished|ended|stopped|moved)\b)"
    # "wednesdays are not good wednesdays are bad for me": a new day said of after a predicate.
    # Not "from now on tuesdays are my day off".
    rf"|(?:(?<=\bgood)|(?<=\bfine)|(?<=\bbad)|(?<=\bout)|(?<!from now)(?<=\bnow)|(?<=\bfree)|"
    rf"(?<=\bbusy)|"
    # "thursday i can't thursday is a nightmare": after a finished negated verb too.
    rf"(?<=\bok)|(?<=\bokay)|(?<=\bbest)|(?<=\bbetter)|(?<=\bme)|(?<=\bcan not)|"
    # "mondays don't work anymore wednesday's my day off now".
    rf"(?<=\bany more)|(?<=\bnot work))"
    rf"\s+(?=(?:and )?(?:on\s+)?{_DAY}\s+(?:are|is|were|was|fine|ok|okay|good|not|no)\b)"
    # "tuesdays are no good it's wednesdays i can do": a new clause after a predicate.
    rf"|(?:(?<=\bgood)|(?<=\bfine)|(?<=\bbad)|(?<=\bout)|(?<=\bok)|(?<=\bokay)|(?<=\bwork)|"
    rf"(?<=\boff)|(?<=\bfree)|(?<=\bbusy)|(?<=\bbest)|(?<=\bbetter)|(?<=\bin))"
    # "saturdays are fine actually it's just the tuesday and friday": a correction word first.
    rf"\s+(?=(?:actually |really )?it is (?:an? |just |only )?(?:the )?{_DAY}\b)"
    # "i can do friday it's thursday i can't": after a day, the day put right.
    rf"|{_AFTER_A_DAY}\s+(?=it is (?:an? |just |only )?{_DAY}\b)"
    # "that's my old rota it's thursdays that are out": the day said anew after a reason.
    rf"|(?<=\w)\s+(?=it is (?:just |only )?{_DAY} (?:that|i|we)\b)"
    # "i was in on tuesdays but not any more since the new rota i'm in on thursdays": the
    # "not any more" ends what it takes back; what follows has a sign of its own.
    r"|(?:(?<=\bnot any more)|(?<=\bno longer))"
    r"\s+(?=(?:since|now|these days|nowadays|i|we)\b)"
    # "tuesday is fine i was looking at the wrong week": after a finished predicate, the
    # caller's reason in the past is a clause of its own.
    r"|(?:(?<=\bfine)|(?<=\bgood)|(?<=\bok)|(?<=\bokay)|(?<=\bfree)|(?<=\balright))"
    r"\s+(?=(?:i|we) (?:was|were|had|got)\b)"
    # "just fridays actually wednesdays fine": a correction word after a day.
    rf"|{_AFTER_A_DAY}\s+(?=actually {_DAY}\b)"
    # "sundays are good for me used to work them": a "used to" with its subject dropped after
    # a finished predicate is a past clause of its own.
    r"|(?:(?<=\bgood)|(?<=\bfine)|(?<=\bfree)|(?<=\bbusy)|(?<=\bok)|(?<=\bokay)|(?<=\bme)|"
    r"(?<=\bus))\s+(?=used to\b)"
    # "mondays were best for us now it's fridays": the present starts a clause of its own.
    rf"|\s+(?=(?:now|these days|nowadays) (?:it is|they are|i am|we are|it has to be|"
    rf"it will be) (?:an? |on )?{_DAY}\b)"
    # "thursday and friday no they don't work": after the days, an answering "no" before a
    # subject of its own starts the clause the days are the subject of.
    rf"|{_AFTER_A_DAY}\s+(?=no (?:they|those|that|it|i|we|neither|none)\b)"
    # "thursdays are ok now i swapped my shift": after a finished predicate, the caller's
    # reason, with "now" or "since", is a clause of its own.
    # "saturdays i'm free now since i stopped doing the market" too.
    r"|(?:(?<=\bok)|(?<=\bokay)|(?<=\bfine)|(?<=\bgood)|(?<=\bfree)|(?<=\bbad)|(?<=\bbusy)|"
    r"(?<=\bfree now)|(?<=\bfine now)|(?<=\bgood now)|(?<=\bok now))"
    r"\s+(?=(?:now|since|as) (?:i|we) (?!am\b|are\b)\w+)"
    # "sundays are fine now i'm not doing the market any more": what stopped, after a day that
    # is fine "now", is the reason, not a negation of the day.
    r"|(?:(?<=\bfine now)|(?<=\bgood now)|(?<=\bok now)|(?<=\bokay now)|(?<=\bfree now)|"
    r"(?<=\bbetter now))\s+(?=(?:i|we) (?:am|are|have|do) not\b|"
    r"(?:i|we) (?:have )?(?:stopped|finished|given up|packed in|left)\b)"
    # "cant do monday cant do friday": each day with a negated predicate of its own (not
    # "it's saturdays i can't do", where the day is the predicate's).
    rf"|{_AFTER_A_DAY}\s+(?=(?:can|will|could|do) not (?:do|make|manage)\b)"
    # "can't do monday can't do friday everything else is fine": the other days, said of
    # after the comma speech-to-text drops.
    r"|\s+(?=(?:everything|anything|any day|all the other days|every other day) else\b|"
    r"the rest(?: of the (?:week|time))? (?:is|are|i|we)\b)"
    # "tuesdays are bad for me its just this once": the one-off, a clause of its own.
    r"|(?<=\w)\s+(?=(?:it is|its) (?:just |only )?this once\b)"
    # "i'm not now saturdays i'm in": the day said anew with its own subject.
    rf"|(?<=\bnow)\s+(?={_DAY} (?:i|we) (?:am|are)\b)"
    # "except saturday when i do the car boot": the reason for the day, a clause of its own.
    rf"|{_AFTER_A_DAY}\s+(?=when (?:i|we|my|our|the)\b)"
    # "i'm thinking of last week just monday and wednesday": the days put right after it.
    r"|(?:(?<=\bweek)|(?<=\bmonth)|(?<=\byear))\s+(?=(?:just|only) )"
    # "none really i'm in most days": the answer, then the caller's own clause.
    r"|(?:(?<=\bnone really)|(?<=\bnot really)|(?<=\bnone))\s+(?=(?:i|we) (?:am|are)\b)"
    # "thursdays are fine these days before they weren't": what was, a clause of its own.
    r"|(?<=\w)\s+(?=before (?:they|it|that) (?:were|was)\b)"
    # "six radiators er seven with the one in the loft": the count said again, put right.
    r"|(?<=[a-z]s)\s+(?=\d{1,2} (?:with|including|counting) the (?:one|ones|other one)\b)"
    # "landline i'm always in": a way to reach the caller, then the reason, after the comma
    # speech-to-text drops.
    r"|(?:(?<=\blandline)|(?<=\bmobile)|(?<=\bemail)|(?<=\btext))\s+(?=(?:i|we) (?:am|are)\b)"
    # "no thursday not friday": the answering "no", then the day put right, not "no thursday".
    rf"|(?<=\bno)\s+(?={_DAY},? not (?:on )?(?:an? )?{_DAY})"
    # "two thermostats no just the one": the count put right, after the comma STT drops.
    r"|(?:(?<=[a-z]s)|(?<=[a-z]s no))(?<!\bis)(?<!\bis no)\s+"
    r"(?=(?:no )?(?:just|only) (?:the )?(?:one|\d{1,2}|two|three|four|five|six)\b)"
    # "mondays is when i um no no mondays are fine": the answering "no" starts what the caller
    # says now.
    rf"|(?<=\w)\s+(?=(?:no|nope|nah) {_DAY} (?:are|is|were|was) (?:fine|ok|okay|good|alright|"
    r"great|free|perfect|better|best)\b)"
    # "any day except tuesday honestly tuesday i'm at the food bank": the day said again, with
    # the caller's reason, after an aside.
    rf"|(?:(?<=\bhonestly)|(?<=\breally)|(?<=\bto be honest)|(?<=\bmind))\s+(?={_DAY} (?:i|we)\b)"
    # "only thursday i'm sorry i know that's awkward": the apology is no word about the day.
    r"|(?<=\w)\s+(?=i am sorry\b)"
    r"|(?<!am)\s+(?=(?:no wait|oh wait|wait no|no sorry|oh sorry|sorry|i mean|i meant|or rather|"
    r"scratch that|scrap that|hang on|hold on|no hang on|"
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
    rf"^(?:(?:no|nope|nah)\s+)+"
    rf"(?={_DAY}\s+(?:are|is|were|was|will|would|do|does|have|has|used to)\b|"
    # "is any day ok" "nope thursdays only": the "no" answers the question, the day is the one.
    rf"{_DAY}\s+only\b)"
)
# "yeah my wife is", "no we're both out": an answer particle, then words, no comma between.
_ANSWER_THEN_WORDS = re.compile(
    # "no chance but fridays im free" to "So Monday and Tuesday are no good?": "no chance" is
    # the predicate, agreeing, not an answer that turns the question round.
    r"^(yes|yeah|yep|no|nope|nah)\s+(?!(?:no|yes|yeah|chance|way|good|can do|hope|joy)\b)\w"
)
# A clause that is only a value: a day, an ordinal or a number, maybe after "just".
_BARE_VALUE = re.compile(
    rf"(?:(?:just|only|no|oh|er|um)\s+)*"
    rf"(?:{_DAY}|\d{{1,3}}(?:st|nd|rd|th)?|the \d{{1,3}}(?:st|nd|rd|th))"
)
_FILLER = re.compile(
    r"(?:no|nope|nah|yes|yeah|yep|oh|well|ok|okay|right|thanks|thank you|cheers|please|"
    r"sorry|no no|not really|correct|that is right)"
)
_PARTICLE = re.compile(
    # "mm not really no", "yeah yeah", "afraid not", "mm hm": one answer, in more words.
    r"^(?:(?:mm|um|er|erm|uh|oh)\s+)?(?:"
    r"((?:no|nope|nah|not really|afraid not|i am afraid not)(?:\s+(?:no|nope|nah))*)|"
    r"((?:yes|yeah|yep|yup|correct|that is right|that is it|that is the size of it|spot on|"
    r"exactly|that is correct|absolutely|mm hm|mhm|uh huh|of course|definitely)"
    r"(?:\s+(?:yes|yeah|yep|fine|definitely|of course|course|please))*))$"
)


@dataclass
class Clause:
    text: str
    corrects: bool = False


_TIME_ONLY = re.compile(
    r"(?:before|before that|previously|in the past|back then|at one time|originally|"
    r"last year|these days|nowadays|now|right now|at the moment|currently|"
    r"from now on|going forward|"
    # "Until last month, I could do Mondays": when the next clause was true.
    rf"(?:up )?(?:until|till) (?:last (?:week|month|year)|recently)|a while back|{_AGO})"
)


# "not monday i cant do monday", "we are not in mondays we are not in thursdays either":
# speech-to-text runs on; a day negated by its own word is a whole statement, and a new
# subject with its verb after it starts another clause (whose negator is its own). Not after
# "no no": one emphatic no, which read alone as two would flip the day.
_NEGATED_DAY_RUN_ON = re.compile(
    rf"(?<!\bno )\b((?:not|no|never)(?: (?:in|home|around|free|do))? (?:on )?(?:an? )?"
    rf"{_DAY})\s+(?=(?:i|we|nobody|no one|noone) (?:am|are|is|do|can|will|would|have)\b|"
    r"(?:they|them|those|that|it) (?:are|is)\b|"
    # "not friday i mean not monday friday is okay": another day with a verb of its own.
    rf"{_DAY} (?:is|are|fine|ok|okay|good|alright|free)\b)"
)


# "tuesdays no i cant do tuesdays", "sundays no sundays dont work": a day, then the answer to
# it, then the reason; the "no" is an answer said of the day, not a negator of what follows.
_DAY_THEN_NO = re.compile(
    rf"^((?:(?:er|um|so|yeah|well|oh)\s+)*{_DAY}) no\s+(?=(?:i|we|not|never|sorry|{_DAY})\b)"
)


# "six actually there's one in the loft room", "seventeen sorry i'm half asleep": a value put
# right, the correction word after it; what follows is a clause of its own.
_VALUE_THEN_CORRECTION = re.compile(
    r"^(?:(?:er|um|erm|no|oh)\s+)*(\d{1,4}[a-z]?)\s+(actually|sorry)\b[,\s]*"
)
# "two thermostats er three actually": a count put right after its thing, the correction word
# after the new number.
_NUMBER_OR_WORD = rf"(?:\d{{1,4}}|{'|'.join(_SMALL)})"  # a number, or one to ten in words
_COUNT_THEN_CORRECTION = re.compile(
    rf"\b({_NUMBER_OR_WORD} (?!(?:not|no|or|and|to|of)\b)[a-z]+) (?:(?:er|um|erm|no|oh)\s+)*"
    rf"({_NUMBER_OR_WORD}) (actually|sorry)\b[,\s]*"
)
_NUMBER_THEN_SUBJECT = re.compile(
    r"^((?:(?:actually|sorry|no|oh)\s+)*\d{1,4}[a-z]?) (?=(?:i|we|there) (?:am|are|is|was|have)\b)"
)
_BARE_DAYS_RUN = re.compile(rf"(?:(?:and|or|nor)\s+)?{_DAY}(?:\s+(?:(?:and|or|nor)\s+)?{_DAY})*")
_LIST_THEN_PREDICATE = re.compile(rf"(?:and |or )?{_DAY} (?:are|is) (?:all|both|each)\b")
# "its the ground floor flat er no basement": a floor put right, the commas dropped.
_FLOOR_PUT_RIGHT = re.compile(
    r"(?:(?<=\bfloor)|(?<=\bflat)|(?<=\bone)|(?<=\d)) (no|sorry|i mean) "
    r"(?=(?:the )?(?:basement|ground floor|top floor|"
    r"\d{1,2}(?:st|nd|rd|th) floor)\b)"
)


def _negated_day(text: str) -> str:
    """The day of a clause that is only a negated day ("not tuesdays"), or nothing."""
    return text if re.fullmatch(rf"(?:not|no) (?:on )?{_DAY}", text) else ""


# "any day but monday er mondays are bad": a day said again, the speaker starting over.
_DAY_SAID_AGAIN = re.compile(
    rf"\b(({_DAY[:-2]})s?) (?=\2s?,? (?:are|is|was|were|i|we|fine|ok|okay|good|alright|only)\b)"
)


_ASIDE = re.compile(
    r"(?:oh )?(?:(?:i am|i am getting|i get|i have got|i have) (?:all )?(?:muddled|confused|"
    r"mixed up|in a muddle|in a pickle|tongue tied|my days mixed up|it mixed up)|silly me|"
    r"listen to me|bless me|where was i|my brain|what am i like|i am losing it|"
    r"(?:i am|i am being) (?:daft|silly|an idiot|useless))"
)


# "just tuesdays wednesdays fine really": the one day, then another with its own predicate.
_JUST_ONE_THEN_ANOTHER = re.compile(
    rf"\b((?:just|only) {_DAY}) (?={_DAY} (?:(?:is|are) )?(?:fine|ok|okay|good|alright|all right|"
    r"free)\b)"
)


# "tuesday only really monday wednesday thursday friday i'm out": the one day, then the
# others with a predicate of their own, the comma dropped.
_ONLY_THEN_OTHERS = re.compile(rf"\b({_DAY} only(?: really)?) (?={_DAY}\b)")


# "monday no tuesday no wednesday yes": each day answered in turn (not "monday no tuesday is
# the one", a day put right).
_ANSWERED = (
    r"(?:(?:no|nope|nah)(?! (?:good|use|chance|way|can do|bother|problem)\b)|not so much|"
    r"not really|yes|yeah|yep)"
)
_DAYS_ANSWERED = re.compile(rf"(?<!\bno )(?<!\bnot )(?:\b{_DAY} {_ANSWERED}\b\s*){{2,}}")
_DAY_ANSWER = re.compile(rf"\b({_DAY}) ({_ANSWERED})\b")
# "sunday monday both no": the days, then one answer for them all.
_ALL_ANSWERED_NO = re.compile(
    rf"^((?:{_DAY} (?:and |or )?)+)(?:both|all|all of them|all three) (?:no|out)$"
)


def _answer_days(sentence: str, asked: int | None = None) -> str:
    """ "monday no tuesday no wednesday yes": each day answered in turn, written as what it says
    of the day. A yes agrees with the agent's question (`asked`, its sign: "So Tuesday and
    Thursday out?" "tuesday yes thursday no"); without one, a yes says the day works."""

    def said(match: re.Match[str]) -> str:
        out = []
        for day, answer in _DAY_ANSWER.findall(match.group(0)):
            sign = (-1 if answer.startswith("n") else 1) * (asked or 1)
            out.append(f"{day} is fine" if sign > 0 else f"not {day}")
        return ", ".join(out) + ", "

    return _DAYS_ANSWERED.sub(said, sentence)


# "i work sundays saturday i'm about": after a verb's day, a new day with a subject and verb of
# its own (not a list of days before the subject: "thursday friday saturday i'm working").
_ANOTHER_DAY_WITH_SUBJECT = re.compile(
    rf"\b((?:work|works|working|do|can|free|busy|fine|okay|ok|good|out|off|away|about) {_DAY}) "
    rf"(?={_DAY} (?:i|we) (?:am|are|will be|can|do)\b)|"
    # "thursday is best friday i have got the dentist": a day's predicate, then another day
    # with a subject and verb of its own.
    rf"\b((?:is|are) (?:best|fine|good|okay|ok|better)) (?={_DAY} (?:i|we) (?:am|are|have|can)\b)|"
    # "fridays i can not do thursdays i can": a day before its verb, then another day before
    # a subject of its own.
    rf"\b({_DAY} (?:i|we) (?:can not|can|could not|could) (?:do|manage|make)) "
    rf"(?={_DAY} (?:i|we|is|are)\b)|"
    # "its thursday i can not do i looked at the calendar": after the day's verb, a new
    # subject says something else (not a hedge on it: "i can do i think").
    r"\b((?:can not|can|could not|could) do(?: now| actually| now actually)?) "
    r"(?=(?:i|we|they|he|she) (?!can\b|could\b)\w+)"
)


# "no not since i moved shifts tuesday's best now": the day said after the change.
_DAY_AFTER_A_CHANGE = re.compile(
    rf"\b((?:moved|changed|swapped|switched|new) (?:my |our )?(?:shifts?|rota|jobs?|hours)|"
    # "thats changed monday is fine now": what changed, then the day as it is now.
    r"(?:that|it|things) (?:is|has|have) (?:all )?changed) "
    rf"(?={_DAY}\b)"
)


# "now im on nights mondays are actually fine": a clause with a subject and verb of its own,
# then a day with its own predicate; read as one, the day went with "on nights".
_DAY_PREDICATE_AFTER_SUBJECT = re.compile(
    rf"\b((?:i|we) (?:am|are|work|do|have)\b"
    # Not a doubt about the day ("I'm not sure if Fridays are free").
    rf"(?:(?!\b(?:{_DAY[:-2]}|sure|if|whether|think|know)\b).)*?) "
    rf"(?={_DAY} (?:are|is) (?:actually |now |all |still |really )?"
    r"(?:fine|ok|okay|good|free|alright|all right)\b)"
)


# "im in a bungalow its my daughter thats on the fifth floor": a cleft about somebody else
# (`turn_cues._CLEFT` reads whose it is) starts a clause of its own.
_CLEFT_RUN_ON = re.compile(r" (?=(?:it is|its) (?:my|our) [a-z]+ (?:who|that)\b)")


# "its a system boiler my mate said combi but": a word somebody said, set against the caller's,
# starts a clause of its own.
_SOMEONE_SAID_RUN_ON = re.compile(
    r"(?<=\w)(?<!whatever) (?=(?:my|our|the) \w+ (?:said|reckons|reckoned|thought|told me)"
    r"(?: it is| it was)?(?: an?)? \w+(?: \w+)?(?: but\b|$))"
)


# Where speech-to-text runs a new clause on: after "only" ("saturday only i work fridays"),
# after "best" before another day ("thursdays are best wednesdays i work"), and before "it's
# just" ("tuesday i can do it's just monday and wednesday").
_NEW_CLAUSE_RUN_ON = re.compile(
    # "nobody got back to me anyway tuesdays and wednesdays im around": "anyway" moves on.
    rf"(?<=\w) (?=anyway {_DAY})|"
    rf"(?<=\bonly) (?=(?:i|we) (?!am afraid\b)\w+|it is\b)|(?<=\bbest) (?={_DAY}\b)|"
    rf"(?:(?<=\bdo)|(?<=day)|(?<=days)) (?=it is (?:just|only) {_DAY})"
)


# "thirteen mill street er mill lane": the street said again with another kind word, put right.
_STREET_SAID_AGAIN = re.compile(
    rf"\b([a-z]+) ({_STREET_WORDS}) (?:(?:er|um|erm|no|oh)\s+)*\1 (?!\2\b)({_STREET_WORDS})\b"
)


# "neither wednesday nor thursday really im at college": the days denied, then the caller's
# reason (not "neither monday nor tuesday is a problem": a predicate of their own).
_NEITHER_THEN_WHY = re.compile(
    rf"\b(neither (?:on )?{_DAY} nor (?:on )?{_DAY}(?: really)?) (?=(?:like|i|we)\b)"
)


# "not friday not saturday not sunday": each day denied in turn, one negation each (not "monday
# no tuesday no", each day answered).
_DENIED_IN_TURN = re.compile(rf"\b(not (?:on )?(?:an? )?{_DAY}) (?=not (?:on )?(?:an? )?{_DAY}\b)")
# "none of monday or tuesday work for me im away with work": the days denied, then a new
# subject says why.
_NONE_THEN_WHY = re.compile(
    rf"\b(none of (?:(?:on |or |and |nor )?{_DAY},? )+(?:work|suit|are good|are any good) "
    r"for (?:me|us)) (?=(?:i|we) (?!(?:think|reckon|guess|mean)\b)\w+)"
)


# "no not monday wednesday i said wednesday": what the caller said before, said again.
_SAID_AGAIN_RUN_ON = re.compile(rf"{_AFTER_A_DAY} (?=i said {_DAY}$)")


# "ideal no its not ideal its ariston": a value, denied, then the right one.
_DENIED_THEN_RIGHT = re.compile(
    r"\b(\w+) no (?:it is|its) not (?:an? |the )?\1 (?=(?:it is|its) \w)"
)


# "they've got like twelve radiators i've only got five": theirs, then the caller's own.
_THEIRS_THEN_MINE = re.compile(
    r"(\b(?:they|he|she) (?:have|has) got\b.*?) (?=(?:i|we) (?:have )?(?:only |just )?got\b)"
)


def clauses(sentence: str, asked: int | None = None) -> list[Clause]:
    """The sentence's clauses. `asked`: the sign of the agent's yes/no question about days, if
    the sentence opens the caller's answer to it (see `_answer_days`)."""
    out: list[Clause] = []
    pending = False
    sentence = _DAY_SAID_AGAIN.sub(r"\1, ", sentence)
    sentence = _JUST_ONE_THEN_ANOTHER.sub(r"\1, ", sentence)
    sentence = _ONLY_THEN_OTHERS.sub(r"\1, ", sentence)
    sentence = _NEITHER_THEN_WHY.sub(r"\1, ", sentence)
    sentence = _DENIED_IN_TURN.sub(r"\1, ", sentence)
    sentence = _NONE_THEN_WHY.sub(r"\1, ", sentence)
    sentence = _answer_days(sentence, asked)
    sentence = _ALL_ANSWERED_NO.sub(r"\1are no good", sentence)
    sentence = _ANOTHER_DAY_WITH_SUBJECT.sub(
        lambda m: f"{next(group for group in m.groups() if group)}, ", sentence
    )
    sentence = _DAY_AFTER_A_CHANGE.sub(r"\1, ", sentence)
    sentence = _DAY_PREDICATE_AFTER_SUBJECT.sub(r"\1, ", sentence)
    sentence = _CLEFT_RUN_ON.sub(", ", sentence)
    sentence = _SOMEONE_SAID_RUN_ON.sub(", ", sentence)
    sentence = _NEW_CLAUSE_RUN_ON.sub(", ", sentence)
    sentence = _THEIRS_THEN_MINE.sub(r"\1, ", sentence)
    sentence = _DENIED_THEN_RIGHT.sub(r"\1, no, sorry, ", sentence)
    sentence = _SAID_AGAIN_RUN_ON.sub(", ", sentence)
    sentence = _STREET_SAID_AGAIN.sub(r"\1 \2, no, sorry, \1 \3", sentence)
    sentence = _FLOOR_PUT_RIGHT.sub(r", \1, ", sentence)
    sentence = _VALUE_THEN_CORRECTION.sub(r"\2, \1, ", sentence)
    sentence = _COUNT_THEN_CORRECTION.sub(r"\1, \3, \2, ", sentence)
    sentence = _NUMBER_THEN_SUBJECT.sub(r"\1, ", sentence)
    sentence = _DAY_THEN_NO.sub(r"\1, no, ", sentence)
    sentence = _NEGATED_DAY_RUN_ON.sub(r"\1, ", sentence)
    parts = [p.strip(" .!") for p in _SPLIT.split(sentence)]
    parts = [p for p in parts if p]
    held = ""  # a clause that is only a time marker ("Before, I couldn't do Saturdays")
    put_right: set[str] = set()  # the days a "not DAY" after a correction took back
    for index, text in enumerate(parts):
        if held:
            text, held = f"{held} {text}", ""
        if _TIME_ONLY.fullmatch(text) and index + 1 < len(parts):
            # "Before, I couldn't do Saturdays, but now I can": "before" says when the next
            # clause was true; on its own it says nothing.
            held = text
            continue
        # "Fridays are bad, er, Saturdays I mean": the value before a closing "I mean" is the
        # correction, and not a list running on ("Sundays, I mean, Mondays": what follows is).
        if index + 2 == len(parts) and _MEANT.fullmatch(parts[-1]):
            pending = True
        if (
            out
            and _EXCEPTED.match(text)
            and _UNIVERSAL.search(out[-1].text)
            and (
                not _EXCEPTION_WITH_PREDICATE.match(text)
                or _UNIVERSAL_BUT.search(f"{out[-1].text} but")
            )
        ):
            out[-1].text += " " + text  # "any day but Tuesday" is one clause
            continue
        if (
            out
            and out[-1].corrects
            # "no, mondays and tuesdays, not thursdays": a list put right as well.
            and (_BARE_VALUE.fullmatch(out[-1].text) or _BARE_DAYS_RUN.fullmatch(out[-1].text))
            and re.fullmatch(rf"not (?:on )?(?:an? )?{_DAY}", text)
        ):
            # "I mean Thursday, not Wednesday": the day put right, not a new negation.
            put_right |= _weekdays_in(text)
            continue
        if out and text in ("please", "thanks", "thank you"):
            out[-1].text += " " + text  # "Friday, please": one clause, a request
            continue
        if (
            out
            and not pending
            # "not tuesdays, tuesdays i'm home": a day said again starts over, not a list.
            and not _weekdays_in(text) & (put_right | _weekdays_in(_negated_day(out[-1].text)))
            and (
                (
                    _DAY_LIST.fullmatch(text)
                    and _DAY_RE.search(out[-1].text)
                    # "Tuesdays used to be busy, Wednesdays now": then and now, two clauses.
                    and not (_PAST.search(out[-1].text) and _PRESENT.search(text))
                )
                or (
                    # "None of Monday, Tuesday or Wednesday work": the list runs on (not "or
                    # rather Friday, Thursday I've got the dentist": a subject of its own).
                    _DAY_LIST_HEAD.match(text)
                    and _NEGATED_LIST_HEAD.fullmatch(out[-1].text)
                    and not re.match(rf"{_DAY}\s+(?:i|we|he|she|they|my|our)\b", text)
                )
            )
        ):
            # "I can't do Monday, Tuesday or Wednesday any more": one clause over the list.
            out[-1].text += " " + text
            continue
        if (
            out
            and not pending
            and not out[-1].corrects
            and _BARE_DAYS_RUN.fullmatch(out[-1].text)
            and _LIST_THEN_PREDICATE.match(text)
        ):
            # "Friday, Saturday, Sunday are all a no for me": the list, then what it is.
            out[-1].text += " and " + text
            continue
        text = re.sub(
            r"^(?:but|although|though|however|whereas|so|because|cos|cause|and)\s+", "", text
        )
        if not text or _ASIDE.fullmatch(text):
            # "Fridays are off limits - I'm getting muddled, I mean Wednesdays": the caller
            # talking to themselves says nothing, and does not part a correction from its value.
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
        if (
            out
            and re.search(r"\bonly$", out[-1].text)
            and re.match(r"sorry\b(?! \w+day)", text)
            and not (text == "sorry" and index + 1 < len(parts) and _DAY_RE.match(parts[index + 1]))
        ):
            # "mondays only, sorry, it is a bit of a faff": sorry for the one day, not a
            # correction of it ("fridays only, sorry, saturdays" still is).
            text = text[len("sorry") :].strip()
            if not text:
                continue
        elif match := _CORRECTION_START.match(text):
            corrects, text = True, text[match.end() :].strip()
            if not text or re.fullmatch(r"(?:no|oh|nope|sorry)", text):
                pending = index + 1 < len(parts)
                continue
        if not out and (no_then := re.match(r"(?:no|nope) (?=\d)", text)):
            # "no sixty one six one": speech-to-text drops the comma after a "no" that puts a
            # number right; it is "no, 61" (written "No 61" is the house too, corrected or not).
            out.append(Clause("no", corrects))
            corrects, text = True, text[no_then.end() :]
        if re.fullmatch(r"(?:no|nope|oh|no no)", text):
            # A bare "no" answers a question, or corrects what comes next ("fine - no, sorry";
            # "no, the fifth").
            out.append(Clause(text, corrects))
            # "... and a towel rail - oh, and two valves": an "oh" before "and" adds.
            # An "oh" opening the sentence ("Oh, Sundays are fine.") is no correction either.
            pending = not (
                text == "oh"
                and (index == 0 or (index + 1 < len(parts) and parts[index + 1].startswith("and ")))
            )
            continue
        pending = False
        # "no they aren't", "yes it is": an answer particle, not a negator of what follows.
        text = _LEADING_PARTICLE.sub("", text)
        text = _LEADING_NO_BEFORE_DAY.sub("", text)
        out.append(Clause(text, corrects))
    return out
