"""How the rule extractor reads a caller: sentences → clauses → typed statements.

The sentence is cut in `reading.sentences`, its words are `reading.lexicon`'s, what a turn or a
question says is `reading.turn_cues`', how a value is told current or old and written is
`reading.values`', whether a clause's sign for its days can be trusted is `reading.signs`'; this
module reads clauses into statements.

`memory.extract` turns what `CallReader` reads into `CallerFact`s. It models the language
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
- **A second reading must agree.** A day is kept as the caller's words, not typed, when a
  cruder reading of the whole sentence (`reading.signs.disagrees`) says it the other way
  round, when somebody else has become the sentence's subject and the caller has not spoken
  of themself since ("my neighbour can't do Mondays, so avoid Monday"), or when it is said on a
  condition ("unless ...") or "before" a happening with no tense.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field
from functools import cached_property, partial

from contextdb_livekit.reading.equipment import Equipment
from contextdb_livekit.reading.lexicon import (
    _A_BUILDINGS_FLOOR,
    _ADDING,
    _ADDRESS,
    _AFTERTHOUGHT_DOUBT,
    _BARE_ADDRESS,
    _BARE_COUNT,
    _BARE_DAYS,
    _BARE_FLAT,
    _BARE_ORDINAL,
    _BARE_PLACE,
    _COMPARED,
    _CONTACT,
    _CONTACT_CONTEXT,
    _DAY,
    _DAY_NEGATOR,
    _DAY_RE,
    _DENIED_CHANNEL,
    _ELLIPSIS,
    _ENDS_ON_HOUSE_NUMBER,
    _EXCEPTION,
    _EXCLUSIVE,
    _EXCLUSIVE_ATOMS,
    _FIRST_PERSON,
    _FLAT,
    _FLAT_NUMBER,
    _FLOOR,
    _FOR_SOMEBODY_ELSE,
    _GENERIC,
    _HEDGE,
    _HOUSE_NUMBER,
    _MOVED_DAYS,
    _NEG_ATOMS,
    _NEGATED_DAY,
    _NEGATED_POSITIVE,
    _NEGATOR,
    _NOT_ONLY,
    _NUMBER,
    _ONE_OFF_CONTACT,
    _ORDINAL_WORDS,
    _ORDINALS,
    _OTHER_SUBJECT,
    _OWN_SUBJECT,
    _PART_OF_DAY,
    _PAST,
    _PERSON,
    _PERSON_PRONOUN,
    _PHONE,
    _PHONE_PREFERRED,
    _PLACE_NOUN,
    _PREFER,
    _PRESENT,
    _PRONOUN_SUBJECT,
    _QUESTION_START,
    _REMNANT_WORDS,
    _REPORTED,
    _REQUEST,
    _SIMILE,
    _SOMEONE_ELSES,
    _SORTED_THEN,
    _SPECIFIC,
    _SWITCH,
    _THIS_CALL,
    _TIME_FAVOURED,
    _TIME_NAMED,
    _TIME_OF_DAY,
    _TURN_CORRECTION,
    _UNIVERSAL,
    _VALUE_WORD,
    _WHERE,
    _WHERE_WORDS,
    _WISH,
    ABOUT_THE_VISIT,
    DAY_KINDS,
    WEEKDAYS,
    _weekday,
    _weekdays_in,
    speaks_of_parking,
)
from contextdb_livekit.reading.sentences import (
    _ANSWER_THEN_WORDS,
    _FILLER,
    _PARTICLE,
    _SMALL,
    Clause,
    Statement,
    clauses,
    normal,
)
from contextdb_livekit.reading.signs import (
    _negated_before,
    _sign_in_doubt,
    disagrees,
)
from contextdb_livekit.reading.turn_cues import (
    Asked,
    _predicate,
    about_someone_else,
    kinds_mentioned,
    read_question,
)
from contextdb_livekit.reading.values import (
    _ANOTHER,
    _AVERSE_TO,
    _BARE_PHONE,
    _COMPARED_TO,
    _CORRECTED_STREET,
    _DENIED_CALL,
    _FAILS,
    _FLAT_IN_BUILDING,
    _GUESSED_COUNT,
    _GUESSED_COUNTS,
    _LISTED_BEFORE,
    _MOBILES,
    _NAMED_STREET,
    _NOT_A_STREET,
    _OWN_FLOOR,
    _SOMEONE_ELSES_CHANNEL,
    _STREET_NAME,
    _SUPPOSED,
    _TO_ME,
    _TO_SOMEONE_ELSE,
    _WANTS_FITTED,
    _all_current,
    _count_value,
    _floor_value,
    _floor_value_from,
    _free_text,
    _is_old,
    _last_current,
    _old_span,
    _other_number,
    _partial_count,
    _pet_before_doubt,
    _said_in,
    _title_address,
    floor_named,
    product_said,
    summed_parts,
)


@dataclass
class _Reading:
    days: list[str]
    base: int | None
    polarity: int | None = None  # what the clause said of its days, negators included
    asked: bool = False  # the agent's question, not the caller's own clause
    echo: bool = False  # "Tuesday?": the caller's next clause is about it
    excepted: bool = False  # "apart from Mondays, ...": what follows is said of the others
    past: bool = False  # "Tuesdays used to be busy": the polarity is the predicate's, flipped
    turned: bool = False  # the clause turned round what the call said of its days before


@dataclass
class CallReader:
    """Reads one call's caller sentences in order; what a clause refers back to is kept here."""

    words: Equipment  # the line's equipment words (`reading.equipment`)
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
    _working_before: set[str] = field(default_factory=set)  # ... before this sentence
    _agent_words: str = ""  # what the agent said last, normalised
    _agent_text: str = ""  # what the agent said last, as said
    _street_confirmed: bool = False  # the last address is one said back and agreed to
    _switch_here: bool = False  # this sentence says the routine changed
    _last_address: str = ""
    _sentence: str = ""  # the sentence being read, normalised
    _written: str = ""  # ... and as written
    _summed: dict[str, str] = field(default_factory=dict)  # its counts said in parts
    _product: dict[str, str] = field(default_factory=dict)  # its count said as a product
    _guessed: bool = False  # the clause's day polarity is a guess (see `Statement.sure`)
    _this_turn: list[Statement] = field(default_factory=list)
    _last_turn: list[Statement] = field(default_factory=list)  # the caller's last turn's facts
    _turn_opening: bool = False
    _correcting_turn: bool = False
    _equipment_talk: bool = False  # this sentence is about equipment
    _more_here: bool = False  # more clauses follow in this sentence
    _next_clause: str = ""  # the clause after this one in the sentence
    _no_then_correction: bool = False  # the clauses after this are "no", then "just DAY"
    _clause_before: str | None = None  # the clause before this one in the sentence
    _said_in_turn: list[Statement] = field(default_factory=list)  # the turn's last said
    _doubted: set[tuple[str, str | None]] = field(default_factory=set)  # guessed this turn
    _last_count: Statement | None = None  # the call's last count, sure when said
    _stated: dict[tuple[str, str | None], str] = field(default_factory=dict)  # sure, this call
    _unavailable_days: set[str] = field(default_factory=set)  # said not to work, this call
    _available_days: set[str] = field(default_factory=set)  # said to work, this call
    _asking: bool = False  # the caller's last sentence in this turn asked or doubted
    _hedged_last: bool = False  # the last clause read in this turn was hedged
    _answer_left: bool = False  # this turn went on from the agent's question to something else
    _others_named: set[str] = field(default_factory=set)  # "my daughter, Priya": not the caller

    @cached_property
    def _noun_first(self) -> re.Pattern[str]:
        """A list said noun first: "radiators 7 thermostats" (before any number said first)."""
        units = self.words.units
        return re.compile(rf"^(?:(?!{_NUMBER}\b)\w+\W+)*?(?:{units})\s+{_NUMBER}\s+(?:{units})\b")

    @cached_property
    def _type_put_right(self) -> re.Pattern[str]:
        named = "|".join(re.escape(t) for t in self.words.types.bare)
        return re.compile(
            rf"\b((?:{named})(?: boiler)?) (no|sorry|i mean) (?=(?:it is |its |an? )?(?:{named})\b)"
        )

    @cached_property
    def _just_the_one(self) -> re.Pattern[str]:
        return re.compile(
            rf"\b(?:the|a|an) {self.words.units}\b([^,.;]{{0,40}}?) (?:just|only) the (?:one|1)\b"
            # Not "the radiator just the one in the hall is cold": which one, not how many.
            r"(?! (?:in|on|at|that|which|of|for|with|i|we|you|he|she|they|is|was)\b)"
        )

    def agent_said(self, text: str) -> None:
        self._agent_words = normalised = normal(text)
        before, self.asked = self.asked, read_question(text, self.words)
        if (
            self.asked == Asked()
            and before.topic is not None
            and re.match(
                r"(?:and |so )?(?:whereabouts|where exactly|which bit|which side)\b", normalised
            )
        ):
            # "Is the meter inside or outside?" "Outside." "Whereabouts outside?": the same topic.
            self.asked = before
        elif (
            self.asked == Asked(counts=self.asked.counts)
            and "?" not in text
            and before.topic == "equipment_count"
            and before.unit is not None
            and re.search(rf"\b{re.escape(before.unit)}", normalised)
        ):
            # "How many radiators?" "Twelve, I think." "Twelve radiators.": the agent saying
            # the count back keeps the question open; the caller may count again (or say yes).
            self.asked = dataclasses.replace(before, counts=self.asked.counts)
        if (
            self.asked.base is None
            and before.base is not None
            and _VERB_OF_THE_QUESTION_BEFORE.search(normalised)
        ):
            # "Is it Mondays that suit you?" "No." "Which days do?": the verb of the question
            # before, said again.
            self.asked = dataclasses.replace(self.asked, base=before.base)
        elif (
            self.asked.base is None
            and self.asked.topic is None
            and not self.asked.signs
            and _DAYS_ASKED.search(normalised)
            # Not "So Saturday's the only day, and Friday would be no good?": a predicate of
            # its own the reader could not read one sign from.
            and _predicate(re.split(r"(?<=[.!])\s+", normalised)[-1]) == (None, 0)
        ):
            # "Only Mondays?", "Any others?": a question about days with no predicate of its
            # own asks with the sign of the caller's last answer; without one, a bare day said
            # back is not read as either.
            signs = {
                -1 if s.negative else 1
                for s in self._this_turn
                if s.kind == "availability" and s.sure
            }
            if len(signs) == 1:
                self.asked = dataclasses.replace(self.asked, base=signs.pop())

        self._agent_text = text

    def _values_said_back(self, text: str) -> list[Statement]:
        """The values of `READ_BACK_KINDS` the agent's words state ("So flat 14, 22 Fern
        Avenue, ground floor?"), for a yes that is the caller's whole answer."""
        reading = CallReader(self.words)
        return [
            s
            for sentence in re.split(r"(?<=[.?!])\s+", text)
            # Not "Is it a combi or a system?": a choice offered, not a value said back.
            if not re.search(r"\bor\b", sentence, re.IGNORECASE)
            for s in reading.read(_as_the_caller(_ASKED_BACK_LEAD.sub("", sentence)))
            if s.kind in READ_BACK_KINDS
            # "flat twenty fourth floor", said back without a comma: the 24th floor or flat 20
            # on the 4th? A floor past the nineteenth is taken for that misreading.
            and not (s.kind == "floor" and int(re.sub(r"\D", "", s.value) or 0) >= 20)
        ]

    def new_turn(self) -> None:
        if self._this_turn:
            self._last_turn = self._this_turn
        self._this_turn, self._turn_opening, self._correcting_turn = [], True, False
        self._said_in_turn, self._doubted, self._asking = [], set(), False
        self._hedged_last = self._answer_left = False
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
        normalised = normal(sentence)
        if now := _said_now(normalised):
            # "before i could never do fridays but since i retired fridays are fine": what was
            # so before is not what the call stores. Only when the whole sentence says nothing
            # sure: "fridays were always good before but these days im in the office fridays"
            # reads whole, what changed said in the first part. "... now i can" is read as
            # "i can do fridays now": the whole reads no further than the past.
            if _NOW_ELLIPSIS.search(normalised):
                return self._read(now, now)
            whole = copy.deepcopy(self, {id(self.words): self.words})._read(sentence, normalised)
            if not whole or any(not s.sure for s in whole):
                return self._read(now, normal(now))
        return self._read(sentence, normalised)

    def _read(self, sentence: str, normalised: str) -> list[Statement]:
        """`read`, given the sentence and its `normal` form (worked out once by `read`)."""
        # "My son will be home, he's fifteen - is that okay?": a statement with a question
        # tagged on for the agent is still the statement.
        text = _TAG_QUESTION.sub("", normalised)
        # "no mondays no fridays thats about it": the list of days out ends, the "it" is not a
        # day (not "tuesdays and that's it": only Tuesdays).
        text = _THAT_IS_ALL.sub(r"\1", text)
        # "we count the ground floor as zero": how floors are numbered, not the caller's floor.
        text = " ".join(_FLOORS_NUMBERED.sub(" ", text).split())
        if not text:
            return []
        if (self._asking or self._hedged_last) and text.startswith("or "):
            # "Possibly Thursday. Or Friday.": an alternative to a hedge or a question is as
            # unsure as what it is offered beside.
            return self._doubts(text)
        if _NOTHING_MORE.fullmatch(text):
            # "So Monday and Friday are out. Anything else?" "No, that's it.": nothing more to
            # add, no correction of what was said.
            return []
        # "i used to do tuesdays for you lot didnt i": a question tag makes it a question.
        question = (
            text.endswith("?")
            or bool(_QUESTION_START.match(text))
            or bool(_ASKED_BACK.search(text))
        )
        asking, self._asking = self._asking, False
        if asking and text.startswith("or "):
            # "It's possibly a Worcester? Or Vaillant.": the other answer to the caller's own
            # question is as much a guess.
            self._asking = True
            return self._doubts(text)
        if question and (asked_channel := _CHANNEL_ASKED_INSTEAD.match(text)):
            # "Could you email me instead?", "can you call rather than text": asked as a
            # question, said as the way to reach the caller from now on.
            # The verb's object is the caller, said or not ("can you call rather than text").
            ask = asked_channel.group("ask").rstrip(" ?")
            text, question = re.sub(r"^(\w+)\b(?! (?:me|us)\b)", r"\1 me", ask, count=1), False
        if question and (made := _MAKE_IT_CHANNEL.match(text)):
            # "Actually can you make that a text message?": the way to reach the caller, changed.
            text, question = f"{made.group('channel')} is best for me", False
        if question:
            # "Tuesday? No way": a day asked back is what the next clause is about.
            if re.fullmatch(rf"(?:a |on a |on )?{_DAY}\s*\?", text):
                asked = _DAY_RE.search(text)
                assert asked is not None  # the full match above contains a day
                day = _weekday(asked.group(1))
                self.antecedent = _Reading([day], None, echo=True)
            self._asking = True
            return []
        if (
            self._turn_opening
            and (put_right := _NO_DAY_NOT_DAY.match(text))
            and _weekdays_in(put_right.group("instead")) - set(self.asked.days)
            and _weekday(put_right.group("wrong")) in self.asked.days
        ):
            # "so mondays and tuesdays are no good" "no thursdays not tuesdays": the "no"
            # answers the read-back and Thursday takes Tuesday's place in it; it is no
            # "no Thursdays".
            text = "{no}, {instead}, not {wrong}{after}".format(**put_right.groupdict())
        if (
            self._turn_opening
            and (instead := _NO_DAY_SAID_TWICE.match(text))
            and self.asked.days
            and _weekday(instead.group(2)) not in self.asked.days
        ):
            # "Wednesday and Sunday?" "no saturday saturday": the "no" answers the read-back,
            # the day said twice is the one meant; it is no "no Saturdays".
            text = f"{instead.group(1)}, {instead.group(2)}{instead.group(3)}"
        if (
            (denied := _VALUE_THEN_NO.fullmatch(text))
            and denied.group(1) in self._agent_words
            and (kinds := kinds_mentioned(denied.group(1), self.words))
            and not kinds & DAY_KINDS
        ):
            # "So, flat 7, fourth floor?" "Flat 7, yes. Fourth floor, no. We're on the ninth.":
            # the value read back, denied; what comes next in the turn puts it right.
            self._correcting_turn = True
            self._mentioned(min(kinds))
            return []
        found_first: list[Statement] = []
        answer = _ANSWER_THEN_WORDS.match(text)
        if answer and self._turn_opening and self.asked.signs and answer.group(1)[0] == "y":
            # "Tuesday and Friday out, Thursday fine?" "yeah that's it": each day as read back.
            found_first = self._read_back_agreed(text)
        elif (
            answer
            and self._turn_opening
            # "no i said maybe mondays": the answer takes back a read-back, it says no sign.
            and not _HEDGE.search(text)
            # "no not usually i just happen to have this one off": one week, not the day.
            and not _ONE_OFF.search(text)
            and self.antecedent
            and self.antecedent.asked
            # "Is Wednesday your best day?" "yes wednesdays are best": the words after say it.
            and not self.asked.best
        ):
            # "yeah my wife is" to "Is someone home on Fridays?": the yes or no answers.
            base = self.antecedent.base or 1
            said_no = answer.group(1) in ("no", "nope", "nah")
            sign = -base if said_no else base
            # "no, Thursdays I'm at work" to "Tuesdays and Thursdays?": of the days asked, the
            # answer is about those it names.
            named = _weekdays_in(text) & set(self.antecedent.days)
            found_first = [
                _availability(d, sign)
                for d in self.antecedent.days
                # A "no" to a question asked in the negative ("So weekdays no good?" "no i'm
                # working so saturdays only"): no, not good, or no, fine? The words after say,
                # if they do ("no, they're fine", "No, Sunday's fine actually").
                if (not named or d in named)
                and not (said_no and base < 0 and not _SAID_OF_THEM.match(text))
            ]
        plain = " ".join(re.sub(r"[^\w\s']", " ", text).split())
        agreed = self._turn_opening and _AGREED.fullmatch(plain) is not None
        if agreed and self.asked.counts:
            # "So eight radiators and one towel rail?" "Yes, that's right.": each count as read
            # back. Only a sentence that is nothing but the yes, opening the turn: "Yes, one
            # boiler. Let me count the radiators again" agrees to part of it.
            found_first = [
                Statement(
                    "equipment_count", _count_value(number, unit), self.words.counted_thing(unit)
                )
                for number, unit in self.asked.counts
            ]
        if agreed:
            # "So 19 Lark Rise, a Worcester?" "Yes.": each value as said back. (Read from the
            # agent's words only when a yes needs them, not at every agent turn.)
            found_first = [*found_first, *self._values_said_back(self._agent_text)]
        elif _THE_REST_IS_RIGHT.search(text):
            # "It's flat 14, not 4. The rest is right.", "All right except it's flat 4": the
            # values said back of every kind the caller's turn does not put right.
            named = kinds_mentioned(text, self.words) | {s.kind for s in self._this_turn}
            found_first = [
                *found_first,
                *(s for s in self._values_said_back(self._agent_text) if s.kind not in named),
            ]
        # "... Fairfield Road?" "Yes." ... "it's Fairfield Avenue, not Road": a street confirmed
        # is the one a later correction renames.
        if confirmed := next((s.value for s in found_first if s.kind == "address"), None):
            self._last_address, self._street_confirmed = confirmed, True
        if self._turn_opening:
            # "Sorry, I got that wrong, it's Tuesdays": the whole turn corrects the last one.
            # "Hmm, I tell a lie, ...": the opening words, whatever the punctuation between them.
            self._correcting_turn = bool(_TURN_CORRECTION.match(plain))
            self._turn_opening = False
        elif _TURN_CORRECTION.match(plain):
            # "(the drive?) Yes, on the drive. Oh, sorry, I've just realised, Saturday's no
            # good": the caller goes back to something said before, not the question.
            self._answer_left = True
        # "combi no system its a system": a type put right, the commas dropped.
        text = self._type_put_right.sub(r"\1, \2, ", text)
        # "So Tuesday and Thursday out?" "tuesday yes thursday no": each answer agrees or not.
        parts = clauses(text, self.asked.base if not self._this_turn else None)
        # "It's a combi, I'm pretty sure, no, I'm certain": the hedge is taken back.
        if (
            any(_is_pure_hedge(c.text) for c in parts)
            and not _ASSURED.search(text)
            and not _said_again_sure(parts)
        ):
            self._asking = True
            return self._doubts(text)
        if _ASKS_ITSELF.search(text) or _AFTERTHOUGHT_DOUBT.search(text):
            # "we're on the fourth floor, or is it the fifth": the caller doubts it aloud.
            self._asking = True
            return self._doubts(text)
        found: list[Statement] = list(found_first)
        self._kinds_here = set()
        self._switch_here = bool(_SWITCH.search(text))
        self._working_before = set(self._working_days)
        self._sentence, self._written = text, sentence
        self._others_named |= {
            name
            for m in _NAMED_PERSON.finditer(sentence)
            if (name := (m.group(2) or m.group(3)).casefold()) not in _NOT_NAMES
        }
        # Counts said whole in the sentence, read once for all its clauses.
        self._summed = summed_parts(text, self.words)
        self._product = product_said(text, self.words)
        self._equipment_talk = bool(self.words.talk_words.search(text)) or any(
            m.group(1) not in self.words.ambiguous_makes for m in self.words.make.finditer(text)
        )
        someone_else = hedged = False
        in_doubt: set[str] = set()  # days a second reading of the sentence says otherwise
        theirs = False  # somebody else is the subject, and the caller has not spoken since
        # "I'm not always free Tuesdays", "Not generally, no, I just happen to be off next
        # week": some weeks yes, some no; no standing fact either way, in any clause.
        not_always = bool(_NOT_ALWAYS.search(self._sentence))
        said_before: list[Statement] = []  # what the clause before said
        for index, clause in enumerate(parts):
            self._more_here = index < len(parts) - 1
            self._next_clause = parts[index + 1].text if self._more_here else ""
            # "Sunday, and Saturday - no, just Sunday": a "no" that opens a correction
            # narrowing the days.
            self._no_then_correction = (
                index + 2 < len(parts)
                and re.fullmatch(r"(?:oh )?(?:no|nope|no no)", parts[index + 1].text) is not None
                and parts[index + 2].corrects
                and re.match(r"(?:just|only) ", parts[index + 2].text) is not None
            )
            self._clause_before = parts[index - 1].text if index else None
            # "Email might be easier, I'm not sure, or text": the alternative is hedged too.
            hedged = bool(_HEDGE.search(clause.text)) or (hedged and clause.text.startswith("or "))
            self._hedged_last = hedged
            if self._correcting_turn and self.antecedent is None and _DENIED.fullmatch(clause.text):
                # "Tuesday's good." ... "Sorry, no, it isn't.": a correcting turn's bare denial
                # is of the caller's last clause about days.
                self.antecedent = self._last_reading
            previous_kinds = {s.kind for s in self._previous}
            if (
                clause.text == "well"
                and index + 1 < len(parts)
                and (
                    previous_kinds & kinds_mentioned(parts[index + 1].text, self.words)
                    # "The best day is Monday - well, Tuesday really": a day after a favourite.
                    or (
                        "preferred_day" in previous_kinds
                        and _BARE_DAYS.fullmatch(parts[index + 1].text.removesuffix(" really"))
                    )
                    # "second floor, well, third really": a bare value of a one-value kind.
                    or (
                        previous_kinds & {"floor", "flat"}
                        and _VALUE_WORD.match(parts[index + 1].text)
                    )
                )
                and not _restates(parts[index + 1].text, self._previous)
            ):
                # "We're on the ground floor, well, the basement technically": a "well" before
                # another value of the kind just said puts it right ("... Monday to Monday,
                # well, Mondays anyway" says the same again).
                parts[index + 1].corrects = True
            said = [] if hedged else self._clause(clause)
            if hedged and (counted := list(self.words.count.finditer(clause.text))):
                # "ten radiators i think no i know it's ten": a count not stored is still the
                # thing a bare number after it counts.
                self.last_unit = counted[-1].group(2)
            if not_always or _SOME_WEEKS.search(clause.text) or _GETTING_BUSY.search(clause.text):
                # "I'm home on Wednesdays and sometimes Thursdays": some weeks yes, some no.
                # "Thursday's getting busy": busier than it was, not a day that is out.
                said = [s for s in said if s.kind not in DAY_KINDS]
            # "The flat above me, number 9, has had the same problem": a clause with no
            # subject of its own after one about somebody else is still theirs.
            if about_someone_else(clause.text) or self._named_other(clause.text):
                someone_else = True
            elif (
                _OWN_SUBJECT.match(clause.text)
                # "... you'll want to avoid Monday for her": a day said of them is still theirs.
                or (_DAY_RE.search(clause.text) and not _THEIRS.search(clause.text))
                or _TO_ME.match(clause.text)
            ):
                someone_else = False
            if hedged or _REPORTED.match(clause.text):
                # "It's a back boiler." ... "the fitter said it's a conventional one, I think":
                # a doubt or a tradesman's word against what the caller said puts it in doubt.
                said += self._doubts(clause.text, reported=bool(_REPORTED.match(clause.text)))
            if someone_else:
                said = [s for s in said if s.kind in ABOUT_THE_VISIT or not s.sure]
                # "My husband works Fridays, I don't": what follows may not borrow their days.
                self.antecedent = None
            elif _SOMEONE_ELSES.search(clause.text):
                # "we have a vaillant my sister has a baxi": somebody else's thing in the same
                # clause; whose value is whose is a guess.
                said = [
                    dataclasses.replace(s, sure=False)
                    if s.kind not in ABOUT_THE_VISIT and s.kind != "availability"
                    else s
                    for s in said
                ]
            if not someone_else and (other := _HE_OR_SHE_AS_SUBJECT.search(clause.text)):
                # "I'm ringing for my mum really she lives on the fifth floor": somebody else
                # becomes the subject in the middle of a run-on; what follows is theirs ("ring
                # the mobile when he's on his way": what came before is the caller's), up to
                # an "I" or "we" ("he can use the lift i live on the fourth floor").
                after = clause.text[other.end() :]
                back = _FIRST_PERSON_SUBJECT.search(after)
                mine = kinds_mentioned(clause.text[: other.start()], self.words)
                their_kinds: set[str] | None = None  # None: all that follows is theirs
                if back is not None:
                    mine |= kinds_mentioned(after[back.start() :], self.words)
                    their_kinds = kinds_mentioned(after[: back.start()], self.words)
                said = [
                    dataclasses.replace(s, sure=False)
                    if s.kind not in ABOUT_THE_VISIT
                    and s.kind not in mine
                    and (their_kinds is None or s.kind in their_kinds)
                    else s
                    for s in said
                ]
            if not someone_else and _unknown_owner(clause.text):
                # "My other half is busy Wednesdays", "our lad's off Fridays": a subject with
                # "my" or "our" the reader has no word for is likely somebody; whose days or
                # things these are is a guess, so the words are kept, not a fact.
                # Their days; how many of a thing only when a pronoun shows it is a person
                # ("our kid's got seven radiators in his place", not "my card is ... and we
                # have three boilers").
                person = bool(_PERSON_PRONOUN.search(clause.text))
                said = [
                    dataclasses.replace(s, sure=False)
                    if s.kind in DAY_KINDS or (person and s.kind == "equipment_count")
                    else s
                    for s in said
                ]
            in_doubt |= {
                _day_of(s)
                for s in said
                if s.kind in DAY_KINDS
                and s.sure
                and disagrees(parts, index, -1 if s.negative else 1)
            }
            if _hearsay(clause.text):
                # "Karen next door says Fridays are murder for parking", "'Sundays are sacred',
                # my dad used to say": somebody else's words, whoever's days they are.
                in_doubt |= {_day_of(s) for s in said or said_before if s.kind in DAY_KINDS}
            said_before = said
            if (
                about_someone_else(clause.text)
                or _SOMEBODY_SUBJECT.match(clause.text)
                # "Fridays are no good for her", "for him, yes": days said of somebody else.
                or _FOR_SOMEBODY_ELSE.search(clause.text)
                # "it's just him that's out": the cleft names who the rest is said of.
                or _THEM_IT_IS.match(clause.text)
            ):
                theirs = True
            elif _CALLER_AGAIN.search(clause.text):
                theirs = False
            if theirs:
                # "my neighbour can't do mondays, so avoid monday", "the letting agent said the
                # tenant can only do thursdays": once somebody else is the subject, the days
                # that follow are theirs until the caller speaks of themself again ("but i
                # can", "fine for me"); whose they are is a guess, so none is typed.
                in_doubt |= {_day_of(s) for s in said if s.kind in DAY_KINDS}
            # "Friday's fine." ... "Monday's fine as well. Oh hold on, I can't do Friday after
            # all": a correction of what the call said before, not of the clause before it.
            of_earlier = (
                bool(said)
                and (
                    index == 0
                    or "after all" in clause.text
                    or all(_FILLER.fullmatch(c.text) for c in parts[:index])
                )
                and all(self._stated.get((s.kind, s.key)) not in (None, s.value) for s in said)
            )
            if (
                said
                and clause.corrects
                and not of_earlier
                and not re.search(r"\b(?:too|also|as well)\b", clause.text)
            ):
                # A correction takes back what the clause before said of the same kind.
                kinds = {s.kind for s in said}
                if kinds & DAY_KINDS:
                    kinds |= DAY_KINDS  # "Mondays only. No, both fine"
                slots = {(s.kind, s.key) for s in said}
                for earlier in self._previous:
                    if earlier.kind in kinds and (earlier.kind, earlier.key) not in slots:
                        slot = (earlier.kind, earlier.key)
                        found = [s for s in found if (s.kind, s.key) != slot]
                        self.retracted.append(slot)
            # "Second floor. Sorry, I tell a lie, we're on the third": a sentence that opens
            # correcting corrects what the turn said last.
            earlier_said = self._previous or (self._said_in_turn if index == 0 else [])
            if clause.corrects and not earlier_said:
                # "Tuesday suits, although thinking about it, no, Tuesday's my pilates": a
                # correction naming a day the sentence said before is of that day.
                named = _weekdays_in(clause.text)
                earlier_said = [s for s in found if s.kind in DAY_KINDS and _day_of(s) in named]
            if clause.corrects and not said and earlier_said and not _ADDING.search(clause.text):
                # "flat twelve, sorry, twenty one": a correction whose new value was not read
                # still takes back the value it corrects (a wrong fact is worse than none).
                # The new value comes first ("twenty one", "we are on the third"); a trailing
                # "sorry, I always forget..." explains, it does not correct.
                rest = " ".join(" ".join(c.text for c in parts[index:]).split()[:6])
                talked = kinds_mentioned(rest, self.words)
                if _ELLIPSIS.match(clause.text) or _THAT_WAS_THEN.search(rest):
                    # "Fridays, well actually I can"; "I'm out Thursday, wait, that was last
                    # week": the days said before.
                    talked |= DAY_KINDS
                values = {m.group(0) for m in _VALUE_WORD.finditer(rest)}
                bare = not talked and bool(values)
                after = parts[index + 1].text if index + 1 < len(parts) else ""
                if not talked and not values and _names_a_value(after, self.words):
                    # "Monday's out, no hang on, what am I saying, it's Friday that's out": a
                    # correction that names nothing yet is made by the clause after it.
                    parts[index + 1].corrects = True
                    continue
                for earlier in earlier_said:
                    held = set(earlier.value.casefold().split())
                    if values & held and (earlier.kind != "address" or held <= set(rest.split())):
                        # "about a dozen ... actually exactly twelve": the same value, now sure
                        # (not "47 oak lane no sorry oak avenue 47": the number is the same).
                        if (earlier.kind, earlier.key) in self._doubted:
                            self._doubted.discard((earlier.kind, earlier.key))
                            found.append(dataclasses.replace(earlier, sure=True))
                        continue
                    if earlier.kind in talked or bare:
                        slot = (earlier.kind, earlier.key)
                        found = [s for s in found if (s.kind, s.key) != slot]
                        self.retracted.append(slot)
            if said:
                self._previous = self._said_in_turn = said
                found.extend(said)
                restated = {(s.kind, s.key) for s in said if s.sure}
                self.retracted = [slot for slot in self.retracted if slot not in restated]
            elif not _FILLER.fullmatch(clause.text):
                # A correction takes back only the clause right before it.
                self._previous = []
        changes_earlier = any(
            self._stated.get((s.kind, s.key)) not in (None, s.value) for s in found if s.sure
        )
        if changes_earlier:
            # "Oh, actually, Wednesday I can do now": what the turn puts right is what the call
            # said of Wednesday earlier, not what the last turn said of Saturday.
            self._correcting_turn = False
        if self._correcting_turn and not re.search(r"\b(?:too|also|as well)\b", text):
            # What the caller's last turn said of the same kind, in another slot, is taken back;
            # not a slot this turn has already said again ("Fridays are fine after all. It's
            # Saturdays I'm working").
            slots = {(s.kind, s.key) for s in [*found, *self._this_turn] if s.sure}
            for earlier in self._last_turn:
                slot = (earlier.kind, earlier.key)
                if earlier.kind in {s.kind for s in found} and slot not in slots:
                    self.retracted.append(slot)
        before_what = bool(_BEFORE_SOMETHING.search(text)) and not _TENSE_SAID.search(text)
        if before_what or _UNLESS.search(text):
            # "we could always do thursdays before the grandchildren moved in": "before" a
            # happening may be a time of day or a time that is over; which is a guess ("fridays
            # were good before i changed shifts" says which by its tense). "I'm in Tuesdays
            # unless I'm at my daughter's": said on a condition the reader does not weigh.
            in_doubt |= {_day_of(s) for s in found if s.kind in DAY_KINDS}
        if in_doubt:
            # The second reading disagrees (`reading.signs`) or the days may be somebody
            # else's: what the sentence said of these days is kept as the caller's words.
            found = self._in_doubt(
                found, [s for s in found if s.kind in DAY_KINDS and _day_of(s) in in_doubt]
            )
        if found:
            # "flat 9 no 19", "second floor no third": a correction whose new value the reader
            # did not take leaves the value it corrects in doubt (a wrong fact is worse than none).
            # "9 Not Close": a value with a negator or a correction inside is a misreading.
            found = [
                dataclasses.replace(s, sure=False)
                if s.kind in _ONE_VALUE and _NOT_A_VALUE.search(s.value.casefold())
                else s
                for s in found
            ]
            # Of several things counted, which count the correction is about is not known.
            corrected = [_value_token(m.group("v")) for m in _CORRECTED_VALUE.finditer(text)]
            one_count = sum(s.kind == "equipment_count" for s in found) == 1
            found = [
                dataclasses.replace(s, sure=False)
                if s.sure
                and s.kind in _ONE_VALUE
                and (s.kind != "equipment_count" or one_count)
                and any(v not in _value_token(s.value).split() for v in corrected)
                else s
                for s in found
            ]
            # "ring the landline um no the mobile", "it's a back boiler no no sorry that's the
            # old house this one's a system": a value, a correction, then another value of its
            # kind; the first is put right, whatever the reader made of the rest.
            put_right_here = [s for s in found if _put_right(text, s, self.words)]
            # "email me, sorry, text me please, email me": put right, then said again alone;
            # every value of that kind is then a guess.
            put_back = {s.kind for s in put_right_here if _said_again_alone(text, s, self.words)}
            found = [
                dataclasses.replace(s, sure=False)
                if s.sure and (s.kind in put_back or s in put_right_here)
                else s
                for s in found
            ]
            # Precision first: "about a dozen radiators", "if it's the flat on the fourth
            # floor", "I'd like a Worcester fitted": a guess, a supposition or a wish keeps the
            # caller's words, and puts what the call said of the same slots in doubt too.
            guessed = {self.words.counted_thing(m.group(2)) for m in _GUESSED_COUNT.finditer(text)}
            # "radiators seven thermostats one": said noun first, which number goes with which
            # thing is a guess.
            all_counts = bool(_GUESSED_COUNTS.search(text) or self._noun_first.match(text))
            supposed, wish = bool(_SUPPOSED.search(text)), bool(_WANTS_FITTED.search(text))
            # "we used to have ten radiators but we took two out": what was is not what is.
            past = [c.text for c in parts if _PAST.search(c.text) and not _PRESENT.search(c.text)]
            doubted = [
                s
                for s in found
                if supposed
                or (wish and s.kind in self.words.installed)
                or (
                    s.kind == "equipment_count"
                    and (
                        all_counts
                        or s.key in guessed
                        or _said_in(past, s.value.split()[0])
                        or _other_number(text, s.value)
                    )
                )
            ]
            found = [dataclasses.replace(s, sure=False) if s in doubted else s for s in found]
            # "we used to have three boilers, we have two now": the sure value stands.
            sure = {(s.kind, s.key) for s in found if s.sure}
            doubted_slots = {(s.kind, s.key) for s in doubted} - sure
            self.retracted += sorted(doubted_slots, key=str)
            self._doubted |= doubted_slots
        unnamed = [
            s
            for s in found
            if s.kind == "equipment_count"
            and s.key == self.words.counted_thing("")
            and not re.search(r"\bunits?\b", text)
        ]
        if unnamed:
            # "we used to have three cats, we're down to one now": a count of nothing the line
            # counts is not a count of anything.
            found = [s for s in found if s not in unnamed]
        if self.words.rooms_as_places.search(text) or (
            _TALLIED.search(text)
            and any(s.kind == "equipment_count" and s.key not in self.words.rooms for s in found)
        ):
            # "Lounge, one. Two bedrooms, one each. Bathroom, one. So five radiators", "one in
            # each of the three bedrooms": the rooms are where the things counted are, not a
            # count of rooms.
            found = [
                s for s in found if s.kind != "equipment_count" or s.key not in self.words.rooms
            ]
        if _TWO_NUMBERS_FOR_A_FLAT.search(text):
            # "flat eleven twelve": 11, 12 or 1112? A guess.
            found = self._in_doubt(found, [s for s in found if s.kind == "flat"])
        # "In my space, number 14 in the underground car park": a parking space, no address.
        spaces = {m.group(1) for m in _SPACE_NUMBER.finditer(text)}
        found = [s for s in found if s.kind != "address" or s.value.split()[0] not in spaces]
        # "three bathrooms' worth of towel rails": a measure of something else, not a count.
        measures = {self.words.counted_thing(m.group("thing")) for m in _WORTH_OF.finditer(text)}
        found = [s for s in found if s.kind != "equipment_count" or s.key not in measures]
        if _OUT_OF.search(text):
            # "only the one radiator working out of six": how many of them is a guess.
            found = self._in_doubt(
                found, [s for s in found if s.kind == "equipment_count" and s.sure]
            )
        if _EACH.search(text):
            # "two bathrooms, each with a towel rail": one of a thing in each of several is
            # not one in all; "one in each of the three bedrooms, eight altogether": a total
            # said beside rooms is the total of what is in them, not of the rooms.
            total = bool(_TOTAL.search(text))
            shared = [
                s
                for s in found
                if s.kind == "equipment_count"
                and s.sure
                and (s.value.split()[0] == "1" or (total and s.key in self.words.rooms))
            ]
            found = self._in_doubt(found, shared)
        last = self._last_count
        if (
            last is not None
            and not any(s.kind == "equipment_count" for s in found)
            and _other_number(text, last.value)
        ):
            # "Eight radiators." ... "Ah, my wife says nine": the count is in doubt.
            self.retracted.append((last.kind, last.key))
            self._last_count = None
        counts = [s for s in found if s.kind == "equipment_count" and s.sure]
        if counts:
            self._last_count = counts[-1]
        hedged_parts = [c.text for c in parts if _HEDGE.search(c.text)]
        kept = [c.text for c in parts if c.text not in hedged_parts]
        # Parking and pets of somebody else are not the caller's; who lets the engineer in is.
        found.extend(
            _free_text(
                sentence,
                kept,
                self.asked.topic,
                self.words,
                pets_doubted=[c.text for c in parts if _pet_before_doubt(c.text)],
            )
        )
        if hedged_parts and not _ASSURED.search(text):
            # "It's a Baxi, I think it's a Baxi": the value said again with a doubt.
            found = [
                dataclasses.replace(s, sure=False)
                if s.sure
                and s.kind not in DAY_KINDS
                and any(
                    re.search(rf"\bit is (?:an? )?{re.escape(s.value.casefold())}\b", part)
                    for part in hedged_parts
                )
                else s
                for s in found
            ]
        self._this_turn.extend(found)
        self._stated.update({(s.kind, s.key): s.value for s in found if s.sure})
        for s in found:
            if s.kind == "availability" and s.key and not s.sure:
                # A day the sentence left in doubt is no day said to work or not, nor one a
                # later clause refers back to.
                self._unavailable_days.discard(s.key)
                self._available_days.discard(s.key)
                if self._last_reading is not None and s.key in self._last_reading.days:
                    self._last_reading = None
        return found

    def _doubts(self, text: str, reported: bool = False) -> list[Statement]:
        """What a hedged or reported clause says against the caller's installed equipment:
        another boiler type, make or count for a slot the call has a value for."""
        if _SOMEONE_ELSES.search(text) or (
            _OTHER_SUBJECT.match(text) and not _REPORTED.match(text)
        ):
            return []  # "I think my sister has a Baxi": hers, not a doubt about the caller's
        # A tradesman's "it was a regular one" is a doubt too; the caller's own "it used to be
        # a back boiler, a combi now I think" is not.
        types = self.words.type_mention
        mentions = types.finditer if reported else partial(_all_current, types)
        other: list[Statement] = []
        for kind in mentions(text):
            other.append(Statement(self.words.types.kind, self.words.type_value(kind)))
        makes = self.words.make
        for make in makes.finditer(text) if reported else _all_current(makes, text):
            if make.group(1) in self.words.ambiguous_makes:
                continue
            brand = self.words.make_names.get(make.group(1), make.group(1).capitalize())
            other.append(Statement("equipment_make", brand))
        for count in (
            self.words.count.finditer(text) if reported else _all_current(self.words.count, text)
        ):
            value = _count_value(count.group(1), count.group(2))
            other.append(
                Statement("equipment_count", value, self.words.counted_thing(count.group(2)))
            )
        doubted = []
        for s in other:
            said = self._stated.get((s.kind, s.key))
            if said is not None and said.split()[0] != s.value.split()[0]:
                self.retracted.append((s.kind, s.key))
                self._doubted.add((s.kind, s.key))
                doubted.append(dataclasses.replace(s, sure=False))
        return doubted

    # -- one clause ----------------------------------------------------------------------

    def _clause(self, clause: Clause) -> list[Statement]:
        out = self._clause_statements(clause)
        # The days the call has said work or not so far, a yes or no that is the whole answer
        # included ("So Tuesdays are out?" "Yes."): a change of routine later replaces only days
        # said to work. Not "No, just Tuesdays": the words after say which days the "no" meant.
        answered_more = self._more_here and bool(_PARTICLE.match(clause.text))
        if not (answered_more or about_someone_else(clause.text) or _unknown_owner(clause.text)):
            for s in out:
                if s.kind == "availability" and s.key and s.sure:
                    self._unavailable_days.discard(s.key)
                    self._available_days.discard(s.key)
                    (self._unavailable_days if s.negative else self._available_days).add(s.key)
        return out

    def _read_back_agreed(self, sentence: str) -> list[Statement]:
        """Each day of a read-back ("Mondays and Thursdays out, Tuesdays fine?") a yes agrees
        to: those the caller's sentence names, if it names any ("Mondays and Thursdays out,
        yes. I never said Tuesdays"), else all of them."""
        named = _weekdays_in(sentence) & {day for day, _ in self.asked.signs}
        return [_availability(d, sign) for d, sign in self.asked.signs if not named or d in named]

    def _clause_statements(self, clause: Clause) -> list[Statement]:
        text = clause.text
        if clause.corrects:
            # "second floor, well, third really": the value put right, said as it really is.
            text = re.sub(r" (?:really|technically|strictly speaking|properly)$", "", text)
        particle = _PARTICLE.match(text)
        if (
            particle
            and self.asked.proposed is not None
            and self.asked.topic == self.words.types.kind
        ):
            # "Is it a combi boiler?" "Yes, it is.": the agent's word, confirmed by the caller.
            return (
                [] if particle.group(1) else [Statement(self.words.types.kind, self.asked.proposed)]
            )
        if particle and self.asked.signs and not self._this_turn:
            # "So Mondays out and Fridays fine?" "Yes": each day as read back; a "no" says
            # which is wrong no more than it says which is right.
            if particle.group(1):
                return []
            return self._read_back_agreed(self._sentence)
        if particle:
            antecedent = self.antecedent
            if antecedent is not None and antecedent.asked and self.asked.best:
                # "Is Friday your preferred day?" "Yes": the favourite, not whether it works;
                # a "no" says nothing of either.
                if particle.group(1) or len(antecedent.days) != 1:
                    return []
                return [Statement("preferred_day", antecedent.days[0])]
            if particle.group(1) and _ONLY_THEIRS.match(self._next_clause):
                # "My wife can't do Fridays." "So Fridays out?" "No, that's just her.": the
                # read-back was of her days; the caller's own are not said.
                return []
            if (
                antecedent is not None
                and antecedent.asked
                and not particle.group(1)
                and _REQUEST.search(self._sentence)
            ):
                # "Would Thursday work?" "Yes, Thursday's fine for the booking.": a yes to the
                # visit, not a word on the day in general.
                return []
            if antecedent is not None and antecedent.asked and _HEDGE.search(self._sentence):
                # "Can you do Fridays?" "yeah fridays i reckon": a yes the caller is not sure of.
                return self._doubts(self._sentence)
            if antecedent is not None and antecedent.base is not None and antecedent.asked:
                # An answer to the agent's yes/no question about days. Not a "no" to a question
                # asked in the negative ("So Tuesdays are no good?" "No."): no, they are not
                # good, or no, they are fine? The words after it say, or nothing does.
                named = _weekdays_in(self._next_clause) & set(antecedent.days)
                if particle.group(1) and antecedent.base < 0 and not named:
                    return []
                sign = antecedent.base * (-1 if particle.group(1) else 1)
                return [_availability(d, sign) for d in antecedent.days]
            return []
        if (
            (contrast := _NOT_THE_OLD_DAY.fullmatch(text))
            and self._previous
            and self._clause_before is not None
            and _CONTRASTED_WITH.search(self._clause_before)
            and all(s.kind == "availability" and s.negative for s in self._previous)
            and _weekday(contrast.group(1)) not in {s.key for s in self._previous}
        ):
            # "It's Wednesday and Tuesday I can't do, not Thursday": set against the days said
            # not to work, Thursday may be the one that does, or one more that does not.
            return []
        if (
            (contrast := _NOT_THE_OLD_DAY.fullmatch(text))
            and (cleft := re.match(rf"it is ({_DAY})\b", self._next_clause))
            and _weekday(cleft.group(1)) != _weekday(contrast.group(1))
            and (said := _predicate(self._next_clause))[0] is not None
            and said[0] * (-1) ** said[1] < 0
        ):
            # "not Friday, it's Saturday I can't do": the day put right, named before the one
            # that does not work; whether it works is not said.
            return []
        if (
            re.fullmatch(r"(?:well |or |i mean )?(?:was|were|used to be)", text)
            and self._last_reading is not None
        ):
            # "Tuesday's my day off, well, was": what the clause before said is no longer so,
            # and what is so now is not said here.
            self.retracted += [("availability", day) for day in self._last_reading.days]
            self._last_reading = self.antecedent = None
            return []
        if _IN_FOR.search(text) and not re.search(r"\b(?:not|no|never|cannot)\b", text):
            # "Friday my car's in for its MOT": in the garage, not the caller at home (not
            # "i cant thursday the car's in for its mot": the caller says so first).
            return []
        if (struck := _STRUCK_OFF.match(text)) and (
            days := _weekdays_in(struck.group(0))
        ) <= self._unavailable_days:
            # "Thursdays and Fridays. Scrap Friday": struck off the days said out, Friday is in
            # doubt (struck off days said to work, or none yet, it is out).
            self.retracted += [("availability", day) for day in sorted(days)]
            return []
        self._guessed = False
        out = self._days(text, clause.corrects)
        if self._guessed or _DAY_IS_OFF.fullmatch(text) or _DAY_THEN_OFF.search(text):
            # "Saturdays are off", "saturday off yeah": the caller's day off, or the day ruled
            # out; a guess. Not sure: the words are kept instead.
            out = self._in_doubt(out, out)
        # "Hang on, I've counted again, it's eight": a bare value in a turn that corrects the
        # last one corrects the caller's last value of its kind.
        out += self._values(text, clause.corrects or self._correcting_turn)
        return out

    def _days(self, text: str, corrects: bool) -> list[Statement]:
        text = _NOT_ONLY.sub("also", text)
        text = _DAYS_BEFORE_OR_AFTER.sub(" ", text)
        text = _NOTHING_BUT_DAY.sub("only ", text)
        # "I said Wednesdays were bad": what the caller said, told again; its tense is the
        # telling's, not a time that is over.
        text = _SAID_WERE.sub(r"\1 are", text)
        # "I can do Tuesdays - my hours changed": what changed is the caller's reason, not a
        # negation of the day.
        text = _THEIR_THING_CHANGED.sub(" ", text)
        # "saturdays are good for me not for him": the "not" is said of somebody else.
        text = _NOT_FOR_THEM.sub(" ", text)
        # "Wednesday I've swapped my shift": the shift is gone, not worked.
        text = _SHIFT_GONE.sub(" ", text)
        text = _SIMILE.sub(" ", text)  # "around like a bad smell": the simile is not the sign
        # "i'll ring back monday": the day the caller will call, not one for a visit.
        text = _CALLING_BACK.sub(" ", text)
        # "all days ok except the friday friday no": the excepted day said again, agreeing.
        text = _EXCEPTED_AGAIN.sub(r"\1", text)
        if _NOT_ABOUT_THE_CALLER.search(text):
            return []  # "the weather on Thursday's meant to be dreadful": the day's, not theirs
        if self._about_the_parking(text):
            return []
        if _ONE_OFF.search(text) and not _DAY_RE.search(text):
            return []  # "it's just this once I'm off": a one-off, no word on the days said
        if (
            _RELATIVE_PAST.match(text)
            and self.antecedent is not None
            and self.antecedent.echo
            and not _DAY_RE.search(text)
        ):
            # "Mondays, which were always out, are now in": what the days were, said in passing;
            # the clause after it says what they are.
            return []
        if (
            (taken_out := _NOT_THE_OLD_DAY.fullmatch(text))
            and self._last_reading is not None
            and not self._last_reading.asked
            and len(self._last_reading.days) > 1
            and _weekday(taken_out.group(1)) in self._last_reading.days
            and (_said_of(self._last_reading) or 0) < 0
            and self._clause_before in _TAKING_BACK
        ):
            # "Mondays and Fridays, well, not Fridays, just Mondays": one day taken out of the
            # list of days that don't work; what the list said of it no longer holds, and
            # nothing else is said of it. (Against days that work, "sorry, not Friday" turns
            # Friday round.)
            day = _weekday(taken_out.group(1))
            self.retracted.append(("availability", day))
            self._last_reading = dataclasses.replace(
                self._last_reading, days=[d for d in self._last_reading.days if d != day]
            )
            self.antecedent = self._last_reading
            return []
        if (
            (not_best := _NOT_THE_OLD_DAY.fullmatch(text))
            and self._previous
            and all(s.kind == "preferred_day" for s in self._previous)
            and _weekday(not_best.group(1)) not in {s.value for s in self._previous}
        ):
            # "Thursday is my best day, not Tuesday": Tuesday is not the favourite; whether it
            # works at all is not said.
            return []
        if (
            (old_day := _NOT_THE_OLD_DAY.fullmatch(text))
            and self.antecedent is not None
            and _weekday(old_day.group(1)) not in self.antecedent.days
            # The new day said "now" before it (not "thursday no, monday yeah, but actually
            # monday is now ...": a "now" after the old day is about something else).
            and _NOW_INSTEAD.search(self._sentence[: self._sentence.rfind(old_day.group(1))])
        ):
            # "It's Thursdays I'm off now, not Tuesdays", "(days that don't suit:) it's Fridays
            # only now, not Thursdays": the day the new one replaces is the other way round.
            day = _weekday(old_day.group(1))
            said = _said_of(self.antecedent)
            if said is None:
                self.retracted.append(("availability", day))
                return []
            self.antecedent = self._last_reading = _Reading([day], None, -said)
            return [_availability(day, -said)]
        if _WHAT_ENDED.match(text):
            # "saturdays i'm free now since i stopped doing the market saturdays": the reason
            # names what the day was taken by, over; the clause before says how the day is.
            return []
        said_before = _said_of(self._last_reading)
        denied = self._denied()  # before this clause becomes the antecedent
        # "Any days you can't do?" "Just Friday.": the one day that does not work.
        asked_out = (
            self.antecedent is not None
            and self.antecedent.asked
            and not self.antecedent.days
            and (self.antecedent.base or 0) < 0
        )
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
            if not m.group(0).startswith("but")
            or (_UNIVERSAL.search(text[: m.start()]) and not _BUT_BEST.match(text, m.start()))
        ]
        if _is_exclusive(text):
            # "only saturdays im afraid i work all week": the week worked is the other days.
            text = _BUSY_ALL_WEEK.sub(" ", text)
        base, negators = _predicate(text)
        if base is not None and base < 0 and negators == 1 and _NEGATED_POSITIVE.search(text):
            # "i can't do thursdays, i'm working them": the negator belongs to "do", and the
            # two say the same thing; it does not flip "working".
            negators = 0
        # "not Mondays, not Fridays": each negator governs its own day, one negation in all.
        # A day negated by an atom of its own ("no mondays") is not counted again here: never
        # fewer than no negators at all.
        negators = max(0, negators - max(0, len(_DAY_NEGATOR.findall(text)) - 1))
        if negators > 1:
            # "i won't be around wednesday no", "not free fridays, not at all", "tuesday no
            # can't do tuesday": a "no" or "not at all" that agrees with the negation beside
            # it, not a second one.
            negators = max(1, negators - len(_AGREEING_NO.findall(text)))
        if (negators > 1 or (negators and base is not None and base < 0)) and not re.search(
            r"\bneither\b.*\bnor\b", text
        ):
            # "I can't do Tuesday nor Friday", "no good and saturdays neither": "nor" and a
            # "neither" after a day go on the list under the negation before them ("can't do
            # neither Monday nor Tuesday" is negative concord, a guess either way).
            kept = 1 if negators > 1 else 0
            negators = max(kept, negators - len(_LIST_NEGATOR.findall(text)))
        # "so mondays are okay for you?" "they were, but...": said of then, not now.
        past = bool(_PAST.search(text) or _PAST_REMNANT.fullmatch(text)) or _plural_past(text)
        if past and negators and _NOT_NOW.search(text):
            # "we used to do saturdays not now": the "not now" agrees with the past.
            negators -= 1
        if _day_was(text):
            if not _STANDING_PAST.search(text):
                # "Monday was fine": maybe one Monday gone by, maybe every one; either way not
                # a standing fact about Mondays now.
                self.antecedent = self._last_reading = _Reading(days, None, past=True)
                return []
            past = True  # "Wednesday was my day off": it no longer is
        exclusive = _is_exclusive(text) and not _only_counts(text)
        if (
            not past
            and self._last_reading is not None
            and self._last_reading.past
            and _PRESENT.search(text)
            and re.search(r"\b(?:as well|too|also)\b", text)
        ):
            # "Sunday used to be my only day off. Now I'm off Saturdays as well.": what was
            # said of the day before still holds as well; not that it is over.
            self.retracted += [("availability", day) for day in self._last_reading.days]
        topic = self.antecedent is not None and self.antecedent.echo
        if not days and self.antecedent is not None and _NOT_THOSE.match(text):
            # "I'm busy Tuesdays and Fridays, so not those": the days before, whatever the
            # clause before said of them, are the ones that do not work.
            days = list(self.antecedent.days)
            self.antecedent = self._last_reading = _Reading(days, -1, -1)
            return [_availability(d, -1) for d in days]
        after_turnround = False
        referring = not days and (
            # "Still no good on Thursdays?" "Still no good, no.": the day asked about.
            (self.antecedent is not None and self.antecedent.asked and _echoes_the_question(text))
            or bool(_PRONOUN_SUBJECT.match(text))
            or _is_remnant(text)
            or bool(_EXCLUSIVE_ATOMS.search(text))
            or (topic and (base is not None or negators > 0))
        )
        if (
            referring
            and base is None
            and negators == 0
            and _PRESENT.fullmatch(text.removeprefix("but ").removeprefix("and "))
        ):
            # "i used to be off on wednesdays but from now on it's thursdays i'm off": a bare
            # "from now on" goes with what follows it, not back to the days before.
            return []
        if referring and _THE_OTHER_DAYS.search(text):
            # "Nothing but Saturdays - I'm on shift the rest of the week": said of the other
            # days, not of the day before.
            return []
        if referring and self.antecedent is not None and self.antecedent.asked and self.asked.best:
            # "Is Wednesday still your best day?" "No, not any more.": no longer the favourite
            # says nothing of whether Wednesday works.
            return []
        if referring and re.match(r"(?:that|it|which) was\b", text):
            # "I got your text on Monday, that was handy": said of something that happened on
            # a day, which said nothing of the day itself.
            return []
        if (
            referring
            and self._last_reading is not None
            and self._last_reading.past
            # Said of them in this turn already (not "I used to work Thursdays. Not any more":
            # the past alone read as nothing; the "not any more" says what is now).
            and any(
                s.kind == "availability" and s.key in self._last_reading.days
                for s in self._this_turn
            )
            and _JUST_NOT_NOW.fullmatch(text)
        ):
            # "Fridays used to be my day off. Not now.": the "not now" agrees with the past
            # said before it; it does not turn the days round again.
            return []
        if referring and self.antecedent is not None:
            days = list(self.antecedent.days)
            if base is None and (_is_remnant(text) or _EXCLUSIVE_ATOMS.search(text)):
                base = self.antecedent.base
        if not days:
            if past and (base is not None or negators):
                # "sundays are good, used to work them but not now": a "not now" after a past
                # clause ends that past; it does not turn round the day said before it.
                self.antecedent = None
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
        if (
            base is None
            and negators == 0
            and exclusive
            and self.antecedent is not None
            and self.antecedent.past
            and _PRESENT.search(text)
            and re.search(rf"\b(?:it is|it will be) (?:(?:just|only) {_DAY}|{_DAY} only)", text)
        ):
            # "I used to be free Fridays and Saturdays. Now it's just Saturdays.": the
            # predicate said before, now ("now its fridays only" too).
            base = 1
        if (
            corrects
            and bare
            and base is None
            and len(days) == 1
            and any(s.kind == "preferred_day" for s in self._previous)
            # Not "Only Thursdays." ... "Well, Fridays too now": a day added, not put right.
            and not _ADDING.search(text)
        ):
            # "Thursday's my best day, or rather Friday": the favourite put right.
            self.antecedent = self._last_reading = _Reading(days, 1, 1)
            return [Statement("preferred_day", days[0])]
        if base is None and negators == 0 and not exclusive and not exceptions:
            inherited = _said_of(self.antecedent)
            if self.antecedent is not None and self.antecedent.past and _PRESENT.search(text):
                # "Tuesdays used to be busy, Wednesdays now": the predicate, not its past.
                inherited = None if self.antecedent.base is None else self.antecedent.base
            if inherited is None and corrects:
                inherited = _said_of(self._last_reading)  # "can't do Weds, I mean Tuesdays"
            if bare and re.search(r"\bplease\b", text):
                self._requested_here.update(days)  # "Friday, please": a request for a visit
                return []
            answers = (
                # "Which days don't work?" "Monday, Tuesday - oh, and Friday.": bare days
                # answer the agent's question, whatever follows without a sign of its own.
                self.antecedent is not None
                and self.antecedent.asked
                and (
                    # "Sunday, and Saturday - no, just Sunday": the days answer, then are narrowed.
                    self._no_then_correction
                    or (
                        _predicate(self._next_clause) == (None, 0)
                        and not _NEG_ATOMS.search(self._next_clause)
                    )
                )
            )
            if bare and inherited is not None and (not self._more_here or answers):
                # A bare day answers the agent's question or continues the last clause.
                base = inherited
                # "Wednesday's good. No, not Wednesday at all. Thursday.": after a day turned
                # round, a bare day may be the one instead, or one more; which is a guess.
                # Not a bare day that answers the agent's question ("Wednesday's your best day?"
                # "yeah wednesday").
                after_turnround = bool(
                    self._last_reading
                    and self._last_reading.turned
                    and not (self.antecedent and self.antecedent.asked)
                )
            elif _PRESENT.search(text) and re.search(rf"\b(?:it is|it will be) {_DAY}", text):
                # "now it's Tuesdays"; to "Which days are bad?", the days that are bad now; in a
                # turn that puts the last right ("Actually, sorry. It's Wednesdays now"), the
                # days said the way the days it corrects were.
                asked = self.antecedent is not None and self.antecedent.asked
                if self._correcting_turn and not asked:
                    asked, inherited = True, _said_of(self._last_reading)
                if self.antecedent is not None and self.antecedent.past:
                    # "used to be Tuesdays we were out, now it's Wednesdays": what was said of
                    # the old days, now said of the new ("Tuesdays used to be busy, ..."); said
                    # of nothing read, what the agent asked ("Still your day off?" "It was
                    # Monday till May, now it's Wednesday").
                    base = self.antecedent.base
                    if base is None:
                        base = self.asked.base
                else:
                    base = inherited if asked and inherited is not None else 1
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
            # "i'm free monday tuesday wednesday well not wednesday monday and tuesday": a day
            # said twice in one clause, with a sign each way; which is current is a guess.
            or _said_both_ways(text, past)
            or after_turnround
            # "starting january tuesdays won't work but right now they're fine": what will be,
            # set against what is now (without "now", the later value is the one kept).
            or bool(_FROM_LATER.search(text) and _NOW_CONTRAST.search(self._sentence))
            # "not mondays - wednesdays": the second day put in place of the first, or one
            # more under the negation; which is a guess.
            or (bool(re.fullmatch(rf"(?:no )?not (?:on )?{_DAY} {_DAY}", text)) and len(days) == 2)
            # "oh wait no, i meant thursdays fridays are fine": which day the correction names
            # and which the predicate is said of is a guess.
            or (corrects and bool(re.match(rf"(?:not )?({_DAY}) (?!\1){_DAY}\b", text)))
            # "Wednesdays." ... "er no sorry, not wednesdays": the day said not to work, taken
            # back; said out again, or not out at all? A guess.
            or (
                corrects
                and bool(re.fullmatch(rf"not (?:on )?{_DAY}", text))
                and set(days) <= self._unavailable_days
            )
            or (self.antecedent is not None and self.antecedent.excepted and referring)
            # "no saturdays the wedding sunday instead i am free sunday": "instead" sets one
            # day against another, and which the predicate is said of is a guess.
            or (len(days) > 1 and bool(re.search(r"\binstead\b", text)))
            # "I used to keep Mondays free for this kind of thing": kept free for visits, or
            # kept clear of them? Either way round, then; which way now is a guess.
            or (past and bool(re.search(r"\bkeep (?:\w+ )?(?:clear|free)\b", text)))
            # "Wednesday mornings are bad": a time of the day out, not the day ("Saturday
            # mornings are fine" says the day works).
            or (
                (base is not None or negators > 0)
                and (base or 1) * (-1) ** negators < 0
                and bool(
                    re.search(rf"\b{_DAY} (?:mornings?|afternoons?|evenings?|nights?)\b", text)
                )
            )
            # "I used to be out Fridays and Saturdays. Now it's just Saturdays.": just
            # Saturdays out, or just Saturdays free? A guess.
            or (
                exclusive
                and self.antecedent is not None
                and self.antecedent.past
                and self.antecedent.base == -1
                and bool(_PRESENT.search(text))
            )
        )
        if (
            past
            and base is not None
            and base > 0
            and _PREFER.search(text)
            and _predicate(_PREFER.sub(" ", text))[0] is None
        ):
            # "mondays were best for us": no longer the favourite says nothing of whether
            # Mondays work now.
            self.antecedent = self._last_reading = _Reading(days, None, past=True)
            return []
        polarity = None
        if base is not None or negators:
            polarity = (base or 1) * (-1) ** negators
            if past and base is not None:
                polarity = -polarity
        request = bool(_REQUEST.search(text))
        generic = bool(_GENERIC.search(text))
        turned = polarity is not None and any(
            d in (self._available_days if polarity < 0 else self._unavailable_days) for d in days
        )
        # The clause before, in this sentence ("Not Tuesday. Anything but Tuesday": the
        # sentence before says the exception the same way, it is not a list the rest joins).
        listed = self.antecedent if self._clause_before is not None else None
        self.antecedent = self._last_reading = _Reading(
            days, base, polarity, past=past, turned=turned
        )
        if exceptions and not (past and polarity is None):
            rest = polarity if polarity is not None else 1
            if polarity is None and listed is not None and listed.polarity is not None:
                # "I'm out Mondays, Tuesdays and every other day except Thursday": the rest of
                # the week goes on the list before it, said the same; the exception the other
                # way.
                rest = listed.polarity
            out = [_availability(d, -rest) for d in dict.fromkeys(exceptions)]
            others = [d for d in days if d not in exceptions]
            if polarity is not None and not request:
                out += [_availability(d, polarity) for d in others]
            if polarity is not None and polarity > 0 and _UNIVERSAL.search(text) and not past:
                # "I used to only do Tuesdays, but I've retired, so any day except Sunday
                # works": the days said not to work before now do, but for the exceptions.
                out += [
                    _availability(d, 1)
                    for d in sorted(self._unavailable_days - set(exceptions) - set(days))
                ]
            return out
        if polarity is None:
            # "they'll just be stood on the doorstep": a "just" that refers back is not "only".
            own = not referring or bool(_EXCLUSIVE_ATOMS.search(text))
            if (
                exclusive
                and own
                and self._clause_before is not None
                and (no_day := _NO_DAY.fullmatch(self._clause_before))
                and {_weekday(no_day.group(1))} == set(days)
            ):
                # "no saturdays saturdays only": a "no" to the agent and then the one day, or
                # no Saturdays and then only Saturdays? Either way round; the words are kept.
                self.retracted.append(("availability", days[0]))
                return []
            if exclusive and own and not past and days and (set(days) <= denied or asked_out):
                # "can't do Mondays or Tuesdays?" - "Just Mondays": the "just" narrows what
                # does not work, it does not name the one day that does ("just monday and
                # wednesday" after three said out).
                return [_availability(day, -1) for day in days]
            if exclusive and own and not past and len(days) == 1:
                if corrects and said_before is not None:
                    # "Just Monday, sorry": of the days said before, this one, not "only"
                    # ("only thursdays sorry", with none before, is sorry for the one day).
                    return [_availability(days[0], said_before)]
                return _exclusive(days[0])
            return []
        if polarity > 0:
            if _WISH.search(text) and not re.search(rf"\b(?:{_DAY[:-2]})s\b", text):
                # "a Monday would be perfect": a wish for this visit, not a standing fact.
                request = True
            singular = all(not d.endswith("s") for d in _DAY_RE.findall(text))
            if singular and _REQUEST.search(self._sentence):
                # "Monday at 10 sounds great, book it": one day (not "Mondays") in a sentence
                # that asks for a visit is the request, wherever in it the asking is.
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
            # "Thursday mornings are ideal": the favoured day, with its time; not "mondays are
            # fine, mornings are best", the time favoured on a day that works.
            prefers = _PREFER.search(text) and (
                not _TIME_OF_DAY.search(text) or _DAYS_TIME.search(text)
            )
            if (prefers or (self.asked.best and bare)) and len(days) == 1 and not past:
                return [Statement("preferred_day", days[0])]
            replaced: list[Statement] = []
            if self._switch_here and not set(days) & self._unavailable_days:
                # "we've swapped, it's Tuesdays from now on": Thursdays (said earlier) no longer.
                # Not "Wednesday I can do now, my shift swapped": a day said not to work before
                # now works, and the other days keep what was said of them.
                # "tuesdays are ok now i swapped my shift wednesday thursday fine": the days
                # said to work before this sentence, not the ones it has just said.
                gone = self._working_days & self._working_before
                replaced = [_availability(d, -1) for d in sorted(gone - set(days))]
                self._working_days -= {s.key or "" for s in replaced}
            self._working_days.update(days)
            return [*replaced, *(_availability(d, 1) for d in days)]
        if request and not generic:
            return []
        return [_availability(d, -1) for d in days]

    def _named_other(self, text: str) -> bool:
        """Whether `text` is said of somebody the caller named as someone else earlier in the
        call ("my daughter, Priya" ... "Priya can't do Mondays")."""
        subject = _NAME_SUBJECT.match(text)
        return subject is not None and subject.group(1) in self._others_named

    def _about_the_parking(self, text: str) -> bool:
        """Whether the days in `text` are the parking's: "you can park on the street, but not
        on Mondays" (street cleaning), "(where do we park?) not Saturdays, the market's on". Not
        when the caller speaks of themself ("park on the drive, I'm out Mondays though"), nor of
        days said before the parking ("Mondays are out, and parking, use the drive")."""
        if _FIRST_PERSON.search(text):
            return False
        day = _DAY_RE.search(text)
        said_before = self._sentence[: self._sentence.find(day.group(0))] if day else self._sentence
        if speaks_of_parking(said_before):
            return True
        return (
            self.asked.topic == "parking"
            and not (self._correcting_turn or self._answer_left)
            and not _FIRST_PERSON.search(self._sentence)
        )

    def _in_doubt(self, found: list[Statement], doubted: list[Statement]) -> list[Statement]:
        """`found` with the `doubted` statements kept as the caller's words, not typed; what
        the call said of their slots before is not current either."""
        self.retracted += [(s.kind, s.key) for s in doubted]
        return [dataclasses.replace(s, sure=False) if s in doubted else s for s in found]

    def _denied(self) -> set[str]:
        """The days the agent's question (the turn's first antecedent), the last clause or an
        earlier clause in the call said do not work."""
        days = set(self._unavailable_days)
        for reading in (self.antecedent, self._last_reading):
            if reading is not None and (_said_of(reading) or 0) < 0:
                days.update(reading.days)
        # "I'm working every day except Thursday": the clause's days include one said to work.
        return days - self._available_days

    def _values(self, text: str, corrects: bool) -> list[Statement]:
        out: list[Statement] = []
        # Counts, one per thing counted ("two boilers and five radiators").
        counts: dict[str, str] = {}
        if not self.words.count_range.search(text):
            for count in _all_current(self.words.count, text):
                if _CHANGED_BY.search(text[: count.start()]):
                    # "we've added two radiators, so it's eleven now": how many changed, not
                    # how many there are; the total said after is the count.
                    self._mentioned("equipment_count", count.group(2))
                    continue
                counts[self.words.counted_thing(count.group(2))] = _count_value(
                    count.group(1), count.group(2)
                )
            for change in self.words.count_change.finditer(text):
                unit = change.group(4) or change.group(2) or self.last_unit or "units"
                counts[self.words.counted_thing(unit)] = _count_value(change.group(3), unit)
            for one in self._just_the_one.finditer(text):
                # "the boiler just the one", "a towel rail in the bathroom as well just the
                # one": one of the thing named before, nothing else counted between.
                thing = self.words.counted_thing(one.group(1))
                between = {
                    self.words.counted_thing(m.group(0))
                    for m in re.finditer(self.words.units, one.group(2))
                }
                if thing not in self.words.rooms and between <= self.words.rooms:
                    counts.setdefault(thing, _count_value("1", one.group(1)))
        for mentioned in self.words.count_mention.finditer(text):
            self._mentioned("equipment_count", mentioned.group(2))
        for guessed in self.words.vague_count.finditer(text):
            # "a couple of thermostats - two, I mean": the number said next is of these.
            self._mentioned("equipment_count", guessed.group(1))
        if heading := self.words.heading.fullmatch(text):
            # "Radiators: six.": the thing named alone, how many said next.
            self._mentioned("equipment_count", heading.group(1))
        for added in self.words.added_one.finditer(text):
            # "we've added a radiator, so that's nine now": the total that follows is a count.
            self._mentioned("equipment_count", added.group(1))
        if self.words.count.search(self._sentence) and not self.words.count_range.search(text):
            # "a heat pump, twelve radiators and two thermostats": in a list of counts, "a"
            # counts one.
            for single in _all_current(self.words.single, text):
                thing = single.group(1)
                listed = _LISTED_BEFORE.search(text[: single.start()])
                if listed and not _ANOTHER.search(self._sentence):
                    counts.setdefault(self.words.counted_thing(thing), _count_value("1", thing))
        # "four rads downstairs, five upstairs": parts, each with a place of its own, add up.
        summed = self._summed
        for single in self.words.single.finditer(text):
            if (thing := self.words.counted_thing(single.group(1))) in summed:
                counts.setdefault(thing, summed[thing])  # "a radiator in the hall, two in ..."
        counts.update({k: summed[k] for k in counts if k in summed})
        if self._product:
            # "one radiator in each of the six rooms": sure, no number is left unexplained.
            counts = summed = dict(self._product)
        if counts and self._counting_per_room():
            # "How many radiators?" "Kitchen one, bedrooms three, so seven": the rooms say
            # where the radiators are, not how many rooms there are.
            counts = {k: v for k, v in counts.items() if k not in self.words.rooms}
        if counts:
            # "five radiators and four upstairs", "two in each bedroom": a part of the count,
            # or a sum or product the caller left to us, is a guess; parts that add up leave
            # no number unexplained.
            sure = bool(summed) or not _partial_count(self._sentence, self.words)
            # "3 downstairs and 4 upstairs, so 7 radiators in total": the total is said, sure.
            # Only the count that is the total: not "each with one radiator" beside it.
            totals = {
                (
                    self.words.counted_thing(m.group(2) or m.group(4)),
                    _SMALL.get(number := m.group(1) or m.group(3), number),
                )
                for m in self.words.total_count.finditer(self._sentence)
            }
            out += [
                Statement(
                    "equipment_count",
                    value,
                    key=k,
                    sure=sure or (k, value.split()[0]) in totals,
                )
                for k, value in counts.items()
            ]
        elif (
            (now := _NOW_A_COUNT.search(text))
            and "equipment_count" in self._kinds_here
            and self.last_unit is not None
            and not self.words.count_range.search(text)
        ):
            # "we had four radiators, now there's six", "we've added two, so it's eleven in
            # total now": the number said now, of the thing the sentence counts.
            out.append(
                Statement(
                    "equipment_count",
                    _count_value(now.group(1) or now.group(2), self.last_unit),
                    self.words.counted_thing(self.last_unit),
                )
            )
        elif (
            (bare := _BARE_COUNT.match(text))
            # "Sixteen radiators and two thermostats?" "No, six.": which of the counts read
            # back is put right is a guess.
            and not (
                corrects
                and "equipment_count" not in self._kinds_here
                and len(self.words.count.findall(self._agent_words)) > 1
            )
            # Not "the underfloor has its own controller, just the one": the count is of the
            # thing named before it.
            and not self._has_another_thing_before()
        ) and (
            self._bare_ok("equipment_count", corrects)
            # "Six radiators." ... "plus the two in the loft, so eight": a total said after the
            # caller's own count is of the same thing.
            or (
                self._last_count is not None
                and bool(_A_TOTAL.search(self._sentence))
                # Not "And radiators, roughly?" "... so nineteen all told": the agent has
                # moved on to another thing.
                and not self._agent_names_another_thing()
            )
        ):
            unit = self.last_unit or "units"
            if self._counting_per_room() and self.words.counted_thing(unit) in self.words.rooms:
                # "How many radiators?" "Kitchen, hall, four bedrooms, bathroom... that's
                # eleven": the rooms are where the radiators are; the tally is of radiators.
                unit = self.asked.unit or unit
            value = _count_value(bare.group(1), unit)
            # "Radiators?" "Eight, and a little one in the porch makes nine.": another number
            # said after it leaves which is the count a guess.
            at = self._sentence.find(text)
            after = self._sentence[at + len(text) :] if at >= 0 else ""
            if _PUT_RIGHT_AFTER.match(after):
                after = ""  # "Nine, no, ten": the correction after it is read as one
            # (Not "one": "Three, one per floor", "Two, one's a dummy": where or which.)
            # Nor a count of something else ("Ten, plus two towel rails"), nor a bus or a door.
            others = {
                m.group(1)
                for m in re.finditer(r"(?<!\bat )(?<!\bnumber )\b(\d+)\b", after)
                if not re.match(rf"\s+(?:\w+\s+)?{self.words.units}", after[m.end() :])
            } - {value.split()[0], "1"}
            out.append(
                Statement("equipment_count", value, self.words.counted_thing(unit), sure=not others)
            )
        # Boiler type ("it's a combi now", "swapped the back boiler for a combi").
        if (kind := _last_current(self.words.type_mention, text)) and not (
            # "One boiler, one cylinder and one header tank": parts counted are an inventory,
            # not the type described ("the old sort with the tank in the loft").
            self.words.types.named
            and kind.lastindex is not None
            and kind.lastindex > self.words.types.named
            and (
                self.asked.topic == "equipment_count"
                or len(self.words.count.findall(self._sentence)) >= 2
            )
        ):
            out.append(Statement(self.words.types.kind, self.words.type_value(kind)))
        elif self.asked.topic == self.words.types.kind and (
            named := self.words.bare_type.match(text)
        ):
            # "What type of boiler is it?" "System.": the kind named alone answers it.
            out.append(Statement(self.words.types.kind, self.words.types.bare[named.group(1)]))
        # Where the meter is ("the meter's round the back now").
        fixture = self.words.fixture_place.search(text)
        where: str | None = None
        if fixture is not None:
            self._mentioned(self.words.fixture.kind)
            if fixture.group("verb") not in ("was", "were", "used to be") and not _is_old(
                text, fixture
            ):
                # The place runs on past the clause: "at the bottom of the garden, by the shed".
                whole = self.words.fixture_place.search(self._sentence)
                where = (whole or fixture).group("place")
                before = self._sentence[: (whole or fixture).start()]
                if _WHERE_WORDS.search(before):
                    # "it's outside in the meter box by the gate": the place starts before.
                    where = re.sub(r"^(?:it is|its|it's)\s+", "", self._sentence)
        was_there = bool(_PAST.search(self._sentence)) or (
            fixture is not None and fixture.group("verb") in ("was", "were", "used to be")
        )
        if (
            where is None
            and re.search(self.words.fixture.asked, self._sentence)
            and _PLACE_PHRASE.search(self._sentence)
            and not _HEDGE.search(self._sentence)
            and (not was_there or bool(_NOW_THERE.search(self._sentence)))
        ):
            # "The meter used to be in the hall, but they moved it outside": where it is, in
            # the caller's own words (a worded kind: shown as said, never as a fact).
            where = self._sentence
        elif (
            where is None
            and self._bare_ok(self.words.fixture.kind, corrects)
            and not self.words.fixture_place.search(self._sentence)
            and (_WHERE.match(text) or _BARE_PLACE.match(text))
        ):
            # "In the garage." to "Where's your meter?"; "Kitchen, in the cupboard…".
            where = re.sub(r"^(?:it is|it's)\s+", "", self._sentence)
        elif (
            where is None
            and self.asked.topic == self.words.fixture.kind
            and fixture is None
            # The first place said in answer ("Cellar. Mind the steps, they're steep.").
            and not any(s.kind == self.words.fixture.kind for s in self._this_turn)
            and _PLACE_NOUN.search(text)
            and not _HEDGE.search(self._sentence)
            and not was_there
            and not _SOMEONE_ELSES.search(self._sentence)
            and not _OTHER_SUBJECT.match(text)
        ):
            # "Hallway cupboard, the tall one by the front door." to "Where's the gas meter?":
            # the caller's answer, in their own words (a worded kind, never a typed fact).
            where = self._sentence
        if where is not None:
            where = re.sub(r"\s+(?:now|these days|then|actually|anyway)$", "", where.strip(" ."))
            out.append(Statement(self.words.fixture.kind, where.strip()))
        # Make.
        make = _last_current(self.words.make, text, self._brand_ok)
        if self.words.make.search(text) and any(
            self._brand_ok(m) for m in self.words.make.finditer(text)
        ):
            self._mentioned("equipment_make")
        if make is not None:
            brand = self.words.make_names.get(make.group(1), make.group(1).capitalize())
            # The model as said, each word capitalised ("ecotec plus 832" → "Ecotec Plus 832").
            model = " ".join(w.capitalize() for w in (make.group(2) or "").split())
            out.append(Statement("equipment_make", f"{brand} {model}".strip()))
        # Floor (of the caller's home, not of the boiler cupboard or the meter room: "the
        # meter's in the hall cupboard, ground floor" says where the meter is).
        thing_here = self.words.not_the_homes_floor.search(
            self._sentence
        ) and not _OWN_FLOOR.search(text)
        elsewhere = self.words.not_the_homes_floor.search(text) or _A_BUILDINGS_FLOOR.search(text)
        things_here = bool(elsewhere) and not _LIVE_ON.search(text)
        # "Where's the meter?" "Ours is in the basement utility room.": the meter's floor.
        meter_asked = self.asked.topic == self.words.fixture.kind and not _OWN_FLOOR.search(text)
        if not things_here and fixture is None and not thing_here and not meter_asked:
            floor = _last_current(_FLOOR, text)
            if _FLOOR.search(text):
                self._mentioned("floor")
            if floor is not None:
                out.append(Statement("floor", _floor_value(floor)))
            elif (bare := _BARE_ORDINAL.match(text)) and (
                self._bare_ok("floor", corrects)
                # "I'm on the fourth floor." ... "did I say fourth? I'm on the fifth": the
                # caller on an ordinal, with the floor the last thing they gave.
                or (self.last_value_kind == "floor" and _ON_THE_ORDINAL.match(text))
            ):
                out.append(Statement("floor", _floor_value_from(bare.group(1))))
            elif (named := _BARE_FLOOR_NAME.match(text)) and self._bare_ok("floor", corrects):
                # "Which floor?" "Ground.": the floor named alone.
                out.append(Statement("floor", floor_named(named.group(1))))
        # Flat, apartment or unit number.
        flat = _last_current(_FLAT, text)
        if _FLAT.search(text) or re.search(r"\b(?:flat|apartment)\b", text):
            self._mentioned("flat")
        if flat is not None:
            out.append(Statement("flat", f"{flat.group(1).capitalize()} {flat.group(2).upper()}"))
        elif (
            (number := _FLAT_NUMBER.search(text))
            and "flat" in self._kinds_here
            # "the flat above the chip shop, number 40": the building's number, not the flat's.
            and not _THE_FLAT_BY.search(self._sentence)
        ):
            out.append(Statement("flat", f"Flat {number.group(1).upper()}"))
        elif (bare_flat := _BARE_FLAT.match(text)) and self._bare_ok("flat", corrects):
            out.append(Statement("flat", f"Flat {bare_flat.group(1).upper()}"))
        # Address.
        # "Number nine, Willow Way": the street runs on past the comma ("It's number 61,
        # Greenbank Terrace, up near the park": as far as the street).
        pieces = [p.strip() for p in self._sentence.rstrip(" .!").split(",")]
        # "Number 12, it's Ashby Road": the street after the comma, not "it is".
        pieces[1:] = [_IT_IS.sub("", p) for p in pieces[1:]]
        whole = next(
            (
                m
                for k in range(len(pieces), 1, -1)
                if (m := _BARE_ADDRESS.match(" ".join(pieces[:k])))
            ),
            None,
        )
        address = (
            _last_current(_ADDRESS, text)
            or _BARE_ADDRESS.match(text)
            or (
                whole
                if whole and (_HOUSE_NUMBER.match(text) or _ENDS_ON_HOUSE_NUMBER.search(text))
                else None
            )
            # "no sorry, 54 station road, I always flip it": a correction opens with the street.
            or (_CORRECTED_STREET.match(text) if self._bare_ok("address", corrects) else None)
            or (self._named_street(text) if self.asked.topic == "address" else None)
        )
        if address is not None and _NOT_A_STREET_NAME.search(address.group(1)):
            address = None  # "five minutes' walk", "it's a long road": no street
        before_it = text[: address.start(1)] if address is not None else ""
        if address is not None and (
            _THEIR_PLACE.search(before_it)
            or (not before_it.strip() and _THEIR_PLACE.search(self._clause_before or ""))
        ):
            # "the boiler at my dad's, 14 Fern Road, is the same model as mine": their address.
            address = None
        if address is not None:
            self._mentioned("address")
            self._last_address = _title_address(address.group(1))
            out.append(Statement("address", self._last_address))
        elif (
            (number := _HOUSE_NUMBER.match(text))
            and self._last_address
            and self._bare_ok("address", corrects)
            # "flat 13, 99 Park Lane?" "no, 31": which number is put right, the flat's or the
            # house's, is a guess.
            and not _FLAT.search(self._agent_words)
        ):
            # "9 Mill Lane, sorry, 19": the corrected number on the same street.
            house, street = self._last_address.split(" ", 1)
            said = number.group(1)
            misheard = {n for n in re.findall(r"\b\d+\b", self._agent_words) if n != house}
            if not (misheard and house.endswith(said)):
                # Not "215 Mill Road" ... "250 Mill Road?" "no, 15": the end of the number the
                # agent misheard, said again; the house is still 215.
                house = said
            self._last_address = f"{house} {street}"
            out.append(Statement("address", self._last_address))
        elif (
            (renamed := _STREET_NAME.match(text))
            and not _NOT_A_STREET_NAME.search(renamed.group(1))
            and self._last_address[:1].isdigit()
            and (self.last_value_kind == "address" or self._street_confirmed)
            # "27 Station Road. Station Avenue, sorry.", "Albany Road, not Albert.": the same
            # name with another kind of street, or the old name denied, puts it right.
            and (
                corrects
                or _puts_the_street_right(
                    f"{text} {self._next_clause}".strip(), renamed.group(1), self._last_address
                )
            )
        ):
            # "42 Queens Road - sorry, Queens Avenue, not Road": the same number, the street
            # named again.
            house = self._last_address.split(" ", 1)[0]
            self._last_address = _title_address(f"{house} {renamed.group(1)}")
            out.append(Statement("address", self._last_address))
        elif (named := _HOUSE_NAME.match(self._written)) and self._sentence.startswith(text):
            # "It's Rose Cottage, Church Lane": a house with a name and no number, as written
            # (capitalised: "the farm" or "my cottage" is no name).
            self._mentioned("address")
            self._last_address = ", ".join(p for p in named.group("name", "street") if p)
            out.append(Statement("address", self._last_address))
        elif (building := _FLAT_IN_BUILDING.match(self._sentence)) and text == building.group(1):
            # "Flat nineteen, Rosewood Court": the building is the address.
            self._mentioned("address")
            out.append(Statement("address", _title_address(building.group(1))))
        # Contact channel.
        channel = self._channel(text)
        if (
            channel is None
            and (phone := _BARE_PHONE.match(text))
            # "use my mobile", "try the landline": told how to reach the caller, asked or not.
            and (self._bare_ok("contact_preference", corrects) or phone.group("use"))
        ):
            # "Call me on my mobile, or, no, the landline": the phone named alone corrects it.
            channel = "mobile" if phone.group("phone") in _MOBILES else "landline"
        if channel is not None:
            self._mentioned("contact_preference")
            out.append(Statement("contact_preference", channel))
        if time := self._time_favoured(text, corrects):
            self._mentioned("preferred_time")
            out.append(Statement("preferred_time", time))
        return out

    def _time_favoured(self, text: str, corrects: bool) -> str | None:
        """The part of the day the caller favours for visits: said so ("mornings are best",
        "Thursday afternoons only"), or named alone to the agent's question about it or to put
        right the caller's last one ("Afternoons." ... "Actually, mornings.")."""
        favoured = _TIME_FAVOURED.search(text)
        named = _TIME_NAMED.match(text)
        if named and not self._bare_ok("preferred_time", corrects):
            named = None
        found = favoured or named
        if found is None:
            return None
        parts = {m.group(1) for m in re.finditer(_PART_OF_DAY, text)}
        if (
            len(parts) > 1
            or _NEGATOR.search(text[: found.start()])
            or _FOR_SOMEBODY_ELSE.search(text)
            or re.search(r"\b(?:used to|was|were|last time|before)\b", text)
        ):
            # "mornings, not afternoons", "not mornings only", "afternoons were best before":
            # two parts of the day, a negator, somebody else's or a time over: no sure reading.
            return None
        part = next(iter(parts))
        others = {m.group(1) for m in re.finditer(_PART_OF_DAY, self._sentence)} - {part}
        if others and not _PUT_RIGHT_AFTER.search(self._sentence):
            # "Mornings are ideal on weekdays but afternoons at the weekend": two times, each
            # for some days; not "mornings, no, afternoons", one put right.
            return None
        return part

    def _has_another_thing_before(self) -> bool:
        """The clause before ends in a thing the caller has other than the one counted last
        ("the underfloor has its own controller", "we have a boiler")."""
        had = re.search(
            r"\b(?:has|have|got|there is)\s+(?:its own|their own|his own|her own|an?|one)\s+"
            r"((?:\w+\s+)?\w+)$",
            self._clause_before or "",
        )
        return had is not None and self.words.counted_thing(had.group(1)) != (
            self.words.counted_thing(self.last_unit or "")
        )

    def _agent_names_another_thing(self) -> bool:
        """The agent's last words name a thing counted other than the one counted last."""
        counted = self.words.counted_thing(self.last_unit or "")
        return any(
            self.words.counted_thing(m.group(0)) != counted
            for m in re.finditer(rf"\b{self.words.units}\b", self._agent_words)
        )

    def _counting_per_room(self) -> bool:
        """The agent asked how many of a thing rooms have ("How many radiators?")."""
        return (
            self.asked.topic == "equipment_count"
            and self.asked.unit is not None
            and re.fullmatch(rf"(?:{self.words.per_room})s?", self.asked.unit) is not None
        )

    def _named_street(self, text: str) -> re.Match[str] | None:
        """ "41 Mount Pleasant" to "What's the address?": a number and a name that is no count
        ("3 radiators"), no floor or flat and no sentence."""
        named = _NAMED_STREET.match(text)
        if named is None or _NOT_A_STREET.search(named.group(1)):
            return None
        return None if self.words.count.search(text) else named

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
            # Not "in my flat it's four" to "How many radiators?": the count asked for.
            or (kind in self._kinds_here and self.asked.topic != "equipment_count")
            or (corrects and self.last_value_kind == kind)
            # "Fourth." ... "Flat 41. Oh, wait, we're on the fifth": a correction of the floor
            # said earlier in the call, with the flat said in between.
            or (corrects and kind == "floor" and ("floor", None) in self._stated)
        )

    def _brand_ok(self, match: re.Match[str]) -> bool:
        """A brand that is also an ordinary word ("ideal", "alpha") counts only when the talk is
        about equipment: in this sentence, the agent's question, or the caller's last value."""
        return match.group(1) not in self.words.ambiguous_makes or (
            self._equipment_talk
            or self.asked.topic == "equipment_make"
            or self.last_value_kind == "equipment_make"
        )

    def _channel(self, text: str) -> str | None:
        mentions: list[tuple[int, str]] = []
        this_call = [m.span() for m in _THIS_CALL.finditer(text)]
        # "I'd rather you didn't call, just message me": the negator is the call's, not the
        # message's. A denied channel is no mention, and its words make no other one old.
        denied = [m.span() for m in _DENIED_CALL.finditer(text)]
        blank = _DENIED_CALL.sub(lambda m: " " * len(m.group(0)), text)
        devices = [m.span() for m in _DEVICE.finditer(text)]
        for pattern, channel in _CONTACT:
            for match in pattern.finditer(text):
                if any(start <= match.start() < end for start, end in denied):
                    continue
                if _is_old(blank, match):
                    continue
                if any(start <= match.start() < end for start, end in this_call):
                    continue  # "I'm ringing about the boiler": this call, not a preference
                if _COMPARED_TO.search(text[: match.start()]):
                    continue  # "a text is better than email": the channel compared against
                if _AVERSE_TO.search(text[: match.start()]):
                    continue  # "a call is better, I don't get on with texts"
                if _TO_SOMEONE_ELSE.match(text[match.end() :]) or _SOMEONE_ELSES_CHANNEL.search(
                    text[: match.start()]
                ):
                    continue  # "ring my son rather than me", "the landlord's email": theirs
                if _FAILS.match(text[match.end() :]):
                    continue  # "emails go straight to spam": the channel that fails the caller
                if any(start <= match.start() < end for start, end in devices):
                    continue  # "my phone's on its last legs": the device, not how to reach them
                mentions.append((match.start(), channel))
        if not mentions and (switched := _SWITCHED_TO.search(text)):
            # "I've gone back to the landline", "I've moved to texting for everything".
            said = switched.group(1)
            if not _negated_before(text, switched.start()):
                return next(
                    channel for prefix, channel in _SWITCHED_CHANNELS if said.startswith(prefix)
                )
        if not mentions and (best := _BEST_ON.search(text)) and not _is_old(text, best):
            # "best on my mobile", "the best way to reach me is the landline".
            return "landline" if (best.group(1) or best.group(2)) not in _MOBILES else "mobile"
        if not mentions and _PHONE_PREFERRED.search(text):
            # "My mobile's the best bet", "no, the landline's better": a phone named as the
            # way to reach the caller.
            preferred = _PHONE_PREFERRED.search(text)
            assert preferred is not None
            home = preferred.group(1) not in _MOBILES
            return None if _is_old(text, preferred) else ("landline" if home else "mobile")
        if not mentions or not (
            _CONTACT_CONTEXT.search(self._sentence) or self.asked.topic == "contact_preference"
        ):
            return None
        if _ONE_OFF_CONTACT.search(text) or _SORTED_THEN.match(self._next_clause):
            # "phone me when you arrive", "I'll text you the code": one call, not a preference.
            return None
        if len({channel for _, channel in mentions}) > 1 and _ALTERNATIVES.search(text):
            # "text or email, either's fine", "the mobile or the landline, whichever": two
            # ways offered, no preference said.
            return None
        start, channel = max(mentions)
        # Negation is the channel's own ("don't text me", "never by email"): a denied old
        # channel elsewhere ("not the mobile", "I never look at emails") says nothing of it.
        if _negated_before(blank, start):
            return None
        kept = _DENIED_CHANNEL.sub(" ", text)
        for pattern, _ in _CONTACT:
            for match in pattern.finditer(text):
                if _is_old(text, match):
                    kept = kept.replace(_old_span(text, match), " ")
        base, _ = _predicate(kept)
        if base is not None and base < 0:
            return None
        if channel == "phone call":
            # "ring the mobile not the house phone, nobody's near the house phone": a phone
            # denied once is not the one meant wherever else it is named (True: a mobile).
            denied_kinds = {
                m.group(1) in _MOBILES
                for m in _PHONE.finditer(text)
                if _negated_before(text, m.start())
            }
            phones = [
                m
                for m in _all_current(_PHONE, text)
                if not _negated_before(text, m.start())
                and (m.group(1) in _MOBILES) not in denied_kinds
                # "ring the landline, I'm always losing the mobile": the device, not the line.
                and not any(start <= m.start() < end for start, end in devices)
            ]
            if phones:
                phone = phones[-1].group(1)
                home = phone not in _MOBILES
                return "landline" if home else "mobile"
            # "Reach me on the landline, it's the only phone I've got": the phone is named in
            # another clause of the sentence; named both ways, which one is meant is a guess.
            named = {
                m.group(1) in _MOBILES
                for m in _all_current(_PHONE, self._sentence)
                if not _negated_before(self._sentence, m.start())
            }
            if len(named) > 1:
                return None
            if named:
                return "mobile" if named.pop() else "landline"
        return channel


# -- helpers ---------------------------------------------------------------------------------


_SWITCHED_TO = re.compile(
    r"\b(?:switched|gone back|gone over|changed|swapped)(?: over| back| across)? to "
    r"(?:the |my |a )?(landline|home phone|house phone|mobile|texts?\b|texting|text messages?|"
    r"emails?\b|e mails?|emailing|phone calls?|calls?\b)"
)
_SWITCHED_CHANNELS = (
    ("landline", "landline"),
    ("home", "landline"),
    ("house", "landline"),
    ("mobile", "mobile"),
    ("text", "text message"),
    ("e", "email"),
    ("phone", "phone call"),
    ("call", "phone call"),
)
_PUT_RIGHT = re.compile(
    # Not "no good", "a no go", "no pets here": a "no" that is no correction.
    r"\b(?:no(?! (?:good|use|fan|longer|idea|way|chance|problem|bother|go|pets?|animals?)\b)|"
    r"nope|sorry|i mean|i meant|or rather|wait|hang on|hold on|scratch that|call it)\b"
)
_CHANNEL_MENTIONS = (
    (re.compile(r"\b(?:landlines?|home phone|house phone)\b"), "landline"),
    (re.compile(r"\b(?:mobiles?|cell)\b"), "mobile"),
    (re.compile(r"\b(?:emails?|e mail)\b"), "email"),
    (re.compile(r"\b(?:texts?|text message)\b"), "text message"),
)


def _value_mentions(text: str, kind: str, words: Equipment) -> list[tuple[int, int, str]]:
    """Where the sentence names a value of `kind` (a way to reach the caller, a boiler type)."""
    if kind == "contact_preference":
        found = [(m.start(), m.end(), v) for p, v in _CHANNEL_MENTIONS for m in p.finditer(text)]
    elif kind == words.types.kind:
        found = [
            (m.start(), m.end(), words.type_value(m)) for m in words.type_mention.finditer(text)
        ]
    else:
        return []
    return sorted(found)


def _put_right(text: str, said: Statement, words: Equipment) -> bool:
    """Whether the first mention of what `said` states is followed by a correction, and the
    first value of its kind after that correction is another one."""
    mentions = _value_mentions(text, said.kind, words)
    value = said.value
    first = next((m for m in mentions if m[2] == value), None)
    cue = _PUT_RIGHT.search(text, first[1]) if first else None
    if cue is None:
        return False
    later = [m for m in mentions if m[0] >= cue.end()]
    # "text me, no emails": a "no" right before a value negates it; it does not correct.
    return (
        bool(later)
        and later[0][2] != value
        and not (cue.group(0) == "no" and later[0][0] == cue.end() + 1)
    )


def _said_again_alone(text: str, said: Statement, words: Equipment) -> bool:
    """Whether the last value of `said`'s kind is `said` again, as a clause of its own
    ("email me, sorry, text me please, email me"): whether the caller went back to it or said
    it again by mistake is a guess."""
    start, _, value = _value_mentions(text, said.kind, words)[-1]
    # Said again as a clause of its own ("..., email me"), not in a reason ("they took the
    # back boiler out", "the landline's always engaged").
    return (
        value == said.value
        and re.search(r"(?:[,\u2013\u2014-]|\bbut)$", text[:start].rstrip()) is not None
        and len(text[start:].split()) <= 3
    )


def _said_both_ways(text: str, past: bool) -> bool:
    """A day said in one clause, then again negated on its own ("free monday tuesday wednesday
    well not wednesday"), or again now after the past ("used to do tuesdays and thursdays now
    just thursdays"): the caller changing their mind mid-clause."""
    seen: set[str] = set()
    denied: dict[str, int] = {}  # day -> where its negated mention ends
    for match in _DAY_RE.finditer(text):
        day, before = _weekday(match.group(1)), text[: match.start()]
        negated_here = _negated_here(before)
        between = text[denied[day] : match.start()].split() if day in denied else []
        if between and not negated_here:
            # "weekdays no saturdays and sundays only saturday or sunday": negated, then named
            # again with other words between (not "not wednesdays wednesdays i've got...").
            return True
        # "no mondays are out": a "no" before a day with a verb of its own answers.
        negated = negated_here and not re.match(
            r"\s+(?:are|is|were|was|will|would|do|does|i|we)\b", text[match.end() :]
        )
        if day in seen and (negated or (past and _PRESENT.search(before))):
            return True
        if negated:
            denied.setdefault(day, match.end())
        else:
            seen.add(day)
    return False


def _negated_here(before: str) -> bool:
    """Whether the words before a day end with its own negator ("not", "no", "never on a")."""
    return bool(re.search(r"\b(?:not|no|never)\s+(?:on\s+)?(?:an?\s+)?$", before))


def _said_of(reading: _Reading | None) -> int | None:
    """What a bare day after `reading` continues: the polarity the clause said (a question's
    base is already signed)."""
    if reading is None:
        return None
    return reading.polarity if reading.polarity is not None else reading.base


def _day_of(said: Statement) -> str:
    """The weekday an availability or preferred-day statement is about."""
    return said.key or said.value.split()[0]


def _availability(day: str, sign: int) -> Statement:
    if sign < 0:
        return Statement("availability", "unavailable", key=day, negative=True)
    return Statement("availability", "available", key=day)


def _exclusive(day: str) -> list[Statement]:
    return [Statement("preferred_day", f"{day} only"), _availability(day, 1)]


# A clause whose subject is "my ..." or "our ..." before its verb ("my other half's busy",
# "our lad works Fridays"), and the words that make it the caller's own time, not somebody.
_OWNED_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|also|plus|yeah|yes|no)\s+)*(?:my|our)\s+"
    r"(?P<np>(?:[a-z]+\s+){0,2}?[a-z]+?)(?:'s\s|s?\s+"
    r"(?:is|are|was|were|will|would|can|could|does|do|did|has|have|had|works?|never|always|"
    r"usually|normally|only|just|gets?|goes|go)\b)"
)
_OWN_TIME = re.compile(
    rf"\b(?:{_DAY}|week|weekend|weekday|schedule|diary|calendar|rota|work|job|shift|hour|"
    r"day|days? off|morning|afternoon|evening|time|availability|routine|plan|life|hand|"
    r"house|home|flat|place|phone|mobile|landline|email|number|address|"
    r"only day|best day|free day|busy day)s?$"
)


_THEIRS = re.compile(r"\b(?:for|of|with|to) (?:her|him|them)\b|\b(?:she|he) (?:is|can|will)\b")
# "Not always", "not necessarily" anywhere; "not usually" only as the answer itself ("I
# can't normally do Fridays" is a standing no).
_NOT_ALWAYS = re.compile(
    r"\bnot (?:always|necessarily)\b|"
    r"^(?:(?:well|erm?|um|no)\s+)*not (?:generally|usually|normally|as a rule|often)\b"
)
_GETTING_BUSY = re.compile(
    r"\b(?:getting|got|gone|becoming|become)(?: a bit| quite| rather| a little| really| very)? "
    r"(?:busy|busier|hectic|full|fuller)\b"
)
# What was so before, then what is so now ("before i could only do saturdays but these days
# i'm home most of the week"): the clause that says it changed opens the second part.
_THEN_NOW = re.compile(
    r"^(?P<past>.*?\b(?:used to|before|previously|in the past|years ago|last year|back then|"
    r"(?:was|were) (?:always |usually )?(?:\w+ )?(?:fine|good|ok|okay|best|free|out|bad))\b.*?)"
    r"(?:\s*[,;.:]\s*(?:(?:but|and|so) )?|\s+[-\u2013\u2014]+\s+(?:(?:but|and|so) )?|"
    r"\s+(?:but|and|so) (?:um |er )?)"
    r"(?P<now>(?:now|these days|nowadays|from now on|this year|"
    r"at the moment|currently|going forward|since (?:i|we|my|our|he|she|they|the)|"
    r"from (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|next \w+))\b\W*\w+\W+\w+.*)$"
)


_NOW_ELLIPSIS = re.compile(r"now ((?:i|we) (?:can|could)(?: not)?)(?: do)?\W*")


def _said_now(text: str) -> str | None:
    """The part of "what was so before, then what is so now" that says now, when it names
    again every day the first part named ("before i could never do fridays but since i retired
    fridays are fine"), or names no day but a time of day ("it used to be mornings were easier
    but since i retired afternoons are better"). Not "we used to do Mondays, but now it's
    Thursdays" (what it says of Mondays is that they changed), nor "Mondays I used to be out,
    but now I'm home" (the second part is about the first's days: read whole)."""
    then_now = _THEN_NOW.match(text)
    if then_now is None or _PAST.search(now := then_now.group("now")):
        return None
    now_days, past_days = _weekdays_in(now), _weekdays_in(then_now.group("past"))
    if past_days and (verb := _NOW_ELLIPSIS.fullmatch(now)):
        # "i could not do fridays before the kids started school - now i can": the verb
        # alone, said of the days before it.
        days = " and ".join(f"{d}s" for d in sorted(past_days, key=WEEKDAYS.index))
        return f"{verb.group(1)} do {days} now"
    if (past_days and now_days >= past_days) or (not now_days and re.search(_PART_OF_DAY, now)):
        return now
    return None


# "no theyre fine" ("no they are fine" once normalised): the days asked about, referred to after
# the answer. Not "no, that's wrong" nor "no, it's Thursdays I can't do": the read-back is
# wrong, which way the days asked are it does not say.
_SAID_OF_THEM = re.compile(
    rf"^(?:no|nope|nah)\W+(?:they|it is|that is)\b"
    rf"(?!\W+(?:(?:all |just )?wrong|not (?:right|it|what|true|correct)|incorrect|{_DAY}))"
)
_CALLING_BACK = re.compile(
    rf"\b(?:ring|call|phone|try) (?:you |you lot )?(?:back|again) (?:on |next )?{_DAY}"
)
_NOT_ABOUT_THE_CALLER = re.compile(r"\b(?:the|that) (?:weather|forecast|rain|snow|wind|storm)\b")
# Some weeks yes, some no: not "every other day" (all the rest) nor "the odd ones" (monday,
# wednesday, friday).
_SOME_WEEKS = re.compile(
    rf"\b(?:sometimes|occasionally|now and then|some weeks|on and off|every so often|"
    rf"from time to time|(?:the odd|every other) (?:week|{_DAY}))\b"
)
# A reason that something the caller did is over ("since i gave up the sunday league").
_WHAT_ENDED = re.compile(
    r"^(?:since|as|because|cos|cause|now that|now) (?:i|we) (?:have )?(?:stopped|gave up|"
    r"given up|quit|finished|packed in|left|retired from|dropped)\b"
)
_EACH = re.compile(r"\b(?:each|every|per)\b")
_ASKS_ITSELF = re.compile(r"\bor (?:is|was|are|were) (?:it|that|they)\b")
_FROM_LATER = re.compile(
    r"\b(?:starting|from|after|come) (?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|christmas|the new year|next (?:week|month|year))\b|"
    r"\bin the new year\b"
)
_NOW_CONTRAST = re.compile(
    r"\b(?:right now|for now|at the moment|currently|until then|till then)\b"
)
# "mondays are bad, it's just this once I'm off": a one-off, said of no standing day; "not
# usually" answers for the usual week no more plainly.
_ONE_OFF = re.compile(
    r"\b(?:just |only )?this once\b|\bthis one time\b|\bone[- ]off\b|\bthis one off\b|"
    r"\bnot usually\b"
)
_EXCEPTED_AGAIN = re.compile(
    rf"\b((?:except|apart from|but|bar) (?:the |for )?({_DAY[:-2]})s?) \2s? (?:no|nope|not)$"
)
# "no mondays no fridays thats about it": the end of a list of days out.
_THAT_IS_ALL = re.compile(
    rf"(\b(?:no|not) (?:on )?{_DAY})\W+(?:so )?that is (?:about |pretty much )?(?:it|all)\W*$"
)
# Not "yeah that's it", which confirms a read-back.
_NOTHING_MORE = re.compile(
    r"(?:no|nope|nah|no no)\W+(?:that is|that will be|i think that is) "
    r"(?:it|all|everything|the lot)(?:\W+(?:thanks|thank you|cheers))?\W*|"
    r"(?:(?:no|nope|nah)\W+)?(?:nothing (?:else|more)|that is all)"
    r"(?:\W+(?:thanks|thank you|cheers))?\W*"
)
_NOT_THE_OLD_DAY = re.compile(rf"not (?:on )?(?:an? )?({_DAY})(?: any ?more)?")
# "I can't do Tuesday, not Thursday": a clause with a verb of its own saying days do not
# work, which a bare "not DAY" after it may be set against (not "not Monday, not Tuesday").
_CONTRASTED_WITH = re.compile(
    r"^(?!not\b).*\b(?:i|we) (?:can not|cannot|do not|will not) (?:do|make|manage)\b|"
    # "Monday and Wednesday are out, not Tuesday": the days with a word of their own for out.
    rf"^(?!not\b)(?:{_DAY}(?: and | or |, )?)+ (?:are|is) (?:out|no good|bad|busy|off limits)$"
)
_SAID_WERE = re.compile(rf"^(?:(?:i|we) (?:said|told you)(?: that)? )({_DAY}) (?:was|were)\b")
_IN_FOR = re.compile(r"\b(?:is|are|goes|going|go|went|was) in for (?:its|a|an|the|her|his|my)\b")
# "Which days do?": the verb of the agent's question before, left out.
_VERB_OF_THE_QUESTION_BEFORE = re.compile(
    r"\b(?:which|what) (?:days?|ones?) (?:do|does|would|will)\W*$"
)
# "Any weekday, but Wednesday works best": the day favoured among the rest, not excepted.
_BUT_BEST = re.compile(
    rf"but\s+(?:on\s+)?(?:an?\s+)?{_DAY}\s+(?:works?|is|are|would be|suits?(?: me)?)\s+"
    r"(?:the )?(?:best|better|ideal|perfect|preferable)\b"
)
# "Nothing before Friday works": the days before it, not Friday itself.
_DAYS_BEFORE_OR_AFTER = re.compile(
    rf"\b(?:nothing|none|not) (?:before|after|until|till) (?:a |the )?{_DAY}"
)
# "Nothing but Mondays works": the one day, and no negation of it.
_NOTHING_BUT_DAY = re.compile(rf"\bnothing but (?=(?:an? |the )?{_DAY})")
# Words no street name carries: "a long road", "five minutes' walk".
_NOT_A_STREET_NAME = re.compile(
    r"^(?:\d+\w*\s+)?(?:a|an|not)\b|"
    r"\b(?:minutes?'?|mins?|seconds?|hours?'?|miles?|yards?|metres?|meters?)\s"
)
_NO_DAY_SAID_TWICE = re.compile(rf"(no|nope|nah) ({_DAY[:-2]})s?\W+\2s?\b(.*)")
_VALUE_THEN_NO = re.compile(r"(.+?),? (?:no|nope|nah|not that)\W*")
_NO_DAY = re.compile(rf"(?:no|nope|nah) ({_DAY})")
_BUSY_ALL_WEEK = re.compile(
    r"\b(?:i|we) (?:am |are )?(?:\w+ )?(?:work|working|busy|out|at work|away)\b(?: \w+)? "
    r"(?:all|the whole|the rest of the) week\b"
)
_NO_DAY_NOT_DAY = re.compile(
    rf"(?P<no>no|nope|nah)\W+(?P<instead>{_DAY}(?:\W+(?:and\W+)?{_DAY})*)\W+not\W+"
    rf"(?P<wrong>{_DAY})\b(?P<after>.*)"
)
_NOW_INSTEAD = re.compile(r"\b(?:now|these days|nowadays|instead)\b")
_RELATIVE_PAST = re.compile(r"^(?:which|that|who) (?:were|was|used to)\b")
_PAST_REMNANT = re.compile(r"(?:(?:yes|yeah|well) )?(?:they|it|that|those) (?:were|was|used to be)")
_NO_LONGER = r"not (?:now|any ?more|these days|nowadays)"
_NOT_NOW = re.compile(rf"\b{_NO_LONGER}$")
_JUST_NOT_NOW = re.compile(rf"(?:but |and )?(?:well )?{_NO_LONGER}")
_TALLIED = re.compile(r"\b(?:so|that is|that makes|which makes|making) (?:\d+|a total of \d+) \w+")
_WORTH_OF = re.compile(rf"\b{_NUMBER} (?P<thing>(?:\w+ )?\w+?)'? worth of\b")
_OUT_OF = re.compile(rf"\bout of (?:the )?{_NUMBER}\b")
_ALTERNATIVES = re.compile(r"\b(?:either|whichever|or)\b")
_TOTAL = re.compile(r"\b(?:altogether|all together|in total|in all|all told|so \d+)\b")
# "before the new job", "before we moved": not "before 10", "before noon" or "before then".
_BEFORE_SOMETHING = re.compile(
    r"\bbefore\s+(?:the|my|our|his|her|their|we|i|he|she|they|it|a|an|all|this|that)\b"
    r"(?!\s+(?:morning|afternoon|evening|school run|lunch|dinner|tea)\b)"
)
# "were", "now", "not any more", a sentence that opens "before i ...": the time is said.
_TENSE_SAID = re.compile(r"^before\b|\b(?:was|were|now|any ?more|no longer)\b")
# A condition, not an exception ("any day unless it's a Monday" excepts the day).
_UNLESS = re.compile(rf"\bunless\b(?!\s+(?:it is\s+|its\s+)?(?:an?\s+|on\s+)?{_DAY})")
# A question about days: one named, or "other days", "any others", "anything else".
_DAYS_ASKED = re.compile(
    rf"\b(?:{_DAY}|days?|others?|else)\b[^?]*\?\s*$|\b(?:{_DAY}|days?|others?|else)\s*\?"
)
# "my daughter, Priya", "Priya, my daughter", "our lodger's called Tom": a name given to
# somebody else, capitalised as written.
_NAMED_PERSON = re.compile(
    rf"(?i:{_PERSON})(?:(?i:\s+is|'s) (?i:called|named)\s+|,?\s+)([A-Z][a-z]+)\b|"
    rf"\b([A-Z][a-z]+),\s+(?i:{_PERSON})"
)
_NAME_SUBJECT = re.compile(r"^([a-z]+)\b")
_NOT_NAMES = (
    frozenset(WEEKDAYS)
    | {f"{day}s" for day in WEEKDAYS}
    | {
        *("she", "he", "they", "the", "yes", "no", "and", "but", "so", "oh", "well", "it", "we"),
        *("my", "our", "his", "her", "their", "thanks"),
    }
)
# A clause whose subject is somebody other than the caller ("my neighbour can't do mondays",
# "the letting agent said", "she's at college"), not somebody the caller's own reason names
# ("i'm at my mum's", "i've got the grandkids").
_SOMEBODY_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|also|plus|then|because|cos|cause|yeah|yes|no|though|as|right|"
    r"um|er|like)\s+)*(?:(?:my|our|the|his|her|their|me)\s+(?:\w+\s+)?)?"
    r"(?:he|she|(?:other|better) half|missus|wife|husband|partner|mum|mom|mother|dad|father|"
    r"son|daughter|kids?|children|grandkids|grandchildren|brother|sister|nan|gran|grandma|"
    r"grandad|neighbou?rs?|tenants?|landlord|landlady|(?:letting )?agents?|lodger|carer|"
    r"cleaner|friend|boss|manager|lad|lady|man|woman|guy|people|family|couple)\b"
)
_THEM_IT_IS = re.compile(r"^(?:it is|its) (?:just |only )?(?:him|her|them) (?:that|who)\b")
_AGREEING_NO = re.compile(
    r"\s(?:no|not at all)\s*$|"
    r"\bno\s+(?=(?:i |we )?(?:can not|cannot|will not|do not|could not|not|never)\b)"
)
# "nor Friday", "Saturdays neither": a day put on the list under the negation before it.
_LIST_NEGATOR = re.compile(
    rf"\bnor\s+(?:on\s+)?(?:an?\s+)?{_DAY}\b|\b{_DAY}\s+(?:neither|either)\b"
)
# A negation of the days before and nothing else: "so not those", "neither of them".
_NOT_THOSE = re.compile(
    r"^(?:(?:and|so|but|then|well)\s+)*(?:not|none of|neither of|neither)\s+"
    r"(?:those|them|these|either(?: of them| day)?|both|any of them|those days|those two)"
    r"(?:\s+(?:days|then|please|thanks|i am afraid|sorry))*$"
)
_STRUCK_OFF = re.compile(rf"(?:scratch|scrap|cross off|strike off|cross out) {_DAY}\b")
_SHIFT_GONE = re.compile(
    # "they moved my rota": whoever moved it is not the days said before.
    r"\b(?:(?:they|he|she|work|my boss|my manager) (?:have |has |had )?)?"
    r"(?:swapped|cancelled|dropped|got rid of|given up|gave up|moved) "
    r"(?:my|our|the) (?:\w+ )?(?:shift|shifts|class|classes|clinic|session|rota)\b"
    # Not "they moved my shift to wednesday": the day it went to is worked.
    r"(?! (?:to|onto|over to|on to)\b)"
)
_NOT_FOR_THEM = re.compile(rf"\b(?:but )?not (?:for|with) (?:him|her|them|{_PERSON})\b")
_THEIR_THING_CHANGED = re.compile(
    r"\b(?:(?:now|since|as|because|cos) )?(?:my|our|his|her|their|the) (?:\w+ )?\w+ "
    r"(?:have |has |had |got )?changed\b"
)
# The words before a number that make it how many changed: "added two", "took out three".
_CHANGED_BY = re.compile(
    r"\b(?:added|add|adding|put in|fitted|installed|got rid of|removed|taken out|took out|"
    r"boxed in|lost|getting|having|ordered|bought|replaced)\s+(?:another\s+|an extra\s+)?$"
)
# The kinds a yes to the agent's words confirms (not the days, read with their signs by
# `read_question`, nor counts, nor words kept as said; nor the channel: "you'll text the
# code" is no way to reach the caller).
READ_BACK_KINDS = frozenset(
    {"address", "flat", "floor", "boiler_type", "equipment_make", "preferred_time"}
)
# "Is that 8 Oak Avenue?", "Can I confirm the address is ...": the asking around a value.
_ASKED_BACK_LEAD = re.compile(
    r"^(?:(?:so|and|ok|okay|right|great|lovely|thanks),?\s+)*(?:is (?:that|it)|was (?:that|it)|"
    r"did you say|you said|(?:can|could) i (?:just )?(?:confirm|check)(?: that)?"
    r"(?: (?:the|your) \w+(?: is)?)?|(?:just )?to confirm,?|and that is)\s+",
    re.IGNORECASE,
)
_THE_AGENTS_YOU = {"you": "i", "your": "my", "yours": "mine", "yourself": "myself"}


def _as_the_caller(said_back: str) -> str:
    """The agent's words as the caller would say them ("your son lives on the fifth floor":
    "my son ..."), a statement, not a question."""
    text = re.sub(r"\byou(?:'re| are)\b", "i am", said_back.replace("?", "."), flags=re.I)
    return re.sub(
        r"\b(?:you|your|yours|yourself)\b",
        lambda m: _THE_AGENTS_YOU[m.group(0).lower()],
        text,
        flags=re.I,
    )


_THE_REST_IS_RIGHT = re.compile(
    r"^(?:(?:and|but|otherwise|yes|yeah|oh)\W+)*(?:the rest|everything else|all the rest|"
    r"the rest of it|all else)(?: of it)? (?:is|was|are|sounds) (?:all )?(?:right|correct|fine|"
    r"good|spot on)\b|^(?:(?:yes|yeah)\W+)?(?:all|that is all|it is all) (?:right|correct|good) "
    r"(?:except|apart from|but)\b"
)
# A count said as now, its thing said before: "now there's six", "so it's eleven in total".
# "yes", "yeah that's right", "correct": agreement and nothing else.
_AGREED = re.compile(
    r"(?:(?:yes|yeah|yep|yup|correct|right|exactly|spot on|that is (?:right|correct|it)|"
    r"all (?:correct|right))\s*)+"
)
# "... she lives on", "he can't do": a person other than the caller, the subject of a verb.
_HE_OR_SHE_AS_SUBJECT = re.compile(
    r"\b(?:he|she|(?:his|her|their) [a-z]+) (?:lives?|has|had|"
    r"is|was|can|can not|works?|has got|got|does|does not|will|will not|needs?|prefers?|stays?|"
    r"only)\b"
)
_FIRST_PERSON_SUBJECT = re.compile(r"\b(?:i|we|ours|mine)\b")
_NOW_A_COUNT = re.compile(
    rf"\b(?:now|so)\s+(?:there is|there are|it is|that is|we have|we have got|we are on|"
    rf"we are at)\s+(?:the\s+)?{_NUMBER}\b(?!\s+(?:more|extra|new|of|or|to))|"
    rf"\b(?:there is|there are|it is|that is|we have) {_NUMBER}\s+(?:in total\s+)?now\b"
)
# A phone named as the best way to reach the caller, the phone said after "best".
_BEST_ON = re.compile(
    r"\bbest (?:on|to (?:use|ring|call|try))\s+(?:my|the|our)\s+"
    r"(landline|home phone|house phone|mobile|mobile phone)\b|"
    r"\bbest (?:way|number|bet)(?: to (?:reach|get|contact|call|ring) (?:me|us))? is "
    r"(?:my|the|our)\s+(landline|home phone|house phone|mobile|mobile phone)\b"
)
# The clause before was of another time: "that was last week", "that's next week".
_THAT_WAS_THEN = re.compile(
    r"^(?:\w+\s+){0,2}?(?:that|it) (?:was|is|will be) (?:last|next|the other) (?:week|month|time)\b"
)
# A house with a name, as written: "It's Rose Cottage, Church Lane", "We're at The Old Forge".
_HOUSE_NAME = re.compile(
    r"^(?:(?:[Ii]t'?s|[Ii]t is|[Ww]e'?re at|[Ww]e are at|I'?m at|I am at|"
    r"(?:[Tt]he |[Mm]y |[Oo]ur )?[Aa]ddress is|[Ww]e live at|I live at|"
    r"[Uu]m|[Ee]r|[Yy]es|[Yy]eah),?\s+)*"
    r"(?P<name>(?:The )?(?:[A-Z][a-z'-]+ ){1,3}(?:Cottage|Farm|Farmhouse|House|Lodge|Barn|Forge|"
    r"Mill|Manor|Grange|Hall|Villa|Bungalow|Croft|Rectory|Vicarage|Cottages))"
    r"(?:,\s*(?P<street>(?:[A-Z][a-z'-]+ ){1,3}(?:Road|Street|Lane|Avenue|Close|Drive|Way|Court|"
    r"Place|Crescent|Terrace|Grove|Gardens|Walk|Row|Mews|Hill|Green)))?"
    # The name is the whole clause: not "The Old Farm is where my mum lives".
    r"(?=\s*(?:[,.;!?\u2014\u2013-]|$))"
)
_DAYS_TIME = re.compile(
    rf"\b{_DAY}\s+(?:mornings?|afternoons?|evenings?)\s+"
    r"(?:are|is|would be|will be)\s+(?:the\s+)?(?:best|ideal|perfect|better|preferable)\b"
)
# Not "top": said alone it is often put another way next ("top but one", "the top one, the
# fifth").
_BARE_FLOOR_NAME = re.compile(
    r"^(?:(?:it is|its|we are|i am|on|the)\s+)*(lower ground|ground|basement)"
    r"(?:\s+(?:one|level|floor))?$"
)
_THE_FLAT_BY = re.compile(
    r"\bthe (?:flat|apartment) (?:above|over|below|under|behind|next to|at the back of|beside)\b"
)
# Not "flat twenty twenty" (said twice) nor "flat 14 42 queens road" (the house number next).
_TWO_NUMBERS_FOR_A_FLAT = re.compile(
    r"\b(?:flat|apartment|unit) (\d{1,4}) (?!\1\b)\d{1,4}\b(?!\s*\w)"
)
_SPACE_NUMBER = re.compile(
    r"\b(?:space|bay|spot|pitch|parking)\b[\s,]+(?:(?:is|it is|number|no)\s+)?(\d{1,4})\b"
)
_FLOORS_NUMBERED = re.compile(
    r"\b(?:count|counts|counted|call|calls|called|number|numbers) (?:the )?ground(?: floor)? "
    r"as (?:zero|0|one|1|the first(?: floor)?)\b|"
    r"\b(?:the )?ground floor (?:counts|is counted|is called) as \w+\b"
)
_ASKED_BACK = re.compile(
    r"\b(?:did|do|does|was|were|is|are|have|has|had|can|could|would|will) not "
    r"(?:i|we|you|it|they|he|she)\s*\??$"
)
_TAG_QUESTION = re.compile(
    r"(?<=\w)\s*(?:[,;-]+|\u2014|\u2013)?\s*(?:is|would|will) (?:that|it|he|she) be "
    r"(?:ok|okay|all right|alright|fine|a problem)\s*\?$|"
    r"(?<=\w)\s*(?:[,;-]+|\u2014|\u2013)?\s*is (?:that|it) (?:ok|okay|all right|alright|"
    r"fine|a problem)\s*\?$"
)
# A denial and nothing else: "no, it isn't", "no I'm not", "I can't".
_DENIED = re.compile(
    r"(?:(?:sorry|no|oh|actually|wait|hang on|hold on|well|ah|er|um)\s+)*"
    r"(?:it|that|i|we)\s+(?:is|am|are|can|could|will|do|does)\s+not(?:\s+actually)?"
)
# Somebody's words reported: "Karen says", "my dad used to say", "they reckon".
_SAYS = re.compile(
    r"\b([a-z']+)\s+(?:(?:always|often|once|used to|keeps?|kept|would)\s+)?"
    r"(?:says|said|say|saying|reckons|reckoned)\b"
)
# Words before "said" that leave the caller (or the agent) as the speaker: "as I said", "I've
# always said", "like you said", "I had said".
_OWN_WORDS = frozenset(
    {"i", "we", "you", "have", "has", "had", "just", "already", "never", "not", "also", "to",
     "would", "could", "should", "will", "did", "do", "what", "as", "like", "who", "that",
     "was", "were", "am", "is", "are", "be", "been"}
)  # fmt: skip


def _hearsay(sentence: str) -> bool:
    return any(m.group(1) not in _OWN_WORDS for m in _SAYS.finditer(sentence))


# The caller speaking of themself again: "but i can", "we're in", "fine for me".
_CALLER_AGAIN = re.compile(
    r"^(?:(?:and|but|so|well|oh|yes|yeah|no|honestly|though|whereas)\s+)*(?:i|we|me)\b|"
    r"\b(?:for|to) (?:me|us)\b"
)


# "Actually can you make that a text message?": the channel the caller's words are changed to.
_MAKE_IT_CHANNEL = re.compile(
    r"^(?:(?:actually|so|oh|and|sorry|but|well)\s+)*(?:can|could|would) you\s+"
    r"(?:please\s+|just\s+)*"
    r"(?:make|change|put|switch) (?:that|it)(?: down)? (?:to |as )?(?:an? |by )?"
    r"(?P<channel>email|e mail|text(?: message)?|phone call|landline|mobile)\b"
    r"(?: instead)?(?: please)?\s*\??$"
)
# A question that asks for a channel in place of another ("could you email me instead?",
# "can you ring the landline rather than the mobile", "can you text me from now on").
_CHANNEL_ASKED_INSTEAD = re.compile(
    r"^(?:(?:actually|so|oh|and|sorry|but|well|or)[\s,]+)*(?:can|could|would|will) you\s+"
    r"(?:please\s+|just\s+|always\s+)*"
    r"(?P<ask>(?:email|e mail|text|ring|call|phone|message)\b"
    r"(?=.*\b(?:instead|rather than|from now on|in future|going forward)\b).*)$"
)


def _unknown_owner(text: str) -> bool:
    """The clause's subject is the caller's "my/our" something the reader cannot tell apart
    from a person ("my other half", "our lad"): not a day, a time or a thing of the home."""
    owned = _OWNED_SUBJECT.match(text)
    if owned is None:
        return False
    return not _OWN_TIME.search(owned.group("np"))


# A value said after a correction in the same breath ("no 19", "sorry, the third").
_CORRECTED_VALUE = re.compile(
    rf"\b(?:no|nope|sorry|i mean|i meant|actually|or rather|wait)\s+(?:it is\s+|its\s+|the\s+|"
    rf"flat\s+|number\s+|unit\s+|apartment\s+)?(?P<v>\d{{1,4}}[a-z]?|{_ORDINAL_WORDS})\b"
)
_PLACE_PHRASE = re.compile(
    r"\b(?:in|under|outside|inside|behind|by|next to|beside|round|around|on) (?:the|a|an|our|my)\b"
)
# Where a thing is now, after where it was ("moved it outside", "now it is in the porch").
_NOW_THERE = re.compile(r"\b(?:moved|put|relocated|shifted|now|these days|nowadays)\b")
# A number said as the whole or as what it is now: "so eight", "that makes nine", "seven now".
_A_TOTAL = re.compile(
    rf"\b(?:so|which makes|making|that makes)\s+(?:it is |that is |there are |there is |we have )?"
    rf"(?:the )?{_NUMBER}\b|\b{_NUMBER}\s+(?:now|altogether|in total|all told|in all|left)\b"
)
_IT_IS = re.compile(r"^(?:it is|it's|its|that is|that's)\s+")
# "only" makes a day the only one when it is said of it, not elsewhere in a run-on ("tuesdays are
# a doddle for me im just pottering about"); "just" only right before the day ("just thursdays"),
# since it is mostly something else ("just the ticket", "i've just remembered", "just that ...").
_ONLY_OF_A_DAY = re.compile(
    rf"\bonly\s+(?:[\w']+\s+){{0,4}}?{_DAY}|{_DAY}(?:\s+[\w']+){{0,3}}?\s+only\b|"
    rf"\bjust\s+(?:(?:on|the|a|an)\s+){{0,2}}{_DAY}|"
    r"\b(?:only|one) day\b|\bonly ever\b|\bone and only\b"
)


def _is_exclusive(text: str) -> bool:
    """Whether a clause makes its day the only one that works."""
    # "Saturday's only just possible": barely, not the only day. "I'm just chilling at home
    # Tuesdays": "just" before what the caller is doing is no "only".
    text = re.sub(
        r"\bonly just\b|\bjust (?=(?!morning|evening)\w+ing\b|sat\b|at home\b|around\b|me\b)",
        " ",
        text,
    )
    words = {m.group(0) for m in _EXCLUSIVE.finditer(text)}
    if not words:
        return False
    return bool(words - {"only", "just"}) or bool(_ONLY_OF_A_DAY.search(text))


_THE_OTHER_DAYS = re.compile(
    r"\b(?:(?:the )?rest of the (?:week|time)|the rest|the other days|(?:every|any) other day|"
    r"other days|(?:everything|anything|any day|every day) else)\b"
)
# The caller taking a hedge back: "I'm pretty sure, no, I'm certain".
_ASSURED = re.compile(r"\b(?:i am certain|i am positive|definitely|i have (?:just )?checked)\b")
# "we live on the top floor and there are four radiators": the home's floor, said outright.
_LIVE_ON = re.compile(r"\b(?:live|living|(?:we|i) (?:are|am)) on\b")
_ONE_VALUE = frozenset({"flat", "floor", "address", "equipment_count"})
# A value with a negator, a correction or a subject and verb inside ("9 Not Close", "12 It Is
# Ashby Road") is a misreading.
_NOT_A_VALUE = re.compile(
    r"\b(?:not|no|never|sorry|actually|mean|meant|wait|rather)\b|"
    r"\b(?:it|that|this|we|i|they|you|he|she) (?:is|are|am|was|were|will|would|have|has)\b"
)
_DAY_IS_OFF = re.compile(
    rf"(?:(?:so|right|oh|ok|okay|and) )*(?:{_DAY}(?: (?:and|or) {_DAY})*|those|they|them|that|"
    r"it|those days|them days) (?:is|are) off"
)
# "saturday off yeah", "and sunday also off": the day, then "off", with no verb between.
_DAY_THEN_OFF = re.compile(
    rf"(?:^|\b(?:and|yeah|so|but)\s+){_DAY} (?:also |too )?off\b(?! (?:to|for|with|from|work)\b)"
)
# A phone or an inbox of the caller's spoken of as a thing ("my mobile keeps dying").
_DEVICE = re.compile(
    r"\bmy (?:phone|mobile|landline|email|emails|inbox|house phone|home phone) (?:is|has|was|"
    r"keeps|does|will|would|never|always|went|broke)\b"
    # "I'm always losing my phone": the device handled, not a way to reach the caller.
    r"|\b(?:lose|losing|lost|drop|dropped|dropping|forget|forgot|forgetting|leave|left|"
    r"leaving|break|broke|broken|smashed|charge|charging) (?:my|the|that|this) (?:phone|mobile)\b"
)


def _value_token(value: str) -> str:
    """A value as the words it is compared by ("3rd floor" and "third" are both "3")."""
    words = [str(_ORDINALS.get(w, w)) for w in value.casefold().split()]
    return " ".join(re.sub(r"^(\d+)(?:st|nd|rd|th)$", r"\1", w) for w in words)


def _restates(text: str, said: list[Statement]) -> bool:
    """Whether a clause names again a value, or the day, of what was said."""
    named = {_value_token(m.group(0)) for m in _VALUE_WORD.finditer(text)}
    days = _weekdays_in(text)
    return any(s.key in days or named & set(_value_token(s.value).split()) for s in said)


def _names_a_value(text: str, words: Equipment) -> bool:
    return bool(kinds_mentioned(text, words) or _VALUE_WORD.search(text))


def _said_again_sure(parts: list[Clause]) -> bool:
    """ "A combi, I think - yes, a combi": the hedged words said again after a yes."""
    texts = [c.text for c in parts]
    return any(
        _is_pure_hedge(texts[i])
        and i > 0
        and re.match(r"(?:yes|yeah|yep) ?", " ".join(texts[i + 1 : i + 3]))
        and texts[i - 1] in texts[i + 1 : i + 3]
        for i in range(len(texts))
    )


def _is_pure_hedge(text: str) -> bool:
    rest = _HEDGE.sub(" ", text)
    rest = re.sub(r"\b(?:i|we|am|are|so|and|but|yes|no|well|though|about that|that)\b", " ", rest)
    return bool(_HEDGE.search(text)) and not rest.strip()


# Somebody else's home, just before an address said in apposition.
_THEIR_PLACE = re.compile(
    rf"(?:\b{_PERSON}'?s|\b(?:his|her|their) (?:place|house|flat|home|address)(?: is)?)\s*$"
)
_ON_THE_ORDINAL = re.compile(
    r"^(?:(?:oh|no|sorry|well)\s+)*(?:(?:i am|we are|i live|we live) on|it is)\b"
)


def _puts_the_street_right(text: str, street: str, address: str) -> bool:
    """After "27 Station Road": "station avenue" (the name said again, the kind changed), or
    "albany road not albert" (a word of the street held, denied)."""
    said, held = street.lower().split(), address.lower().split()[1:]
    if len(said) == len(held) >= 2 and said[:-1] == held[:-1] and said[-1] != held[-1]:
        return True
    denied = re.search(r"\bnot(?: the)? (\w+)$", text)  # the clause and the one after
    return denied is not None and denied.group(1) in held and denied.group(1) not in said


def _echoes_the_question(text: str) -> bool:
    """A short answer about the day asked about, with no day of its own: how it is ("still
    no good", "still fine"), or that nothing is settled ("still waiting", "still checking":
    the "no" after it is not an answer then)."""
    return bool(re.fullmatch(r"still (?:\w+ ){0,3}\w+", text))


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


# What a day "was" that is a standing arrangement rather than one day gone by.
_STANDING_PAST = re.compile(r"\b(?:always|usually|normally|every week|days? off)\b")


def _day_was(text: str) -> bool:
    """A weekday said with "was" ("Wednesday was my day off", "mondays was always best"),
    with nothing to say it still is."""
    return bool(re.search(rf"\b{_DAY}\s+(?:\w+\s+)?was\b", text)) and not _PRESENT.search(text)


def _plural_past(text: str) -> bool:
    """A day-in-general said in the past tense ("Fridays were fine"): no longer so."""
    return bool(
        re.search(
            rf"\b(?:{_DAY[:-2]})s\s+(?:were|used|suited|worked)\b|"
            rf"\b(?:{_DAY[:-2]})s\s+(?:\w+\s+)?(?:were|suited|worked)\b|"
            # "Monday and Wednesday were fine": two days, one past verb.
            rf"\b{_DAY} (?:and|or) {_DAY}\s+(?:\w+\s+)?were\b",
            text,
        )
    )


# A correction said after a value ("nine, no, ten", "mornings, no, make it afternoons").
_PUT_RIGHT_AFTER = re.compile(
    r"\W*\b(?:no|sorry|actually|i mean|wait|hang on|make that|make it|scratch that)\b"
)
# What opens taking a day back out of a list just said ("well, not Fridays").
_TAKING_BACK = frozenset({"well", "sorry", "actually", "i mean", "no", "oh", "or rather"})
# "No, that's just her", "no that's my husband not me": the days read back were somebody
# else's, not the caller's.
_ONLY_THEIRS = re.compile(
    r"^(?:that is|those are|thats) (?:just |only |all )?(?:her|him|them|his|hers|theirs|"
    r"(?:my|our|her|his) (?:[a-z]+ )?(?:husband|wife|partner|son|daughter|mum|dad|mother|"
    r"father|brother|sister|neighbou?r|landlord|landlady|lodger|tenant|carer|friend|flatmate|"
    r"housemate)(?:'s)?)(?: days?| problem| thing)?(?: not (?:me|mine|us|ours))?$"
)
