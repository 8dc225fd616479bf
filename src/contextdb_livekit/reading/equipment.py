"""What a line's callers have at home, in their words: the only part of the reader a line writes.

The reader (`reading.reader`) knows English — days, negation, corrections, who is speaking,
addresses, flats, floors and how to reach the caller — and nothing of any trade. What a caller
counts, the makes they name, the types of the thing the line services and the fixture whose
place the engineer needs come from the line as an `Equipment`: word lists as regular-expression
alternatives (lower case, as `reading.sentences.normal` writes text), and the fact kinds they
are read into.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from contextdb_livekit.reading.lexicon import _NUMBER as NUMBER


@dataclass(frozen=True)
class EquipmentTypes:
    """The types of the line's main equipment ("combi", "system boiler") as one kind of fact."""

    kind: str  # the fact kind they are read into ("boiler_type")
    noun: str  # what they are types of ("boiler"): "a system boiler", "the combi one"
    pattern: str  # a mention of a type: one capturing group per value in `values`
    values: tuple[str, ...]  # the value of each group, in order; later groups take the last
    bare: Mapping[str, str]  # a type named alone, answering the agent's question, → its value
    asked: str  # the agent's question about the type ("what type of boiler")
    # "what kind of boiler": the things a "what kind of" question asks the make of.
    make_asked: str
    proposed: str  # the agent's yes/no question naming a type ("is it a combi boiler?")
    mentioned: str  # words that show a turn talks about the type
    # The groups of `pattern` that name a type; those after them infer it from other parts
    # ("a tank in the loft"), which a count of those parts is no description of.
    named: int = 0


@dataclass(frozen=True)
class Fixture:
    """The fixture whose place in the home the engineer needs ("the meter")."""

    kind: str  # the fact kind its place is read into ("meter_location")
    # "the meter's round the back now": the fixture, then groups `verb` and `place`.
    pattern: str
    asked: str  # the agent's question about it ("meters?")
    mentioned: str  # words that show a turn talks about where it is


@dataclass(frozen=True)
class Equipment:
    """What a line's callers have installed, in their words (see the module docstring)."""

    # What a caller counts: every name said ("rads") → the one name of its slot ("radiator").
    counted: Mapping[str, str]
    # The things counted, as said after a number, plurals included (one capturing group).
    units: str
    # A word that may come between a number and the thing ("two heated towel rails").
    count_words: str
    # Things "a" counts one of in a list ("a heat pump, twelve radiators"), and the words that
    # may come between ("a combi boiler").
    singles: str
    single_words: str
    # One more of a thing, added ("we've added a radiator"): a bare total after it counts it.
    added: str
    # "a radiator in every room": a thing counted per room is a product left to us.
    per_room: str
    # The counted things that are rooms ("bedroom"): where the things counted are, so a room
    # named while counting them ("kitchen one, bedrooms three, so seven") is no count of rooms.
    rooms: frozenset[str]
    # Makes, as said; how each is written; the ones that are also ordinary words ("ideal");
    # words of a model name after the make ("ecotec").
    makes: tuple[str, ...]
    make_names: Mapping[str, str]
    ambiguous_makes: frozenset[str]
    model_words: str
    # Words that show the talk is about equipment ("boiler", "installed").
    talk: str
    # Things in the home with a floor of their own ("the boiler's on the ground floor").
    not_the_home: str
    types: EquipmentTypes
    fixture: Fixture

    def counted_thing(self, text: str) -> str:
        """The one name of what a count counts ("5 rads" → "radiator"; else "unit")."""
        words = " ".join(re.sub(r"[^a-z ]+", " ", text.casefold()).split())
        for name in sorted(self.counted, key=len, reverse=True):
            if re.search(rf"\b{name}s?\b", words):
                return self.counted[name]
        return "unit"

    def type_value(self, match: re.Match[str]) -> str:
        said = next(i for i, group in enumerate(match.groups()) if group)
        values = self.types.values
        return values[said] if said < len(values) else values[-1]

    @cached_property
    def count(self) -> re.Pattern[str]:
        return re.compile(rf"\b{NUMBER} (?:(?:{self.count_words}) )?{self.units}\b")

    @cached_property
    def vague_count(self) -> re.Pattern[str]:
        # "a couple of thermostats": how many is left to a number said next.
        return re.compile(
            rf"\b(?:a couple of|a few|several|some) (?:(?:{self.count_words}) )?{self.units}"
        )

    @cached_property
    def heading(self) -> re.Pattern[str]:
        # "Radiators:": the thing named alone, as a heading for the number said next.
        return re.compile(rf"(?:the\s+)?{self.units}")

    @cached_property
    def count_mention(self) -> re.Pattern[str]:
        # "two more radiators": the talk is about radiators, but not how many there are.
        return re.compile(rf"\b{NUMBER} (?:more |extra |new |old )?{self.units}\b")

    @cached_property
    def count_change(self) -> re.Pattern[str]:
        # "down from three radiators to two", "up to 6 rads now": the number after "to" is current.
        return re.compile(
            rf"\b(?:down|up|gone|went|going|cut|dropped)\s+(?:from\s+{NUMBER}(?:\s+{self.units})?\s+)?"
            rf"to\s+(?:just\s+|only\s+)?(?:the\s+)?{NUMBER}(?:\s+{self.units})?\b"
        )

    @cached_property
    def count_range(self) -> re.Pattern[str]:
        # "three or four radiators", "5 to 6 rads": a range is a guess, not a count.
        return re.compile(rf"\b{NUMBER}\s+(?:or|to)\s+{NUMBER}\s+{self.units}")

    @cached_property
    def total_count(self) -> re.Pattern[str]:
        # A count said to be the whole ("so 7 radiators in total", "eleven rads altogether").
        return re.compile(
            rf"\b{NUMBER} {self.units} (?:in total|altogether|all told|in all|total)\b|"
            # "2 bathrooms each with a towel rail, so 2 towel rails": the total drawn from them.
            rf"(?:(?<=\w so )|(?<=\w, so )|(?<=\bthat is )|(?<=\bmakes )|(?<=\bmaking ))"
            rf"{NUMBER} {self.units}\b"
        )

    @cached_property
    def single(self) -> re.Pattern[str]:
        return re.compile(
            rf"\b(?:a|an|one)\s+(?:(?:{self.single_words})\s+)?({self.singles})\b(?!s)"
        )

    @cached_property
    def added_one(self) -> re.Pattern[str]:
        return re.compile(
            r"\b(?:added|fitted|put in|installed|got|had)\s+(?:in\s+)?(?:a|an|another|one more|"
            rf"an extra|a new|a second)\s+(?:\w+\s+)?({self.added})\b"
        )

    @cached_property
    def per_room_count(self) -> re.Pattern[str]:
        return re.compile(
            rf"\b(?:a|an|one) (?:\w+ )?(?:{self.per_room})s? (?:in|on|for|per) (?:each|every)\b"
        )

    @cached_property
    def rooms_as_places(self) -> re.Pattern[str]:
        # "one in each of the three bedrooms", "three towel rails cause there's three
        # bathrooms": the rooms are where the things counted are, or why, not a count.
        rooms = "|".join(re.escape(r) for r in sorted(self.rooms, key=len, reverse=True))
        return re.compile(
            rf"\b(?:in|across|for) (?:each of |all of |both of )?(?:the|our|my|all|both) "
            rf"(?:\w+ )?(?:{rooms})s?\b|"
            rf"\b(?:cause|because|cos|as|since) (?:there is|there are|we have|we have got|we got) "
            rf"(?:\w+ )?(?:{rooms})s?\b"
        )

    @cached_property
    def make(self) -> re.Pattern[str]:
        makes = "|".join(re.escape(m) for m in self.makes)
        return re.compile(rf"\b({makes})\b((?:\s+[a-z]*\d[\w-]*|\s+(?:{self.model_words})\w*)*)")

    @cached_property
    def talk_words(self) -> re.Pattern[str]:
        return re.compile(rf"\b(?:{self.talk})\b")

    @cached_property
    def not_the_homes_floor(self) -> re.Pattern[str]:
        # "three radiators on the ground floor": the plural is where the things are too.
        return re.compile(rf"\b(?:{self.not_the_home})(?:e?s)?\b")

    @cached_property
    def type_mention(self) -> re.Pattern[str]:
        return re.compile(self.types.pattern)

    @cached_property
    def bare_type(self) -> re.Pattern[str]:
        named = "|".join(re.escape(t) for t in self.types.bare)
        noun = self.types.noun
        return re.compile(
            rf"^(?:(?:it is|its|a|an|the|just)\s+)*({named})(?:\s+(?:one|{noun}|type))?$"
        )

    @cached_property
    def fixture_place(self) -> re.Pattern[str]:
        return re.compile(self.fixture.pattern)

    @cached_property
    def kind_words(self) -> dict[str, re.Pattern[str]]:
        """Words that show a turn is about the equipment kinds, typed or not."""
        return {
            self.types.kind: re.compile(rf"\b(?:{self.types.mentioned})\b"),
            self.fixture.kind: re.compile(rf"\b(?:{self.fixture.mentioned})\b"),
        }

    @property
    def installed(self) -> frozenset[str]:
        """The kinds that say what is installed (a wish for one is not what is there)."""
        return frozenset({"equipment_make", "equipment_count", self.types.kind})
