"""Round 7 of the rule reader, precision first: then and now are two clauses, a day read back
is not asked again, an idiom with "no" in it can be a yes, and "anything but" excepts. Each
guard is pinned by phrasings of its own (not the scored sets')."""

from __future__ import annotations

import pytest

from memory.extract import Turn, extract_call_facts
from tests.memory.spoken_calls import TODAY, days, facts, typed


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "now it's <day>" after a past clause is a clause of its own, said of now.
        (
            "u: thursdays used to be my free day now it's saturdays",
            {("thursday", "unavailable"), ("saturday", "available")},
        ),
        (
            "u: wednesdays used to be my day off its sundays now",
            {("wednesday", "unavailable"), ("sunday", "available")},
        ),
        # A bare day said now takes the predicate itself, not its past ("busy", not "was busy").
        (
            "u: Thursdays used to be hectic, Mondays these days",
            {("thursday", "available"), ("monday", "unavailable")},
        ),
        (
            "u: We used to be off on Tuesdays, Fridays now.",
            {("tuesday", "unavailable"), ("friday", "available")},
        ),
    ],
)
def test_then_and_now_are_read_apart(
    conversation: str, expected: set[tuple[str | None, str]]
) -> None:
    assert days(conversation) == expected


def test_a_list_of_days_still_runs_on_past_a_comma() -> None:
    assert days("u: we can't do Tuesday, Wednesday or Thursday any more") == {
        ("tuesday", "unavailable"),
        ("wednesday", "unavailable"),
        ("thursday", "unavailable"),
    }


def test_a_favourite_in_the_past_says_nothing_of_the_day_now() -> None:
    # No longer the best day is not "unavailable".
    assert ("saturday", "unavailable") not in days(
        "u: saturdays were always best for us, it's sundays now"
    )
    assert days("u: Tuesdays used to be our favourite.") == set()


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # An idiom with "no" in it that says yes.
        ("u: Thursday's a no-brainer for me, I'm home all day.", {("thursday", "available")}),
        ("u: Saturdays are no worries at all.", {("saturday", "available")}),
        ("u: wednesdays no hassle", {("wednesday", "available")}),
        # "Anything but <day>": the day is the exception, the predicate is said of the rest.
        ("u: Any day but a Tuesday is fine by me.", {("tuesday", "unavailable")}),
        ("u: anything but friday works", {("friday", "unavailable")}),
        # ...unlike a universal with its own predicate before "but".
        ("u: Every day is hectic but Sunday is fine.", {("sunday", "available")}),
    ],
)
def test_idioms_and_exceptions(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "u: would friday work at all",
        "u: is a monday any good",
        "u: are tuesdays possible for you lot",
    ],
)
def test_a_question_without_its_mark_states_nothing(conversation: str) -> None:
    assert typed(conversation) == set()


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The agent reads one day back and asks about another: "no" answers the one asked.
        (
            "u: Mondays suit me. | a: Mondays suit you. Are Wednesdays good too? | u: no",
            {("monday", "available"), ("wednesday", "unavailable")},
        ),
        (
            "u: fridays are fine | a: Fridays are fine — and Saturdays as well? | "
            "u: no saturdays i do the football",
            {("friday", "available"), ("saturday", "unavailable")},
        ),
        # Two days asked, the answer names one of them: it answers for that one only.
        (
            "u: hello | a: Are Tuesdays or Thursdays any good? | u: no thursdays im on shift",
            {("thursday", "unavailable")},
        ),
    ],
)
def test_an_answer_is_about_the_days_asked(
    conversation: str, expected: set[tuple[str | None, str]]
) -> None:
    assert days(conversation) == expected


def channel(conversation: str) -> set[str]:
    return {value for kind, _, value in typed(conversation) if kind == "contact_preference"}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A call that happened is an event, not how the caller wants to be reached.
        ("u: I phoned twice and nobody rang me back.", set()),
        ("u: work have called us in on Saturdays now", set()),
        # ...but the caller wishing the agent had rung is a wish.
        ("u: I'd sooner you phoned my mobile.", {"mobile"}),
        # "Reach me on" a phone, and the phone named in another clause of the sentence.
        ("u: You can reach me on the landline.", {"landline"}),
        ("u: Best to ring me, the mobile is always on me.", {"mobile"}),
        # Both phones named: which is meant is a guess.
        ("u: Ring me, I've a mobile and a landline.", set()),
        # A phone named alone corrects the caller's last channel or answers the question.
        ("u: Phone the mobile, or rather the landline.", {"landline"}),
        ("u: Text me - or, no, my mobile.", {"mobile"}),
        ("u: Ring my mobile, or - no - the landline.", {"landline"}),
        ("u: hi | a: What's the best way to reach you? | u: The home phone.", {"landline"}),
        # Something sent once by text or email is not a standing preference.
        ("u: theres a gate code ill text it over", set()),
        ("u: the key safe code ill email you later", set()),
    ],
)
def test_contact_channel(conversation: str, expected: set[str]) -> None:
    assert channel(conversation) == expected


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("Alarm code to follow by text.", set()),
        ("Will send photos of the boiler over email.", set()),
        ("Caller prefers contact by text.", {"text message"}),
    ],
)
def test_a_note_of_something_sent_once_is_no_channel(note: str, expected: set[str]) -> None:
    found = extract_call_facts([Turn("user", "hello")], [note], today=TODAY, call_id="call-1")
    assert {f.value for f in found if f.kind == "contact_preference"} == expected


def counts(conversation: str) -> set[tuple[str | None, str]]:
    return {(key, value) for kind, key, value in typed(conversation) if kind == "equipment_count"}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "a ... and another": a sum left to us.
        (
            "u: We have a thermostat by the door and another on the landing, plus 7 radiators.",
            {("radiator", "7 radiators")},
        ),
        # One per room: a product left to us.
        ("u: there's a storage heater in each room, that's the lounge and 2 bedrooms", set()),
        # "a" counts one only in a list of what the caller has, not after another verb.
        (
            "u: The heat pump feeds a cylinder, and we have 9 radiators.",
            {("radiator", "9 radiators")},
        ),
        (
            "u: we've got a heat pump and eight radiators",
            {("heat pump", "1 heat pump"), ("radiator", "8 radiators")},
        ),
        # Somebody else's count compared with the caller's is still theirs.
        ("u: Next door has six radiators and ours is about the same.", set()),
        ("u: the woman at number 14 has got seven radiators and mine is the same", set()),
    ],
)
def test_counts(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert counts(conversation) == expected


def test_a_caller_after_somebody_else_in_one_clause_is_the_caller() -> None:
    assert ("equipment_make", None, "Vaillant") in typed(
        "u: her boiler is a baxi ours is a vaillant"
    )


@pytest.mark.parametrize(
    ("conversation", "floor"),
    [
        # The floor of the meter or the boiler, not of the caller's home.
        ("u: The meter is in the bin store, lower ground floor.", None),
        ("u: Boiler's in the plant room, top floor.", None),
        # The caller's own floor in the same sentence is theirs.
        ("u: The boiler's in the loft, we're on the third floor.", "3rd floor"),
    ],
)
def test_a_floor_said_of_a_thing(conversation: str, floor: str | None) -> None:
    floors = {value for kind, _, value in typed(conversation) if kind == "floor"}
    assert floors == ({floor} if floor else set())


@pytest.mark.parametrize(
    ("conversation", "kind", "kept"),
    [
        # A tradesman's word against the caller's puts the caller's in doubt.
        (
            "u: It's a back boiler. | a: Back boiler, noted. | "
            "u: the gas man said it was a regular one mind",
            "boiler_type",
            None,
        ),
        (
            "u: Nine radiators. | a: Nine. | u: the fitter said there were twelve radiators",
            "equipment_count",
            None,
        ),
        # A hedge naming another value does too.
        ("u: We've a Baxi. | a: OK. | u: or a Vaillant, not sure", "equipment_make", None),
        # Somebody else's thing in a hedged clause is theirs, not a doubt.
        (
            "u: We've a Baxi. | a: OK. | u: I think my brother has a Vaillant",
            "equipment_make",
            "Baxi",
        ),
        # The caller's own past in a hedged clause is no doubt about now.
        (
            "u: It's a combi. | a: OK. | u: it used to be a back boiler I think",
            "boiler_type",
            "combi",
        ),
        # The same value said again in doubt leaves it standing.
        ("u: It's a combi. | a: OK. | u: the engineer said it's a combi", "boiler_type", "combi"),
    ],
)
def test_a_doubt_against_what_was_said(conversation: str, kind: str, kept: str | None) -> None:
    values = {value for k, _, value in typed(conversation) if k == kind}
    assert values == ({kept} if kept else set())
    if kept is None:
        assert any(f.kind == "quote" for f in facts(conversation))


def test_a_boiler_type_said_without_the_noun() -> None:
    assert ("boiler_type", None, "conventional") in typed("u: it's a regular one, quite old")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A denied call before another channel: the negator is the call's.
        ("u: i'd sooner you didnt ring just email me", {"email"}),
        ("u: Text me please, don't call.", {"text message"}),
        ("u: don't email me", set()),
        # Told which phone to use, asked or not.
        ("u: The mobile's no good any more, use the landline.", {"landline"}),
        ("u: try my mobile", {"mobile"}),
        # Speech-to-text drops the apostrophe; "the way to reach me" names the phone too.
        ("u: landlines best for me", {"landline"}),
        ("u: my mobiles the way to get me", {"mobile"}),
        # A channel named against one denied.
        ("u: Text, never email.", {"text message"}),
        # A call said to be better is the channel.
        ("u: honestly a phone call is better", {"phone call"}),
        ("u: for me a call is best", {"phone call"}),
        # Asking for themselves after somebody else's habit.
        ("u: My son likes texts, but please just ring me.", {"phone call"}),
        ("u: My son likes texts, he never answers the phone.", set()),
    ],
)
def test_contact_channel_recall(conversation: str, expected: set[str]) -> None:
    assert channel(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # One more of a thing, then the total.
        (
            "u: We had an extra radiator put in the conservatory, so that's twelve now.",
            {("radiator", "12 radiators")},
        ),
        ("u: they fitted a second thermostat, so it's 2 now", {("thermostat", "2 thermostats")}),
        # "its" before a number said as a word, after a count.
        (
            "u: we had three radiators taken out so its nine now",
            {("radiator", "9 radiators")},
        ),
        # A total with no thing counted before it is no count.
        ("u: We moved in last year, so that's two now.", set()),
    ],
)
def test_a_total_after_a_change(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert counts(conversation) == expected


def who_home(conversation: str) -> list[str]:
    return [f.value for f in facts(conversation) if f.kind == "who_home"]


@pytest.mark.parametrize(
    "conversation",
    [
        # Who in one clause, what they will do in another.
        "u: The warden, Maureen, will let your engineer in.",
        "u: My brother's got the spare key, he'll let the engineer in.",
        "u: Our letting agent will meet the engineer at the flat.",
        # "'s got" is "has got".
        "u: My neighbour's got a key.",
        # "'s" before a verb in -ing is "is".
        "u: My wife's working from home that day.",
        # The caller's own absence is no negation.
        "u: my dad will be in not me",
    ],
)
def test_who_will_be_home(conversation: str) -> None:
    assert who_home(conversation) == [conversation.split(": ", 1)[1].rstrip(".")]


@pytest.mark.parametrize(
    "conversation",
    [
        # Said of the caller, or of a pet, or denied: nobody else is named as home.
        "u: my wife works tuesdays but i will be in",
        "u: My son's bringing his dog, it'll be there all day.",
        "u: My husband won't be there.",
        "u: Nobody will be home, my sister has the spare key.",
    ],
)
def test_nobody_else_home(conversation: str) -> None:
    assert who_home(conversation) == []


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Wednesdays I'm up to my neck in it.", {("wednesday", "unavailable")}),
        ("u: mondays im rushed off my feet", {("monday", "unavailable")}),
        ("u: thursdays are chockablock for me", {("thursday", "unavailable")}),
        ("u: Friday's a complete bust, I'm away.", {("friday", "unavailable")}),
        ("u: Saturday? Not a hope.", {("saturday", "unavailable")}),
        ("u: sundays aint gonna happen", {("sunday", "unavailable")}),
        ("u: Tuesdays are a breeze, come whenever.", {("tuesday", "available")}),
        ("u: mondays are a doddle for us", {("monday", "available")}),
        ("u: Thursdays are wide open.", {("thursday", "available")}),
    ],
)
def test_idioms_for_a_day(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert days(conversation) == expected


def address(conversation: str) -> set[str]:
    return {value for kind, _, value in typed(conversation) if kind == "address"}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # Cottages, mansions and the like are streets too.
        ("u: We live at 7 Mill Cottages.", {"7 Mill Cottages"}),
        # A town after the street, or where it is, or the next clause, ends the address.
        ("u: its 230 birch avenue leeds", {"230 Birch Avenue"}),
        ("u: It's 4 Market Street, above the bakery.", {"4 Market Street"}),
        ("u: its 12 fern close and the bell is broken", {"12 Fern Close"}),
        ("u: Our house is 5 Linden Grove.", {"5 Linden Grove"}),
        # A number said as words, the street past a comma, then a description.
        ("u: It's number forty-four, Elm Crescent, the blue door.", {"44 Elm Crescent"}),
        # A word that may start something else is not a town.
        ("u: it's 16 kings road next door", set()),
        # A street type after "park" is the street's ("21 Park Road", not "21 Park").
        ("u: It's 8 Park Road.", {"8 Park Road"}),
        # A correction after the street is not a town.
        ("u: it's 3 Ivy Lane, sorry, 13", {"13 Ivy Lane"}),
    ],
)
def test_addresses(conversation: str, expected: set[str]) -> None:
    assert address(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A correction that opens with the street, then explains.
        (
            "u: we're at 26 brook lane | a: 26 Brook Lane. | u: no sorry 62 brook lane i mix it up",
            {"62 Brook Lane"},
        ),
        # The street named again, the number kept.
        ("u: It's 9 Albert Street - sorry, Albert Road, not Street.", {"9 Albert Road"}),
        (
            "u: its 30 mill road | a: 30 Mill Road. | u: sorry its mill lane not road",
            {"30 Mill Lane"},
        ),
        (
            "u: we're at 12 park road | a: 12 Park Road. | "
            "u: no sorry 21 park road i get them mixed",
            {"21 Park Road"},
        ),
        # Without a numbered address before it, a street name alone is nothing.
        (
            "u: Flat two, Rosewood Court. | a: Rosewood Court. | "
            "u: sorry, Rosewood Close, not Court.",
            set(),
        ),
        ("u: Sorry, Albert Road, not Street.", set()),
        # A flat in a named building: the building is the address.
        ("u: Apartment six, Harbour Heights.", {"Harbour Heights"}),
        ("u: Unit twelve, Meadow Business Park.", {"Meadow Business Park"}),
    ],
)
def test_address_corrections_and_buildings(conversation: str, expected: set[str]) -> None:
    assert address(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The total said outright is sure, though the parts before it are a sum.
        (
            "u: Two radiators upstairs, three downstairs, so 5 radiators altogether.",
            {("radiator", "5 radiators")},
        ),
        ("u: 2 rads upstairs and 6 downstairs", {("radiator", "8 rads")}),
        # Gas fires and immersion heaters are counted things; a word may come between.
        (
            "u: We have 3 gas fires and an immersion heater.",
            {("gas fire", "3 gas fires"), ("immersion heater", "1 immersion heater")},
        ),
        (
            "u: eight radiators and two heated towel rails",
            {("radiator", "8 radiators"), ("towel rail", "2 towel rails")},
        ),
        ("u: we've got four smart thermostats", {("thermostat", "4 thermostats")}),
    ],
)
def test_counted_things(conversation: str, expected: set[tuple[str | None, str]]) -> None:
    assert counts(conversation) == expected


def test_a_flat_number_in_a_correcting_turn_is_no_count() -> None:
    # "sorry" corrects the turn's own words; the flat's number does not talk about the count.
    found = typed(
        "u: Mondays suit me. We've three radiators. | a: Right. | "
        "u: it's flat 7, sorry, mondays suit me"
    )
    assert ("equipment_count", "radiator", "3 radiators") in found
    # A bare number in a correcting turn still does.
    assert counts("u: We have 8 radiators. | a: Eight. | u: sorry, 9, I miscounted") == {
        ("radiator", "9 radiators")
    }


@pytest.mark.parametrize(
    ("conversation", "kind", "expected"),
    [
        # A kind of boiler named alone answers the agent's question about it...
        ("a: Which type of boiler do you have? | u: System.", "boiler_type", {"system"}),
        ("a: Is it a back boiler? | u: no, a regular one", "boiler_type", {"conventional"}),
        # ...and says nothing unasked.
        ("u: System.", "boiler_type", set()),
        # "Who'll be at the property?": a person named alone answers it.
        ("a: Who will be at the house on the day? | u: my lodger", "who_home", {"my lodger"}),
    ],
)
def test_an_answer_to_the_agents_question(conversation: str, kind: str, expected: set[str]) -> None:
    assert {f.value for f in facts(conversation) if f.kind == kind} == expected


def test_without_fail_is_no_negator() -> None:
    assert days("u: wednesdays i'm at work, every wednesday without fail") == {
        ("wednesday", "unavailable")
    }
