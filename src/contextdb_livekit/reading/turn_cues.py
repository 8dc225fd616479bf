"""What a turn or the agent's question says before any fact is read: a turn that corrects the
last one, the kinds a text talks about, a change of routine, somebody else as the subject,
what the agent asked (`read_question`), and what a day's predicate says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from contextdb_livekit.kit.review import REVIEW_OPENING
from contextdb_livekit.reading.equipment import Equipment
from contextdb_livekit.reading.lexicon import (
    _ADDING,
    _CHANGE,
    _COPULA,
    _DAY,
    _DAY_RE,
    _EARLY_CORRECTION,
    _EXCLUSIVE_ATOMS,
    _FAVOURITE_DENIED,
    _FIRST_PERSON,
    _FOR_SOMEBODY_ELSE,
    _HOUR_NEGATED,
    _JOB,
    _KIND_WORDS,
    _NEG_ATOMS,
    _NEG_WITH_NOT,
    _NEGATOR,
    _ORDINAL_WORDS,
    _OTHER_SUBJECT,
    _PART_OF_DAY,
    _PHRASAL_OUT,
    _POS,
    _POS_ATOMS,
    _PREFER,
    _REPORTED,
    _SPECIFIC,
    _SWITCH,
    _TURN_CORRECTION,
    _VALUE_WORD,
    _WEAK_POS,
    DAY_KINDS,
    _weekday,
    _weekdays_in,
)
from contextdb_livekit.reading.sentences import _ASIDE, _SMALL, clauses, normal


def plain_words(text: str) -> str:
    """The text normalised, its punctuation dropped, one space between words."""
    return " ".join(re.sub(r"[^\w\s']", " ", normal(text)).split())


def corrects_last_turn(turn: str) -> bool:
    """ "Oh no wait, sorry…", "Let me recount…": the turn corrects the caller's last one."""
    text = plain_words(turn)
    opens = bool(_TURN_CORRECTION.match(text) or _EARLY_CORRECTION.match(text))
    # "Church Road! Sorry.", "5B, actually.": a new value, then the correction, in the first
    # few words; a yes that apologises ("yes sorry, that's it") confirms instead.
    head = " ".join(text.split()[:5])
    soon = bool(re.search(r"\b(?:sorry|actually|i mean)\b", head)) and not re.match(
        r"(?:yes|yeah|yep|that is right|correct|right)\b", head
    )
    first = plain_words(re.split(r"(?<=[.!?])\s+", turn)[0])
    # "no twenty six" to the agent's "Twenty.": a no and another value corrects it.
    answered = bool(_NO_THEN_VALUE.match(text))
    # "Oh, they moved it. It's outside now": what the caller said it was is no longer so.
    moved = bool(_MOVED_IT.match(text))
    return (opens or soon or answered or moved) and not _ADDING.search(first)


_MOVED_IT = re.compile(
    r"^(?:(?:oh|ah|well|hmm|um|er)\s+)*(?:they|we|someone|somebody) (?:have |has )?"
    r"(?:moved|changed|replaced|swapped) (?:it|that|them)\b|"
    r"^(?:(?:oh|ah|well|hmm|um|er)\s+)*(?:it|that) (?:has been|was|got) "
    r"(?:moved|changed|replaced)\b"
)


_NO_THEN_VALUE = re.compile(
    rf"^(?:no|nope|nah)\s+(?:it is\s+|its\s+|the\s+|flat\s+|number\s+|unit\s+)?"
    rf"(?:\d{{1,4}}[a-z]?|{_ORDINAL_WORDS})\b"
)


_NUMBERED = re.compile(r"\b(?:flat|apartment|unit|number|no|floor)\s+\d+[a-z]?\b")


def kinds_mentioned(text: str, equipment: Equipment) -> set[str]:
    """The kinds of fact a text is about, read loosely (a mention, not a reading)."""
    normalised = normal(text)
    every = {**_KIND_WORDS, **equipment.kind_words}
    kinds = {kind for kind, words in every.items() if words.search(normalised)}
    # "it's flat 4, sorry": a number that is a flat's or a floor's is no mention of a count.
    if not _KIND_WORDS["equipment_count"].search(_NUMBERED.sub(" ", normalised)):
        kinds.discard("equipment_count")
    if equipment.make.search(normalised):
        kinds.add("equipment_make")
    return kinds


def says_change(text: str) -> bool:
    """A sentence that marks a correction or a change, so its value replaces an earlier one."""
    normalised = normal(text)
    return bool(_CHANGE.search(normalised)) or any(c.corrects for c in clauses(normalised))


_ASIDE_AT_END = re.compile(rf"[\s,]+{_ASIDE.pattern}[\s.!]*$")
_ENDS_TAKING_BACK = re.compile(
    r"(?:^|[\s,—–-]+)(?:(?:oh|no|well)[\s,]+)*(?:no|wait|hang on|hold on|scratch that|"
    r"scrap that|i tell a lie|my mistake|whoops|oops|i mean|i meant|what am i saying)[\s.!,]*$"
)


def leaves_correction_open(text: str, words: Equipment) -> bool:
    """A sentence that ends correcting and names no new value ("Saturday's fine - oh hang on,
    no, it's my nephew's christening."): the next sentence says what it is now."""
    said = normal(text)
    parts = clauses(said)
    said = _ASIDE_AT_END.sub("", said)  # "no, I'm getting muddled."
    if parts and _ENDS_TAKING_BACK.search(said) and not _ENDS_TAKING_BACK.fullmatch(said):
        # "Wednesday's bad - no, hang on.": a statement, then the caller taking it back.
        return True
    # "Or - no, it's the bin day and I'm out early.": from the correction on, no new value.
    start = next((i for i, part in enumerate(parts) if part.corrects), None)
    if start is None:
        return False
    rest = " ".join(part.text for part in parts[start:])
    return not _VALUE_WORD.search(rest) and not kinds_mentioned(rest, words)


def says_routine_changed(sentence: str) -> bool:
    """ "We've swapped, it's Tuesdays from now on": the days that worked before no longer do."""
    return bool(_SWITCH.search(normal(sentence)))


_COMPARED_TO_MINE = re.compile(
    r"\b(?:mine|ours) (?:is|are|was|were) (?:the same|similar|about the same|just the same)\b|"
    r"\b(?:same as|like|than|as) (?:mine|ours)\b|"
    # "they have the same boiler as us".
    r"\b(?:same|similar) (?:\w+ ){1,3}as (?:us|me|ours|mine)\b"
)


_CLEFT = re.compile(r"(?:it is|its) (?=(?:my|our) [a-z]+(?: [a-z]+)? (?:who|that)\b)")


def about_someone_else(clause: str) -> bool:
    if _REPORTED.match(clause):
        return True
    if cleft := _CLEFT.match(clause):
        # "it's my flatmate who can't do Tuesdays": the subject said in a cleft.
        clause = clause[cleft.end() :]
    match = _OTHER_SUBJECT.match(clause)
    # "my wife and I", "he says I'm in": the caller is in it too. "mine's the same size",
    # "same as ours" compare a thing of the caller's with theirs: what is said is theirs.
    rest = _COMPARED_TO_MINE.sub(" ", clause[match.end() :]) if match else ""
    # An "i" or "me" far from the subject in a run-on is the caller talking on ("my daughter
    # lives on the fifth floor ... that's how i got the number"); "ours", "we" anywhere set
    # the caller's own home beside theirs ("his meter's in the garage ours is under the stairs").
    words = rest.split()
    near, far = " ".join(words[:_WITH_THE_SUBJECT]), " ".join(words[_WITH_THE_SUBJECT:])
    return match is not None and not _FIRST_PERSON.search(near) and not _OUR_HOME.search(far)


# How many words after somebody else's name may still bring the caller into the subject
# ("my wife and i", "he says i'm in", "my mum lives with me").
_WITH_THE_SUBJECT = 6
# "were" is "we're" with the apostrophe dropped, not the verb after a subject ("your lot were
# good", "they were").
_OUR_HOME = re.compile(
    r"\b(?:we|us|our|ours|ourselves|weve)\b|"
    r"(?<!\w)(?!(?:you|they|there|who|which|that|lot|these|those|\w+s) )\w+ were\b|^were\b"
)


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
    # "So Mondays out and Fridays fine?": each day read back with its own sign.
    signs: tuple[tuple[str, int], ...] = ()
    # "So eight radiators and one towel rail?": each count read back, (number, thing).
    counts: tuple[tuple[str, str], ...] = ()


_OFFER = re.compile(
    r"\bfor (?:the|this|your) (?:booking|visit|appointment|engineer|job)\b|"
    # Not "Shall I note any days you're unavailable?": a question about days, not a slot.
    r"\b(?:(?:shall|should) i"
    r"(?! (?:note|put (?:down|that)|write|make a note|take|mark|add|record)\b)|"
    r"would you like|do you want|can i (?:book|put)|i can (?:offer|do)|"
    r"there is a slot|how about|what about|book|cancel|(?:to|we) confirm)\b|"
    # "we've got tuesday or friday available", "we have a slot on monday": the line's slots.
    rf"\bwe have(?: got)? (?:an? |the )?(?:{_DAY}|slots?|space|openings?)\b|"
    # "Wednesday out, I've noted it": a read-back, not a slot offered.
    r"\bi have(?! (?:noted|put|written|marked|made a note|taken|added|updated|recorded|got that"
    r"|got you|you as|you down)\b)"
)


# "What's the address?", "Can I take your address": asked even when speech-to-text drops the
# question mark.
_ADDRESS_ASKED = re.compile(
    r"^(?:(?:and|ok|okay|right|lovely|great|thanks|so)\s+)*(?:(?:what is|whats|can i (?:take|have|"
    r"get)|could i (?:take|have|get)|may i (?:take|have)) (?:the|your) (?:full |home |property )?"
    r"address\b|"
    # "and where do you live", "where's the property": where the visit is, asked another way.
    r"where do you live\b|where are you (?:based|located)\b|where is the property\b)"
)


# Who will be at the visit: "Is anyone home on Fridays?", "Will you be there yourself?".
_WHO_ASKED = re.compile(
    r"\b(?:anyone|anybody|someone|somebody|who|whos|wholl)\b.*\b(?:home|in|there|around|"
    r"at the (?:property|house|flat|address))\b|"
    # "Who will meet the engineer?", "who's letting them in?"
    r"\b(?:who|whos|wholl)\b.*\b(?:meet|meeting|let|letting|lets|open|opening|answer)\b|"
    r"\b(?:will|would|are|can) you (?:\w+ )?be (?:home|in|there|around)\b"
)


_BEST_ASKED = re.compile(r"\b(?:best|prefer|preferred|particularly good|favou?rite)\b")


_CHANNEL_WORD = r"(?:mobile|landline|home phone|email|e-mail|text|text message|phone call|call)"
_CHANNEL_CHOICE = (
    rf"(?:(?:and|so|ok|okay|right)\s+)*(?:(?:on|by)\s+)?(?:the\s+|your\s+|an?\s+)?{_CHANNEL_WORD}"
    rf",? or (?:on |by )?(?:the |your |an? )?{_CHANNEL_WORD}"
)


# A read-back's words around its counts: "so", "I've got", "is that right".
_COUNTS_OPENING = re.compile(
    r"^(?:(?:ok|okay|right|so|great|lovely|thanks|thank you|that is|i have got|"
    r"just to (?:confirm|check)|to confirm)\W+)*"
)
_COUNTS_CLOSING = re.compile(
    r"\W*(?:(?:is that|that is) (?:right|correct|it|all)|right|correct|yes|yeah|"
    r"in total|altogether)?\W*$"
)
_COUNTS_APART = re.compile(
    r"\s*(?:,|\band\b|\bplus\b)\s*|\s+(?=\d|(?:" + "|".join(_SMALL) + r")\b)"
)


def _counts_read_back(t: str, equipment: Equipment) -> tuple[tuple[str, str], ...]:
    """The counts a read-back of nothing but counts says ("so 8 radiators and one towel rail?",
    "9 rads 3 towel rails two thermostats"): a yes confirms each (`Asked.counts`)."""
    body = _COUNTS_CLOSING.sub("", _COUNTS_OPENING.sub("", t))
    count = re.compile(rf"(\d+|{'|'.join(_SMALL)}) {equipment.units}")
    pieces = [p for p in _COUNTS_APART.split(body) if p]
    matches = [count.fullmatch(p) for p in pieces]
    if not matches or not all(matches):
        return ()
    return tuple((m.group(1), m.group(2)) for m in matches if m)


_QUESTION_TAG = re.compile(
    r",?\s*\b(?:is|are|was|were|do|does|did|can|could|will|would|have|has)(?: not)? "
    r"(?:it|they|you|we|he|she|there|that)\s*\?*\s*$"
)


def read_question(text: str, equipment: Equipment) -> Asked:
    t = normal(text)
    if t.startswith(normal(REVIEW_OPENING)):
        return Asked()  # the host's review read-back (`tools.review`): "yes" answers it, no kind
    # "Nine radiators. Thermostats?": the count said back, then the next thing asked; the
    # number said back is not a slot offered.
    last = re.split(r"(?<=[.!])\s+", text.strip())[-1]
    if last != text.strip() and (then := read_question(last, equipment)).topic == "equipment_count":
        return then
    if counts := _counts_read_back(t, equipment):
        return Asked(counts=counts)
    days = tuple(dict.fromkeys(_weekday(d) for d in _DAY_RE.findall(t)))
    # "what floor are you on": a question, the question mark left off in the transcript.
    asks = (
        t.rstrip().endswith("?")
        or ("?" not in t and bool(_SPOKEN_QUESTION.match(t)))
        # "so thats mondays and tuesdays out": a read-back, the question mark left off.
        # "monday and tuesday are both out yeah": a read-back with a tag, asked.
        or ("?" not in t and bool(re.search(r"\b(?:yeah|yes|right|correct)\W*$", t)))
        # "flat number", "days to avoid", "Make of boiler?": a prompt of a few words, the
        # question left implicit.
        or _is_terse_prompt(t)
        # Not "so monday and friday are out anything else": a "no" to that adds no days.
        or (
            "?" not in t
            and bool(
                re.match(
                    r"(?:(?:right|ok|okay|got it|sorry|alright|lovely|great|thanks),?\s+)*so\b|"
                    # "sorry mondays and thursdays out tuesdays fine": the read-back put right.
                    rf"(?:sorry|apologies|my mistake|my bad)\W+(?:so\s+)?{_DAY}",
                    t,
                )
            )
            and not re.search(r"\b(?:else|other|others|more)\b", t)
        )
    )
    if asks and (
        re.search(
            r"\b(?:contact|reach|get hold of|get in touch with) you\b|\bget in touch\b|"
            r"\bhow (?:would|do|shall|should) (?:you like|we|i) (?:us to )?(?:contact|reach|get)\b",
            t,
        )
        # "Contact preference?", "Best contact?": a prompt of a few words about contact.
        or (_is_terse_prompt(t) and re.search(r"\bcontact\b", t))
    ):
        return Asked(topic="contact_preference")
    if (asks or re.fullmatch(_CHANNEL_CHOICE, t)) and re.search(
        rf"\b{_CHANNEL_WORD},? or (?:an? |the |by )?{_CHANNEL_WORD}\b", t
    ):
        # "Mobile or landline?", "on the mobile or the landline" (the question mark left off).
        return Asked(topic="contact_preference")
    if asks and _TIME_ASKED.search(t) and not _TIME_OFFERED.search(t):
        # "Mornings or afternoons?"; not "Would you like a morning or afternoon?", the time of
        # this visit, offered.
        return Asked(topic="preferred_time")
    if _ON_FILE.search(t) and not days:
        # "Is the number of radiators still twelve?", "I have you down with 6 radiators", "is
        # it still the landline we should ring": what memory holds, said back for the caller
        # to keep or change.
        if count := re.search(rf"\b(?:\d+|number of) {equipment.units}", t):
            return Asked(topic="equipment_count", unit=count.group(1))
        if re.search(rf"\b{_CHANNEL_WORD}\b", t):
            return Asked(topic="contact_preference")
    # "Last time the engineer came on a Monday. Is that still good?": a day gone by, asked
    # about as the standing day it was.
    dated = bool(_SPECIFIC.search(t)) and not re.search(r"\bstill\b", t)
    if (
        "?" not in t
        and (next_thing := re.search(rf"\b\w+ {equipment.units} and {equipment.units}\W*$", t))
        and next_thing.group(2).endswith("s")
    ):
        # "six radiators and thermostats": a count said back, then the next thing asked.
        return Asked(topic="equipment_count", unit=next_thing.group(2))
    if _OFFER.search(t) or dated or re.search(r"\b\d{1,2}\b", t):
        return Asked(offered=days)
    if _ADDRESS_ASKED.match(t):
        return Asked(topic="address")
    if not asks:
        return Asked()
    if match := re.search(
        rf"\bhow many {equipment.units}|^(?:and )?(?:the )?{equipment.units},? how many\b", t
    ):
        return Asked(topic="equipment_count", unit=match.group(1) or match.group(2))
    # "And thermostats?", "Any towel rails?": after a count, how many of the next thing.
    if match := re.search(
        rf"(?:^|[.!,]\s+)(?:and|what about|how about|any)\s+(?:the\s+)?{equipment.units}\s*\?$", t
    ):
        return Asked(topic="equipment_count", unit=match.group(1))
    # "Radiators?", "ok and thermostats", "number of radiators", "and radiators across both":
    # things in the plural, alone (the question mark left off); not "and the gas meter", asking
    # where it is.
    if (
        match := re.search(
            rf"(?:^|[.!,]\s+)(?:(?:ok|okay|right|great|lovely|thanks|and|any|number of)\s+)*"
            rf"{equipment.units}(?:,?\s+(?:count|{_IN_ALL}))?\s*\??$",
            t,
        )
    ) and match.group(1).endswith("s"):
        return Asked(topic="equipment_count", unit=match.group(1))
    makes_of = equipment.types.make_asked
    if re.search(rf"\b(?:what|which) (?:make|brand|model|kind of (?:{makes_of}))\b", t) or (
        _is_terse_prompt(t) and re.search(r"\b(?:make|brand)\b", t)
    ):
        return Asked(topic="equipment_make")
    if re.search(r"\b(?:which|what) (?:flat|apartment)\b|\b(?:flat|apartment) number\b", t):
        return Asked(topic="flat")
    if re.search(equipment.fixture.asked, t):
        return Asked(topic=equipment.fixture.kind)
    types = equipment.types
    if re.search(types.asked, t):
        return Asked(topic=types.kind)
    if (
        re.match(types.proposed, t)
        # "Combi?": the type alone, asked.
        or (_is_terse_prompt(t) and equipment.type_mention.fullmatch(t.rstrip("?!. ")))
    ) and (kind := equipment.type_mention.search(t)):
        # "Is it a combi boiler?": a bare "yes" takes the agent's word for it.
        return Asked(topic=types.kind, proposed=equipment.type_value(kind))
    if re.search(r"\b(?:what|which) floor\b|\bwhat(?:s| is) the floor\b", t) or (
        # "Floor?", "Ground floor or first?"; not where the boiler or the meter is.
        re.search(r"\bfloor\b", t)
        and (_is_terse_prompt(t) or " or " in t)
        and not re.search(rf"\b{types.noun}s?\b|{equipment.fixture.mentioned}", t)
    ):
        return Asked(topic="floor")
    if re.search(r"\b(?:park|parking|driveway)\b", t):
        return Asked(topic="parking")
    if re.search(r"\b(?:pets?|animals?|dogs?|cats?)\b", t):
        return Asked(topic="pets")
    set_against = _NOT_DAYS_LAST.search(t)
    head = t[: set_against.start()] if set_against else ""
    if set_against and _DAY_RE.search(head) and not _DAYS_NOT_DAYS.fullmatch(t):
        # "Is it Tuesdays that are no good, not Thursdays?", "so you can do Monday, not
        # Tuesday": the predicate is the kept days'; its "not" is the contrast's, not theirs. A
        # yes confirms the kept days; a no says which of the two is wrong no more than a yes
        # says what the others are.
        read_back = list(dict.fromkeys(map(_weekday, _DAY_RE.findall(head))))
        base = _base(*_predicate(head), head)
        if base is None:
            return Asked()
        return Asked(days=tuple(read_back), signs=tuple((day, base) for day in read_back))
    if days and (contrast := _DAYS_NOT_DAYS.fullmatch(t)):
        # "So Monday and Tuesday, not Wednesday.": the days set against the one denied; a yes
        # confirms each its own way.
        kept, denied = _weekdays_in(contrast.group(1)), _weekdays_in(contrast.group(2))
        contrasted = sorted([(d, 1) for d in kept - denied] + [(d, -1) for d in denied])
        return Asked(days=tuple(d for d, _ in contrasted), signs=tuple(contrasted))
    if days:
        # "Is anyone home on Fridays?": a yes or no is said of the days. "Tuesdays are good -
        # and Thursdays as well?": the days read back before the question are not asked.
        pieces = re.split(r"[.!]\s+|\s+[-\u2014]+\s+|;\s*", t)
        tail = pieces[-1]
        if len(pieces) > 1 and (
            _CHECKING.fullmatch(tail) or _ACKNOWLEDGING.fullmatch(tail) or _FOR_YOU.fullmatch(tail)
        ):
            # "So Wednesday unavailable, Friday available. Correct?": the question is the
            # read-back before it.
            tail = f"{pieces[-2]} {tail}"
        elif len(pieces) > 1 and re.fullmatch(rf"(?:(?:{_DAY}|or|and)\W*)+", tail):
            # "Which day's best - Tuesday or Thursday?": the days alone after the dash are the
            # choices the question before it asks about.
            tail = f"{pieces[-2]} {tail}"
        asked = tuple(dict.fromkeys(_weekday(d) for d in _DAY_RE.findall(tail)))
        if not asked and kinds_mentioned(tail, equipment) - DAY_KINDS:
            # "Wednesdays and Thursdays are out. And the boiler - is it a combi?": the question
            # asked last is the one a yes or no answers, not the days read back before it.
            if re.match(types.proposed, tail) and (kind := equipment.type_mention.search(tail)):
                return Asked(topic=types.kind, proposed=equipment.type_value(kind))
            return Asked()
        if len(asked) > 1 and (signs := _read_back_signs(tail)) is not None:
            # "So Friday's fine and Saturday's out?": a yes confirms two things said two ways;
            # which day goes which way is the read-back's, not one sign for every day. Said
            # two ways with a day's sign not read: no sign for a yes to confirm.
            return Asked(days=asked, signs=signs)
        if not asked and re.search(r"\b(?:others?|else)\b", tail):
            # "Monday's out. Any other days that don't work?": the days read back are not
            # asked about; the sign is the question's own, or the read-back's ("So no
            # Mondays. Anything else?").
            sign, negators = _predicate(tail)
            if sign is None and not negators:
                sign, negators = _predicate(t)
            return Asked(base=_base(sign, negators, t))
        said_of = next((piece for piece in re.split(r",\s*", tail) if _DAY_RE.search(piece)), tail)
        said_of = re.sub(r"^(?:(?:and|so|but|then|ok|okay|right)\s+)+", "", said_of)
        if (
            _ASKED_OF_SOMEONE.match(tail)
            or about_someone_else(said_of)
            or _THEIRS_READ_BACK.match(said_of)
            or _DAYS_FOR_SOMEONE_ELSE.search(said_of)
        ):
            # "Is your husband usually in on Mondays?": his days, not the caller's; a "yes"
            # says nothing of whether they work for the caller.
            return Asked(days=asked or days)
        # "So Thursdays are out now. Is there a day that's good instead?": a question with a
        # predicate of its own and no day asks for new days, with its own sign.
        open_question = (
            not asked
            and _predicate(tail) != (None, 0)
            and bool(
                re.search(r"\b(?:a|any|another|which|what|other) days?\b", tail)
                # "So Tuesdays and Thursdays work. Any you can't do?"
                or re.match(r"(?:(?:and|so)\s+)?any (?:others? |ones? )?(?:you|that)\b", tail)
            )
        )
        # "Fridays are your day off, aren't they?": the tag asks; its "not" is not the day's.
        sign, negators = _predicate(_QUESTION_TAG.sub("", tail if asked or open_question else t))
        base = _base(sign, negators, tail)
        if len(asked) > 1 and any(
            _segment_sign(segment) not in (None, base) for segment in _day_segments(tail)
        ):
            # "So Saturday is out for you, and Tuesdays don't matter?": one day's words give a
            # sign the whole read-back does not (the "out" of one and the "not" of the other
            # count as a double negative); a yes confirms no one sign.
            base = None
        if not asked and not open_question and tail != t and _predicate(tail) != (None, 0):
            # "So Wednesday's not great - is it a definite no?": the read-back and the question
            # each carry a sign; one count of negators across both would turn the day round.
            head = t[: len(t) - len(tail)]
            if _predicate(head) != (None, 0):
                said = _base(*_predicate(head), head)
                base = said if said == _base(*_predicate(tail), tail) else None
        if asked and base is not None and _NOTE_ASKED.search(tail) and not _BEST_ASKED.search(tail):
            # "Shall I note Wednesday as available?" "No, don't note anything yet.": a yes
            # confirms the days as the agent would note them; a no declines the note and says
            # nothing of the days.
            return Asked(days=asked, signs=tuple((day, base) for day in asked))
        # "Is Wednesday your preferred day?": asked of the favourite, not of whether it works.
        best = bool(_BEST_ASKED.search(tail))
        return Asked(days=asked or (() if open_question else days), base=base, best=best)
    if _WHO_ASKED.search(t):
        return Asked(topic="who_home")
    if re.search(r"\b(?:days?|weekdays?)\b", t):
        sign, negators = _predicate(t)
        best = bool(_BEST_ASKED.search(t))
        return Asked(days=days, base=_base(sign, negators, t), best=best)
    return Asked()


def _segment_sign(segment: str) -> int | None:
    """The sign a read-back gives one day ("tuesday no", "friday yes", "mondays out")."""
    sign, negators = _predicate(segment)
    if sign is not None or negators:
        return _base(sign, negators, segment)
    # "... thursday yes and ": what the day was read back as, before the next day's "and".
    segment = re.sub(r"(?:\W+(?:and|or|but))+\W*$", "", segment)
    if re.search(r"\b(?:yes|yeah|in|definitely)\W*$", segment):
        return 1  # "so tuesday no thursday and friday yes", "wednesdays in"
    return None


_UNDECIDED = re.compile(
    r"\b(?:tbc|tba|to be confirmed|not sure|unsure|maybe|not known|unknown|undecided|"
    r"to be decided|pending|possibly|iffy|do not know|dunno)\b"
)


# "mondays and " in "mondays and tuesdays out": a day listed under the next one's predicate.
_BARE_LISTED_DAY = re.compile(rf"{_DAY}(?:,|\s+and|\s+or)?")
_RATHER = re.compile(r"\b(?:would|had) rather\b")
_FAVOURITE_LEAD = re.compile(
    r"\b(?:and|but)\b(?:(?!\b(?:and|but)\b).)*\b(?:prefer|rather|ideally|best is)\b"
    r"(?:(?!\b(?:and|but)\b).)*$"
)


# "So Fridays good, Mondays out. Got it.": the agent taking in the read-back before it.
_ACKNOWLEDGING = re.compile(
    r"(?:(?:ok|okay|right|lovely|great|perfect|thanks|thank you),?\s+)?(?:got it|noted)\W*"
)
# "So Friday available, Monday not - for you.": whose days the read-back before it gives.
_FOR_YOU = re.compile(r"(?:(?:and|that is)\s+)?for you(?:rself)?\W*")
# A question that only asks whether the read-back before it is right.
_CHECKING = re.compile(
    r"(?:(?:is|was) (?:that|this) (?:right|correct|ok|okay)(?: now)?|(?:is that )?correct|right|"
    r"yes|yeah|ok|okay|have i got (?:that|it|those|everything) right|did i get (?:that|it) right|"
    r"does that sound right|all correct|sound right)\?"
)


def _day_segments(read_back: str) -> list[str]:
    """The read-back cut at each day: the day and the words after it, up to the next day."""
    mentions = list(_DAY_RE.finditer(read_back))
    return [
        read_back[m.start() : mentions[i + 1].start() if i + 1 < len(mentions) else None]
        for i, m in enumerate(mentions)
    ]


def _read_back_signs(read_back: str) -> tuple[tuple[str, int], ...] | None:
    """Each day of a read-back said with more than one sign, with its own ("So Mondays out and
    Fridays fine?", "Saturday available, Sunday out?"); None when the read-back says its days
    one way; empty when it says them both ways but a day's sign is not read (one sign for
    every day would turn some of them round)."""
    mentions = list(_DAY_RE.finditer(read_back))
    segments = _day_segments(read_back)
    for i in range(len(segments) - 1):
        # "thursdays no good and you'd prefer a monday": the favourite said before a day is
        # that day's, not the day before's.
        if (lead := _FAVOURITE_LEAD.search(segments[i])) is not None:
            segments[i], segments[i + 1] = (
                segments[i][: lead.start()],
                segments[i][lead.start() :] + segments[i + 1],
            )
    # "... thursday yes and friday tbc": a day read back as not known yet has no sign, and
    # gives none to the days listed before it.
    undecided = [bool(_UNDECIDED.search(segment)) for segment in segments]
    said = [
        None if open_ else _segment_sign(segment)
        for segment, open_ in zip(segments, undecided, strict=True)
    ]
    for i in range(len(said) - 2, -1, -1):
        if (
            said[i] is None
            and not undecided[i]
            and not undecided[i + 1]
            and _BARE_LISTED_DAY.fullmatch(segments[i].strip())
        ):
            said[i] = said[i + 1]  # "mondays and tuesdays out": a list under one predicate
    known = [sign for sign in said if sign is not None]
    if known and any(
        sign is None and re.search(r"\b(?:only|just)\b", segment)
        for sign, segment in zip(said, segments, strict=True)
    ):
        # "so thursday only and monday no": the one day beside a day said not to work; a yes
        # confirms the two readings, not one sign for both.
        return ()
    favourites = [bool(_PREFER.search(segment) or _RATHER.search(segment)) for segment in segments]
    unread = [
        sign is None and not open_ and not favourite
        for sign, open_, favourite in zip(said, undecided, favourites, strict=True)
    ]
    if len(set(known)) == 1 and any(
        unread_ and not _BARE_LISTED_DAY.fullmatch(segment.strip(" ?.,!"))
        for unread_, segment in zip(unread, segments, strict=True)
    ):
        # "So Tuesday's the one day, and Monday would be a problem?": a day said with words
        # the reader has no sign for, beside one it has; the one sign for both is a guess.
        return ()
    # "So Monday out, and Wednesday to be confirmed?": one sign, and a day left open.
    if len(set(known)) < 2 and not any(favourites) and not (known and any(undecided)):
        return None
    # A favourite needs no sign of its own ("... and you'd rather a wednesday").
    unsigned = sum(
        sign is None and (open_ or favourite)
        for sign, open_, favourite in zip(said, undecided, favourites, strict=True)
    )
    if len(known) < len(said) - unsigned:
        return () if len(set(known)) == 2 else None
    signs: dict[str, int] = {}
    for mention, sign, favourite in zip(mentions, said, favourites, strict=True):
        day = _weekday(mention.group(1))
        if favourite or sign is None:
            continue  # "Wednesday best, Saturday out?": the favourite is no plain sign
        if signs.setdefault(day, sign) != sign:
            return ()  # one day read back both ways
    return tuple(signs.items())


def _base(sign: int | None, negators: int, question: str) -> int | None:
    """The sign a question asks days with. A yes-or-no question with no predicate the reader
    knows asks whether the day works ("Can you do Mondays?", "Is anyone home on Fridays?");
    any other with neither a predicate nor a negator ("Only Mondays?", "Which day is worst?")
    asks with a sign that is not its own: None, not a guess."""
    if sign is None and not negators and not _YES_NO.match(question):
        return None
    return (sign or 1) * (-1) ** negators


# "in total", "across both", "roughly": how many, counted over the whole home.
_IN_ALL = (
    r"(?:in total|total|altogether|all together|overall|all told|in all|throughout|roughly|"
    r"approximately|at a guess|"
    r"across (?:both|the two|all of them|the lot|the house|the whole \w+)|between them)"
)
_PROMPT_WORD = re.compile(r"(?:any|which|what|who|how|when|where|days?|best|your)\b")
_SAID_BACK = re.compile(r"\b(?:then|ok|okay|noted|thanks|thank you|got it|lovely|great)\W*$")
_SAYS_A_NUMBER = re.compile(rf"\d|\b(?:{'|'.join(_SMALL)})\b")


def _is_terse_prompt(t: str) -> bool:
    """ "flat number", "days to avoid", "Make of boiler?": a prompt of a few words, the question
    left implicit."""
    words = t.rstrip("?!. ").split()
    return (
        # "Car park behind the library.": longer, it is the agent saying back a value.
        (0 < len(words) <= 3 or (len(words) <= 5 and _PROMPT_WORD.match(t) is not None))
        and "," not in t
        # "a cat okay", "Road parking then.", "two cats", "Thursday and Friday available.": the
        # agent saying back what it heard (days said back are read as read-backs are).
        and not _SAID_BACK.search(t)
        and not _SAYS_A_NUMBER.search(t)
        and not _DAY_RE.search(t)
    )


# "Shall I note Friday as available?": the agent asking to note the days, not whether they work.
_NOTE_ASKED = re.compile(
    r"\b(?:shall|should|can|could) (?:i|we) (?:note|put|mark|record|write|pop|add|jot|take)\b|"
    r"\b(?:want|like) (?:me|us) to (?:note|put|mark|record|write|pop|add|jot|take)\b"
)
# A question by its first words ("and how many thermostats are there", "which flat").
_SPOKEN_QUESTION = re.compile(
    r"^(?:(?:and|so|ok|okay|right|great|lovely|thanks|thank you|perfect|sorry)\s+)*"
    r"(?:what|which|how many|where|wheres|whats|whereabouts|who|whos|wholl|will|would|is|are|"
    r"do|does|can|could|have|has|"
    # "and any days for you to avoid": "any", asking.
    r"any (?:days?|others?|other days?|more)\b)\b|"
    # "and the meter", "what about the parking": the topic alone, asked.
    r"^(?:and|what about|how about) (?:the |your )?(?:gas |electric )?\w+$|"
    # "and the gas meter where is it", "the meter whereabouts": asked last.
    r"^.*\b(?:where (?:is|are) (?:it|they|that)|whereabouts|where)$"
)
_ON_FILE = re.compile(
    r"\b(?:still|down (?:with|for|as)|(?:have|got) you (?:down )?(?:with|as|for)|"
    r"on (?:file|record)|(?:have|got) (?:\w+ )+down for you|i have an? \w+ (?:number )?for you)\b"
)
_TIME_ASKED = re.compile(
    rf"\b{_PART_OF_DAY},? or (?:an? |the )?{_PART_OF_DAY}\b|"
    r"\btime of (?:the )?day\b|\b(?:what|which|any) (?:particular )?time\b|\bam or pm\b"
)
_TIME_OFFERED = re.compile(r"\b(?:would you like|do you want|shall i|should i|book)\b")
# "So your wife can't do Fridays?": the agent reading back somebody else's days.
_THEIRS_READ_BACK = re.compile(
    rf"(?:your|his|her|their) (?!(?:{_DAY}|days?|diary|rota|shifts?|work|job|hours)\b)\w+ "
    r"(?:can|can not|cannot|is|is not|are|are not|will|will not|does not|do not|works?)\b"
    # Not "your wife will be home tuesdays to let us in": who lets the engineer in.
    r"(?! (?:be )?(?:home|in|there|around|about)\b)"
)
# "so your son lets them in and mondays are out for him": days read back as theirs.
_DAYS_FOR_SOMEONE_ELSE = re.compile(
    rf"\b{_DAY} (?:are|is) (?:\w+ )?(?={_FOR_SOMEBODY_ELSE.pattern})"
)
# "so monday and tuesday, not wednesday": days read back with no word for how they are, set
# against days denied.
_DAYS_NOT_DAYS = re.compile(
    rf"(?:so |and )?((?:{_DAY}(?:,? (?:and )?)?)+),? (?:but )?"
    rf"not ((?:{_DAY}(?:,? (?:or |and )?)?)+)\W*"
)
# "..., not Thursdays?": days set against the ones read back, said last.
_NOT_DAYS_LAST = re.compile(
    rf"(?:,\s*|\s+)(?:and |but )?not (?:on )?(?:an? )?((?:{_DAY}(?:,? (?:or |and |nor )?)?)+)\W*$"
)
# A question asked of somebody else: "is your husband in", "does she work Mondays".
_ASKED_OF_SOMEONE = re.compile(
    r"^(?:(?:and|so|but|then|ok|okay|right)\s+)*(?:can|could|would|will|are|is|do|does|did|has|"
    r"have)\s+(?:(?:your|his|her|their)\s+\w+|he|she|they)\b"
)
# A question answered yes or no: an auxiliary, then its subject.
_YES_NO = re.compile(
    r"^(?:(?:and|so|but|then|ok|okay|right)\s+)*(?:can|could|would|will|are|is|do|does|did|have|"
    r"has|shall|should)\s+(?:you|anyone|anybody|someone|somebody|there|it|that|we|they|\w+days?)\b"
)


# "in" followed by a place that is not home ("I'm in Galway every Tuesday", "we're in
# Spain on Mondays"): the copula's "in" says where, not that the caller is at home.
_IN_SOMEWHERE_ELSE = re.compile(
    rf"\b(?:{_COPULA}|i|we)\s+(?:\w+\s+)?in\s+(?!(?:on|all|every|most|during|from|the (?:morning|"
    rf"afternoon|evening|day)|mornings?|afternoons?|evenings?|{_DAY}|and|so|but|till|until|"
    rf"then|too|as well|anyway|today|tomorrow|when|if|for|at|though|really|usually|normally|"
    rf"always|generally|mostly|again|now|these|then|that|all day|most days|home|the house)\b)"
    rf"[a-z]+"
)


def _predicate(text: str) -> tuple[int | None, int]:
    """The clause's predicate sign (None: it has none) and how many negators it carries."""
    sign: int | None = None
    rest = _FAVOURITE_DENIED.sub(" ", _HOUR_NEGATED.sub(" ", text))
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
        verb = next(name for name in ("verb", "after", "bare") if job.group(name))
        rest = rest[: job.start(verb)] + " " + rest[job.end(verb) :]
    if sign is None:
        for match in _POS.finditer(rest):
            word = match.group(0)
            # "I can't really do Mondays", "can not ever do": an adverb between is still the verb's.
            if word in _WEAK_POS and not re.search(
                rf"\b(?:{_COPULA}|i|we|can|could|to|will|would|at)\s+"
                rf"(?:(?:ever|really|usually|normally|always|just|possibly|actually|now)\s+)?"
                rf"{re.escape(word)}\b|"
                # "a big day in our house": a place after it, not the caller in.
                rf"\b(?:day|days) {re.escape(word)}\b(?! (?:our|the|my|a|this|their|his|her)\b)",
                rest,
            ):
                continue
            if word == "in" and _IN_SOMEWHERE_ELSE.search(rest):
                continue  # "I'm in Galway every Tuesday": somewhere else, not at home
            if word.startswith("work") and re.search(
                r"\b(?:with|from|for|after|before|into|my|our|his|her|their)\s+$",
                rest[: match.start()],
            ):
                continue  # "I'm down in Bristol with work": the job, not "Mondays work"
            if word in ("do", "make", "manage") and not re.search(
                rf"\b{word}\b(?:\s*$|\s+(?:on\s+)?(?:an?\s+|the\s+|any\s+|every\s+)?{_DAY}|"
                rf"\s+(?:it|that|those|them|either|both|then|too|as well|any|most|all)\b|"
                # "thursdays i can not do i am over in leeds": a new subject runs on after it.
                rf"\s+(?:i|we) (?:am|are|have|work)\b)",
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
