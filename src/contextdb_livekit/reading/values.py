"""The values a caller's clause names, read for `reading.reader`: which mention of a thing is
current and which is old ("we had a Baxi, it's a Vaillant now"), counts and the doubts about
them (a guess, a sum or a product left to us), how floors, addresses and channels are written,
and the sentence-valued topics (parking, pets, who is home, access) kept as the caller's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from contextdb_livekit.reading.equipment import Equipment
from contextdb_livekit.reading.lexicon import (
    _ACCESS,
    _ASSENT_WORDS,
    _HAVE_HAD,
    _HEDGE,
    _NEGATOR,
    _NEW_BEFORE,
    _NO_PETS,
    _NOT_AN_ANIMAL,
    _NUMBER,
    _NUMBERS,
    _OLD_AFTER,
    _OLD_BEFORE,
    _ONE_UP_ONE_DOWN,
    _ORDINALS,
    _PARTIAL_COUNT,
    _PAST_PET,
    _PER_PLACE,
    _PERSON_RE,
    _PETS,
    _PRESENCE,
    _SOMEONE_HOME,
    _STREET,
    _STREET_WORDS,
    _TO_COME_BEFORE,
    _WHO_WILL_BE,
    speaks_of_parking,
)
from contextdb_livekit.reading.sentences import _SMALL, Statement, normal
from contextdb_livekit.reading.turn_cues import about_someone_else

# A count given as a guess ("about a dozen radiators", "ten or so rads"), and a sentence that
# supposes ("if it's the flat on the fourth floor"): not sure.
_GUESSED_COUNT = re.compile(
    r"\b(?:about|around|roughly|approximately|nearly|almost|at least|over|under) "
    r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (\w+(?: \w+)?)"
)
_GUESSED_COUNTS = re.compile(
    r"\b(?:or so|give or take|or thereabouts|more or less|or more|maybe more|-?ish)\b"
)
_SUPPOSED = re.compile(r"^(?:if|what if|say|suppose|supposing)\b|\bhypothetically\b")
# What a caller wants installed is not what they have ("I'd like a Worcester fitted").
_WANTS_FITTED = re.compile(
    r"\b(?:want|wanted|wanna|would like|like to (?:get|have)|hoping to|planning to|plan to|"
    r"considering|quote for|price for|interested in|upgrade to|switch(?:ing)? to|"
    r"(?:thinking|looking) (?:of|about|at|into) (?:getting|having|putting|switching|changing|"
    r"replacing|a new)|looking for a new)\b"
    r"(?! (?:a |an |the |someone |somebody |you |to )?(?:visit|engineer|appointment|booking|"
    r"book|service|someone|somebody|come|look|check))"
)
# Another number offered for a count ("ten radiators, well, eleven", "my wife says nine").
_OTHER_NUMBER = re.compile(
    r"\b(?:well|or|actually|make that|more like|i mean|says|said|reckons|thinks)[\s,]+"
    r"(\d+|one|two)\b"
    r"(?!\s*(?:years?|months?|weeks?|days?|hours?|minutes?|am|pm|o'?clock|ago|old)\b)|"
    # "five smoke alarms, six if you count the one in the garage": which is the count is a guess.
    r"\b(\d+) (?:if (?:you|we) (?:count|include)|including|counting)\b"
)


def _said_in(texts: list[str], number: str) -> bool:
    """Whether a number ("2") is said in any of the texts, as digits or as a word ("two")."""
    said = "|".join([re.escape(number), *(w for w, n in _SMALL.items() if n == number)])
    return any(re.search(rf"\b(?:{said})\b", text) for text in texts)


def _other_number(text: str, count: str) -> bool:
    said = count.split()[0]
    return any(
        _SMALL.get(number := m.group(1) or m.group(2), number) != said
        for m in _OTHER_NUMBER.finditer(text)
    )


# "a" counts one only in a list of what the caller has ("we've a combi and six radiators"),
# not as the object of another verb ("the boiler heats a cylinder"), and not when another of
# the same follows ("a boiler in the kitchen and another in the garage": a sum left to us).
_LISTED_BEFORE = re.compile(
    r"(?:^|\b(?:and|with|plus|have|has|got|is|are|also|just|only|there is|there are))\s*$"
)
_ANOTHER = re.compile(r"\b(?:another|a second|one more|the other one)\b")
# A floor said of the caller's own home ("we're on the ground floor", "our flat's the fifth").
_OWN_FLOOR = re.compile(r"\b(?:i|we|us|our|my|me|live|living|flat|apartment|house)\b")
_MOBILES = frozenset({"mobile", "cell", "mobile phone", "mobile number"})
# A phone named alone ("the landline", "my mobile then"): a channel when it answers the agent's
# question or corrects the caller's last channel.
_BARE_PHONE = re.compile(
    # "no the landline" run together; "no mobile" alone denies it.
    r"^(?:(?:no(?=\s+(?:the|my|on|just)\b)|just|please|so)\s+)*(?P<use>(?:use|try)\s+)?"
    r"(?:(?:on|the|my|no(?=\s+(?:the|my|on)\b)|just)\s+)*"
    r"(?P<phone>landline|home phone|house phone|"
    r"home number|mobile|mobile phone|mobile number|cell)"
    r"(?:\s+(?:number|instead|then|please|only|now|from now on|going forward))*$"
)
# "please just call me", "so ring me": the caller asks for themselves, whoever came before.
_TO_ME = re.compile(
    r"^(?:(?:please|just|so|then|and|but)\s+)*(?:call|ring|phone|text|email|message|contact|"
    r"try|reach)\s+(?:me|us)\b"
)
# A correction that opens with a street ("no sorry, its 13 north street, I always muddle it").
_CORRECTED_STREET = re.compile(
    rf"^(?:(?:it is|its|no|number)\s+)*(?:\d{{1,5}}\s+)?{_STREET}(?!\s+(?:{_STREET_WORDS})\b)"
)
# A street named again without its number ("Queens Avenue, not Road", "station street not road").
_STREET_NAME = re.compile(
    rf"^(?:(?:it is|its|no|the)\s+)*((?:[a-z'-]+\s+){{1,3}}?(?!(?:rd|st)\b)(?:{_STREET_WORDS}))"
    r"(?:\s+not(?:\s+the)?\s+\w+)?$"
)
# A number and a name, answering "What's the address?": a street with no word for its kind
# ("41 Mount Pleasant", "3 Kingsway"); not a count, a floor or a flat.
_NAMED_STREET = re.compile(
    r"^(?:(?:yes|yeah|it is|number|we are at|i am at)\s+)*"
    r"(\d{1,5}[a-z]?\s+[a-z'-]+(?:\s+[a-z'-]+)?)$"
)
_NOT_A_STREET = re.compile(
    r"\b(?:floor|flat|apartment|unit|of|and|or|the|a|an|now|please|thanks|i|we|it|is|are|no|not|"
    r"sorry|yes|oh|years?|months?|weeks?|days?|minutes?|hours?|am|pm|o'?clock)\b"
)
# "Flat nineteen, Rosewood Court", "Unit 4, Riverside Business Park": a flat or unit in a named
# building, said as the whole sentence.
_FLAT_IN_BUILDING = re.compile(
    r"^(?:it is\s+)?(?:flat|apartment|unit)\s+\w+\s*,\s*((?:[a-z'-]+\s+){1,3}(?:court|house|"
    r"mansions|buildings|heights|tower|lodge|point|business park|estate|works|centre))[\s.!]*$"
)
# A call denied before another channel ("you didn't call, just message me"): its negator.
_DENIED_CALL = re.compile(
    r"\b(?:not|never|no longer)\s+(?:\w+\s+)?(?:call|ring|phone|text|email|message)\w*\b"
)
# What a preferred channel is compared against ("better than email", "rather than a call").
_COMPARED_TO = re.compile(
    r"(?:\b(?:than|over|rather than|instead of)|\bprefer\w*\b.*\bto)"
    # "I prefer a phone call to all that texting nonsense".
    r"\s+(?:all\s+)?(?:an?\s+|the\s+|by\s+|on\s+|that\s+|those\s+|these\s+)?$"
)
# A channel the caller says they cannot get on with ("I don't get on with texts", "I'm
# hopeless with email"): named, but not the way to reach them.
_AVERSE_TO = re.compile(
    r"(?:\b(?:(?:do|does|can) not|never|hardly ever|rarely)\s+(?:really\s+)?(?:get on with|like|"
    r"use|check|read|look at|see|answer|pick up|hear|do|be doing with|be bothered with|"
    r"cope with|deal with)|\bhate|\bcan not stand|"
    r"\b(?:terrible|rubbish|useless|hopeless|bad|no good|not good|awful|not great|not very good|"
    r"not the best|not much good)\s+(?:with|at)|"
    # "I keep missing the texts": the channel that fails the caller.
    r"\b(?:keep|kept|always)\s+missing|"
    # "I get too much email", "so many spam texts": the channel that swamps the caller.
    r"\b(?:too|so)\s+(?:much|many)(?:\s+(?:junk|spam|scam))?|"
    # "all them scam calls": the calls the caller will not pick up.
    r"\b(?:scam|spam|junk|nuisance|cold)"
    r")\s+(?:(?:my|the|a|an|any|all|their|your)\s+)?$"
)

_PEOPLE = (
    r"(?:son|daughter|husband|wife|partner|mum|mother|dad|father|brother|sister|landlord|"
    r"landlady|tenant|neighbou?r|carer|friend|agent|letting agent|niece|nephew|grandson|"
    r"granddaughter|boss)"
)
# A channel with somebody else as its object ("ring my son", "contact him not me") or owner
# ("the landlord's email").
_TO_SOMEONE_ELSE = re.compile(
    rf"^\w*\s+(?:(?:my|our|the|his|her|their)\s+(?:\w+\s+)?{_PEOPLE}s?\b|(?:him|her|them)\b)"
)
_SOMEONE_ELSES_CHANNEL = re.compile(rf"\b{_PEOPLE}(?:'s|s)\s+$")
# A channel the caller says fails them, said after it ("emails go straight to spam", "texts
# never come through").
_FAILS = re.compile(
    r"^\w*\s+(?:(?:always|just|all|usually|often|tend to)\s+)?(?:(?:go|goes|end up|ends up|land|"
    r"lands|get|gets)\s+(?:straight\s+)?(?:in|into|to)\s+(?:my\s+|the\s+)?(?:spam|junk)|"
    r"(?:never|do not|does not|rarely)\s+(?:get through|come through|arrive|reach me|work)|"
    # "my texts go all over the place", "emails get lost": the channel loses the caller's.
    r"(?:go|goes|get|gets|went|got)\s+(?:all over the place|missing|lost|astray|walkabout)|"
    # "texts I tend to miss", "emails I never check": the caller does not see that channel.
    r"(?:i|we)\s+(?:(?:always|just|usually|often|tend to|normally)\s+)?(?:miss|ignore|"
    r"(?:never|do not|rarely|hardly ever)\s+(?:see|check|read|look at|answer|open)))"
)


def _old_span(text: str, match: re.Match[str]) -> str:
    """An old mention with the words that made it old ("do not check my texts")."""
    before = text[: match.start()].split()[-4:]
    return " ".join([*before, match.group(0)])


def _is_old(text: str, match: re.Match[str]) -> bool:
    before = text[: match.start()]
    after = text[match.end() :]
    if _OLD_AFTER.match(after):
        return True  # "it's a viessmann now the baxi packed up": the "now" is the other's
    if _TO_COME_BEFORE.search(before):
        return True  # "we're getting a combi fitted next month": not the home's yet
    if _NEW_BEFORE.search(before):
        return False
    return bool(_OLD_BEFORE.search(before)) and not _HAVE_HAD.search(before)


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


def _partial_count(sentence: str, words: Equipment) -> bool:
    """A count of a part of the house ("three upstairs"), or a number with no thing after a
    count ("and four upstairs", "two in each bedroom"): a sum or a product left to us."""
    if words.per_room_count.search(sentence):
        return True  # "a radiator in every room, so that's ...": a product left to us
    first = words.count.search(sentence)
    if first is None or not _PARTIAL_COUNT.search(sentence):
        return False
    # "two thermostats, one upstairs, one down": where each of the two is.
    sentence = _ONE_UP_ONE_DOWN_RE.sub(" ", sentence)
    if re.search(r"\b(?:upstairs|downstairs)\b", sentence) and not re.search(
        r"\bupstairs and down(?:stairs)?\b|\bdownstairs and up(?:stairs)?\b", sentence
    ):
        return True
    if re.match(r"\s+(?!one\b)(?:\w+\s+){0,2}(?:each|every|per)\b", sentence[first.end() :]):
        return True  # "two storage heaters in each bedroom": a product
    rest = sentence[first.end() :]
    numbers = [
        m
        for m in re.finditer(rf"\b{_NUMBER}\b", rest)
        if not re.match(
            rf"\s+(?:more |extra |new |old )?(?:(?:{words.count_words}) )?{words.units}",
            rest[m.end() :],
        )
    ]
    # "two thermostats, one in the hall and one on the landing", "three towel rails, one in
    # each bathroom": where each of the count is, not more of them to add up.
    placed = _ONE_PLACED.findall(rest)
    said = _number_said(first.group(1))
    # Not when the count is itself in one room ("two radiators in the lounge, one in each
    # bedroom": a sum left to us).
    own_place = re.match(r"\s+(?:in|on|at)\b", rest)
    if not own_place and (_ONE_EACH.search(rest) or (placed and len(placed) == said)):
        numbers = [m for m in numbers if m.group(0) != "one"]
    return bool(numbers)


# Where a part of a count is: "upstairs", "in the lounge", "on the first floor".
_PART_PLACE = (
    r"(?:upstairs|downstairs|up|down|"
    r"(?:in|on) (?:the |my |our )?(?:(?:\w+ ){0,2}?(?:kitchen|lounge|bedrooms?|bathrooms?|"
    r"hall(?:way)?|landing|diner|dining room|living room|front room|back room|sitting room|"
    r"annexe|extension|office|conservatory|utility(?: room)?|loft(?: conversion)?|garage|"
    r"study|porch|cellar|basement|en ?suite|toilet|loo|attic)|(?:ground|first|second|third|"
    r"top|1st|2nd|3rd) floor|ground|first|second|third|top))\b"
)
_PLACED = re.compile(rf"\s+{_PART_PLACE}")
# Words that make a sum of parts something other than one: a product ("two in each bedroom"),
# a part of a part ("one of them"), a guess or a choice, a correction.
_NOT_A_SUM = re.compile(
    r"\b(?:each|every|per|apiece|of (?:them|those)|or|either|about|around|roughly|-?ish|"
    r"including|included|counting|sorry|actually|wait|i mean|no|hang on|not|minus|except)\b"
)
# A total said beside the parts: "so that's nine", "eight altogether".
_SAID_TOTAL = re.compile(
    rf"\b(?:so|that is|making|makes)\s+(?:that is\s+)?{_NUMBER}\b(?!\s+(?:more|extra))|"
    rf"\b{_NUMBER}\s+(?:\w+\s+)?(?:in total|altogether|all told|in all|total)\b"
)


def summed_parts(sentence: str, words: Equipment) -> dict[str, str]:
    """Counts said in parts, each with its own place: "four rads downstairs, five upstairs",
    "a radiator in the hall, two in the lounge and three upstairs" → the thing's one name →
    the whole. A part with no place of its own (a breakdown of the count, or a number of
    nothing), a product, a guess or a correction leaves the sum to nobody: nothing here."""
    if _NOT_A_SUM.search(sentence):
        return {}
    things: dict[str, int] = {}  # thing → the sum so far
    units: dict[str, str] = {}
    parts: dict[str, int] = {}  # thing → how many parts
    places: dict[str, set[str]] = {}
    spans: list[tuple[int, int]] = []
    # Each count said: where it ends, its thing, and whether a place of its own follows it.
    counts: list[tuple[int, str, bool]] = []
    events = sorted(
        [(m.start(), m.end(), m.group(2), m.group(1)) for m in words.count.finditer(sentence)]
        + [(m.start(), m.end(), m.group(1), "1") for m in words.single.finditer(sentence)]
    )
    for start, end, unit, raw in events:
        if spans and start < spans[-1][1]:
            continue
        spans.append((start, end))
        thing = words.counted_thing(unit)
        where = _PLACED.match(sentence, end)
        counts.append((end, thing, where is not None))
        if where is None:
            continue  # what follows a count with no place breaks it down, or is unknown
        units[thing] = unit
        things[thing] = things.get(thing, 0) + _number_said(raw)
        parts[thing] = parts.get(thing, 0) + 1
        places.setdefault(thing, set()).add(where.group(0).strip())
        spans.append((end, where.end()))
    total = _SAID_TOTAL.search(sentence)
    for number in re.finditer(rf"\b{_NUMBER}\b", sentence):
        if any(a <= number.start() < b for a, b in spans) or (
            total and total.start() <= number.start() < total.end()
        ):
            continue
        where = _PLACED.match(sentence, number.end())
        before = [c for c in counts if c[0] <= number.start()]
        if where is None or not before or not before[-1][2]:
            return {}  # a number of nothing said, or a part of a count that has no place
        thing = before[-1][1]
        if where.group(0).strip() in places[thing]:
            return {}  # the same place twice: a correction, not another part
        things[thing] += _number_said(number.group(1))
        parts[thing] += 1
        places[thing].add(where.group(0).strip())
    summed = {thing: n for thing, n in things.items() if parts[thing] > 1}
    if total and summed:
        said = _number_said(next(g for g in total.groups() if g))
        if len(summed) > 1 or said not in summed.values():
            return {}  # a total that is not the parts' sum: which is right is a guess
    return {thing: _count_value(str(n), units[thing]) for thing, n in summed.items()}


# A product said whole: "one radiator in each of the six rooms", "two in each of the three
# bedrooms" (the thing before "in each", the number of places after it).
_EACH_OF = re.compile(
    rf"\b(?P<n>a|an|{_NUMBER[1:-1]})\s+(?P<thing>[a-z]+(?: [a-z]+)?)\s+(?:in|on|for)\s+each of "
    rf"(?:the|our|my|them|those)?\s*(?P<rooms>{_NUMBER[1:-1]})\b"
)


def product_said(sentence: str, words: Equipment) -> dict[str, str]:
    """A count said as a product with nothing else counted beside it ("one radiator in each
    of the six rooms" → the thing's one name → 6 radiators); otherwise nothing."""
    each = _EACH_OF.search(sentence)
    if each is None or re.search(
        rf"\b{_NUMBER}\b", sentence[: each.start()] + sentence[each.end() :]
    ):
        return {}
    of_each = re.match(rf"{words.units}\b", each.group("thing"))
    if of_each is None:
        return {}
    thing = of_each.group(1)
    per = 1 if each.group("n") in ("a", "an") else _number_said(each.group("n"))
    total = per * _number_said(each.group("rooms"))
    return {words.counted_thing(thing): _count_value(str(total), thing)}


_ONE_EACH = re.compile(rf"\bone (?:(?:in|on|for|at|by) (?:each|every)\b(?! of)|{_PER_PLACE})")
_ONE_UP_ONE_DOWN_RE = re.compile(rf"\b{_ONE_UP_ONE_DOWN}")
_ONE_PLACED = re.compile(r"\bone (?:in|on|at|for|by) (?:the|each|my|our)\b")


def _number_said(raw: str) -> int:
    """A number as `_NUMBER` matches it: digits, or one of the small numbers in words."""
    return int(raw) if raw.isdigit() else _NUMBERS[raw]


def _count_value(raw: str, unit: str) -> str:
    count = _number_said(raw)
    noun = unit if count != 1 or not unit.endswith("s") else unit[:-1]
    if count > 1 and not noun.endswith("s"):
        noun += "s"
    return f"{count} {noun}"


def _floor_value_from(word: str) -> str:
    number = _ORDINALS.get(word) or int(re.sub(r"\D", "", word))
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix} floor"


def _floor_value(match: re.Match[str]) -> str:
    return floor_named(match.group(1) or match.group(2) or match.group(3) or match.group(4))


def floor_named(word: str) -> str:
    """The floor's value from its name or ordinal ("ground", "lower ground", "fifth")."""
    if word in ("basement", "lower ground"):
        # Below street level: the line's labels (and its callers, "the lower ground, the
        # basement really") name both the basement.
        return "basement"
    if word in ("ground", "top"):
        return f"{word} floor"
    return _floor_value_from(word)


def _title_address(raw: str) -> str:
    return " ".join(w if w[0].isdigit() else w.capitalize() for w in raw.split())


# Somebody who may be at the visit: a relative or a role ("the letting agent", "my carer").
_WHO = re.compile(
    rf"{_PERSON_RE.pattern}|\b(?:the|my|our)\s+(?:letting agent|agent|warden|caretaker|"
    r"concierge|porter|carer|cleaner|housekeeper)\b"
)
# What they will do for the visit, whoever the subject ("she'll let you in", "he can open up").
_LETS_IN = re.compile(
    # Not said of the caller ("I'll be in") nor of nobody ("nobody will be in").
    r"(?<!\bi )(?<!\bwe )(?<!\bnobody )(?<!\bno one )(?<!\bnoone )"
    r"\b(?:will|would|can|could|going to|is going to|are going to)\s+"
    r"(?:(?!not\b|never\b)\w+\s+)?"
    r"(?:let (?:you|the engineer|your engineer|your man|them|him|her|the plumber|people) in|"
    r"be (?:home|at home|there|around|about|at the house|in the house|in(?=\s*$|\s*,|\s+(?:all|"
    r"during|on|from|when|that|the day|to let|to open)\b))|open up|answer the door|"
    r"meet (?:you|your engineer|the engineer|him|her|them)|"
    # "will pop over and let them in": coming round to do it.
    r"(?:pop|come|nip|be) (?:over|round|by|along) (?:and|to) let (?:you|them|him|her) in)\b|"
    r"\b(?:is|are) (?:working from home|staying with (?:me|us)|the one (?:at )?home|"
    r"(?:always|usually|normally|generally) (?:in|home|around|about|there))\b|"
    # "my landlady will be the one to let you in", "the manager who lets the engineer in".
    r"\bbe the one (?:to|who will) (?:let|open)\b|"
    # "my partner will be the one at home to let you in", "my grandson usually lets people in".
    r"\bbe the one (?:at home|in|home|there)\b|"
    r"\b(?:usually|always|normally|generally) lets? "
    r"(?:people|them|you|the engineer|engineers) in\b|"
    r"\bwho (?:will )?lets? (?:you|the engineer|them|him|her) in\b"
)


# Somebody with only the auxiliary of a verb said before ("but my daughter will"), and the
# words that make that verb being at the visit.
_SOMEBODY_WILL = re.compile(
    rf"^(?:(?:but|and|so|no|yes|yeah)\s+)*(?:{_PERSON_RE.pattern})(?:\s+\w+)?\s+(?:will|can|would)$"
)
_PRESENT_AT_VISIT = re.compile(
    r"\bbe (?:there|in|home|around|about|at home)\b|\blet (?:you|them|the engineer) in\b"
)


_CALLER_AT_HOME = re.compile(
    r"^(?:just |only )?(?:me|myself)\b|"
    r"^i will be (?:in|home|at home|there|around)\b"
)


_HAD = re.compile(r"\b(?:had|was|were|used to|before)\b")


def _pet_before_doubt(text: str) -> bool:
    """ "two cats, they'll probably hide", "our dog might be at the groomers": the doubt comes
    after the animal and is about what it will do, not whether there is one ("I think we've
    a dog", "we might get a cat")."""
    pet, doubt = _PETS.search(text), _HEDGE.search(text)
    return pet is not None and doubt is not None and pet.end() <= doubt.start()


def _free_text(
    sentence: str,
    parts: list[str],
    topic: str | None,
    words: Equipment,
    pets_doubted: list[str] | None = None,
) -> list[Statement]:
    """Parking, pets, who will be home and access: the caller's sentence is the value, when
    a clause that is not hedged names one (for pets, the last such clause decides between
    "no pets" and the sentence)."""
    found: dict[str, str] = {}
    # "Me, I'll be in": the caller is who will be there; not "me? no, I'm at work", "me, not
    # likely" (the whole sentence, the hedged clause included, says which).
    caller_at_home = topic == "who_home" and bool(
        _CALLER_AT_HOME.match(spoken := normal(sentence)) and not _NEGATOR.search(spoken)
    )
    for text in parts:
        other = about_someone_else(text)
        # "D for dog", "no bother at all, pet": spelt letters and endearments name no animal.
        text = _NOT_AN_ANIMAL.sub(" ", text)
        if not set(text.split()) - _ASSENT_WORDS:
            continue  # "No." to "Any pets?": an answer, but not words worth keeping as one
        if (
            (
                (_PRESENCE.search(text) or _WHO_WILL_BE.search(text))
                # "my partner will be there, not me": the caller's own absence is no negation.
                and not _NEGATOR.search(re.sub(r"\bnot (?:me|us|myself)\b", " ", text))
            )
            or _SOMEONE_HOME.search(text)
            or (
                topic == "who_home"
                and (
                    _PERSON_RE.search(text)
                    or re.match(r"^(?:just )?(?:my|our|the) \w+", text)
                    or caller_at_home
                )
            )
        ):
            found["who_home"] = sentence
        if _ACCESS.search(text) and not words.fixture_place.search(text):
            found["access_notes"] = sentence
    whole = " , ".join(parts)
    # "I won't be there, but my daughter will": somebody named, the verb left for the clause
    # before to say.
    if (
        "who_home" not in found
        and _PRESENT_AT_VISIT.search(whole)
        and any(_SOMEBODY_WILL.match(text) for text in parts)
    ):
        found["who_home"] = sentence
    # An animal in the sentence may be what "it'll be in the house" is about.
    named = _WHO.search(whole) and not _PETS.search(whole)
    if "who_home" not in found and named and _LETS_IN.search(whole):
        # "The caretaker, Dave, will let you in", "my mum's staying with us, she'll be in": who
        # is named in one clause and what they will do in another.
        found["who_home"] = sentence
    doubted = [(text, True) for text in pets_doubted or []]
    for text, doubted_after_pet in [*((text, False) for text in parts), *doubted]:
        other = about_someone_else(text)
        text = _NOT_AN_ANIMAL.sub(" ", text)
        if not set(text.split()) - _ASSENT_WORDS:
            continue
        if other:
            continue
        if doubted_after_pet:
            # A clause doubted after its animal: what it says of a pet now, nothing else.
            if not (_PAST_PET.search(text) or _NO_PETS.search(text) or _HAD.search(text)):
                found["pets"] = sentence
            continue
        if speaks_of_parking(text) or topic == "parking":
            found["parking"] = sentence
        if _NO_PETS.search(text):
            found["pets"] = "No pets"
        elif _PAST_PET.search(text):
            continue  # "We used to have a dog but he died": not a pet now
        elif _PETS.search(text) or topic == "pets":
            found["pets"] = sentence
    return [Statement(kind, value) for kind, value in found.items()]
