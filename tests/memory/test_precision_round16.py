"""Round 16: idioms callers use for a day, somebody else's words reported, counts said in
parts, and the things callers count beside the heating. Phrased for these tests, not taken
from any scored set."""

from __future__ import annotations

import pytest

from contextdb_livekit.reading.sentences import normal
from contextdb_livekit.reading.values import summed_parts
from memory.equipment import EQUIPMENT
from tests.memory.spoken_calls import days, facts, of_kind, typed


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Thursday's a goer for me.", {("thursday", "available")}),
        ("u: mondays are bang on im home all day", {("monday", "available")}),
        ("u: Saturday's a dead cert, we're always in.", {("saturday", "available")}),
        ("u: Tuesday is right as rain for us.", {("tuesday", "available")}),
        ("u: Friday ticks all the boxes.", {("friday", "available")}),
        ("u: Sunday's fair game.", {("sunday", "available")}),
        ("u: wednesday's no sweat", {("wednesday", "available")}),
        ("u: Monday is no skin off my nose.", {("monday", "available")}),
        # "I'm at a ..." is away ("I'm at a conference"), but not at a loose end.
        ("u: Thursday I'm at a loose end, so that's fine.", {("thursday", "available")}),
        ("u: Fridays are a dead duck, I'm never in.", {("friday", "unavailable")}),
        ("u: Monday won't fly, I'm in London.", {("monday", "unavailable")}),
        ("u: tuesday is a nonstarter", {("tuesday", "unavailable")}),
        ("u: Wednesday? Not on your life.", {("wednesday", "unavailable")}),
        ("u: saturday no can do", {("saturday", "unavailable")}),
        ("u: sundays are a nope", {("sunday", "unavailable")}),
        ("u: Thursdays are murder with the school run.", {("thursday", "unavailable")}),
        ("u: Sundays are sacred, it's family day.", {("sunday", "unavailable")}),
        # The idiom denied is the other way round.
        ("u: Monday is not a goer.", {("monday", "unavailable")}),
    ],
)
def test_idioms_for_a_day(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "u: My sister says Mondays are murder for parking round here.",
        'u: "Saturdays are sacred", my grandad always said.',
        "u: Dave at number four reckons Thursdays are no good.",
        "u: They said Fridays are fully booked.",
    ],
)
def test_somebody_elses_words_type_no_day(conversation: str) -> None:
    assert not days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: As I said, Mondays are no good.", {("monday", "unavailable")}),
        ("u: I've always said Fridays are best for me, and they are.", {("friday", "available")}),
        ("u: Like you said, Tuesday works.", {("tuesday", "available")}),
    ],
)
def test_the_callers_own_words_are_still_theirs(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert expected <= days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: five rads upstairs and two downstairs", {("radiator", "7 rads")}),
        ("u: Two radiators in the kitchen, three in the lounge.", {("radiator", "5 radiators")}),
        (
            "u: There's a radiator in the hallway, two in the dining room and four upstairs.",
            {("radiator", "7 radiators")},
        ),
        (
            "u: Four radiators on the ground floor, three on the first.",
            {("radiator", "7 radiators")},
        ),
        # A total said beside the parts agrees with them.
        ("u: 3 radiators upstairs and 2 downstairs, so 5 in total", {("radiator", "5 radiators")}),
        # Another thing with no place of its own does not stop the sum.
        (
            "u: six rads upstairs and two down and 2 boilers",
            {("radiator", "8 rads"), ("boiler", "2 boilers")},
        ),
    ],
)
def test_parts_each_in_a_place_add_up(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert of_kind(conversation, "equipment_count") == expected


@pytest.mark.parametrize(
    "conversation",
    [
        # A breakdown of the count, not more to add.
        "u: Three thermostats, two upstairs and one downstairs.",
        # A product.
        "u: two radiators in each bedroom and one in the hall",
        # The same place twice is a correction.
        "u: four radiators upstairs, well five upstairs",
        # A number of nothing.
        "u: four radiators upstairs and 3 that I don't know about",
        # A guess.
        "u: about four radiators upstairs and two downstairs",
    ],
)
def test_parts_that_are_no_sum_type_no_count(conversation: str) -> None:
    assert not {key for key, _ in of_kind(conversation, "equipment_count")} & {"radiator"}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("3 radiators upstairs and 2 downstairs, so 5 in total", {"radiator": "5 radiators"}),
        # A total that is not the parts' sum: which is right is a guess.
        ("3 radiators upstairs and 2 downstairs, so 6 in total", {}),
        ("three thermostats, two upstairs and one downstairs", {}),
        # The same place twice is a correction, not another part.
        ("four radiators upstairs and five upstairs", {}),
    ],
)
def test_the_sum_of_parts(said: str, expected: dict[str, str]) -> None:
    assert summed_parts(normal(said), EQUIPMENT) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: We've got two smoke alarms and a carbon monoxide detector.",
            {
                ("smoke alarm", "2 smoke alarms"),
                ("carbon monoxide alarm", "1 carbon monoxide detector"),
            },
        ),
        (
            "u: One gas meter and two electricity meters.",
            {("gas meter", "1 gas meter"), ("electric meter", "2 electricity meters")},
        ),
        (
            "u: There's 3 zone valves, a programmer and eight radiators.",
            {
                ("zone valve", "3 zone valves"),
                ("programmer", "1 programmer"),
                ("radiator", "8 radiators"),
            },
        ),
        # A word between the number and the thing leaves the count a count, not a part.
        (
            "u: Nine radiators, one heated towel rail and a single thermostat in the hall.",
            {
                ("radiator", "9 radiators"),
                ("towel rail", "1 towel rail"),
                ("thermostat", "1 thermostat"),
            },
        ),
        ("u: It's 2 wireless thermostats.", {("thermostat", "2 thermostats")}),
    ],
)
def test_what_callers_count(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert of_kind(conversation, "equipment_count") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: There are six radiators. | a: Six radiators, thanks. | "
            "u: Hang on, I've counted them again, it's seven.",
            {("radiator", "7 radiators")},
        ),
        (
            "u: We've four rads. | a: Four radiators. | "
            "u: Actually I've just been round, there are five.",
            {("radiator", "5 rads")},
        ),
        (
            "u: Ten radiators. | a: Ten, okay. | u: No, hold on, I counted again. Nine.",
            {("radiator", "9 radiators")},
        ),
    ],
)
def test_a_correcting_turns_bare_number_corrects_the_count(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert of_kind(conversation, "equipment_count") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: Wednesday's good. | a: Thanks. | u: Sorry, no, it isn't.",
            {("wednesday", "unavailable")},
        ),
        (
            "u: i'm free friday | a: lovely | u: oh hang on no i'm not i'm at the dentist",
            {("friday", "unavailable")},
        ),
    ],
)
def test_a_correcting_turns_bare_denial_is_of_the_last_day(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "day"),
    [
        # Not a bare denial: the "not" is of something else, and turns no day round (the
        # correcting turn that types nothing leaves the day in doubt, as it did before).
        (
            "u: Mondays are fine. | a: Great. | u: Sorry, it isn't the boiler, it's the radiators.",
            "monday",
        ),
        (
            "u: Thursdays suit me. | a: Noted. | u: Sorry, that's not my mobile, it's my landline.",
            "thursday",
        ),
        (
            "u: Fridays are good. | a: Noted. | "
            "u: Actually, that's not all, Saturdays are good too.",
            "friday",
        ),
    ],
)
def test_a_not_of_something_else_turns_no_day_round(conversation: str, day: str) -> None:
    assert (day, "unavailable") not in days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # Speech-to-text drops the comma before an answering "no" with a subject of its own.
        (
            "u: er tuesday and thursday no they're no good for me",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        # Each day with a negated predicate of its own, the comma dropped.
        (
            "u: cant do tuesday cant do thursday",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "u: wont do monday cant do friday everything else is fine",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
        # ... but "it's saturdays I can't do" keeps its day.
        (
            "u: no sorry fridays are fine its saturdays i cant do",
            {("friday", "available"), ("saturday", "unavailable")},
        ),
        # Days cut short, as written.
        ("u: I can't do Tue or Thurs.", {("tuesday", "unavailable"), ("thursday", "unavailable")}),
        ("u: Sat and Sun are fine.", {("saturday", "available"), ("sunday", "available")}),
        # "Sun" alone, and "wed" (we'd) in speech-to-text, are words.
        ("u: Sun's out, I'll be in the garden.", set()),
        ("u: wed like someone on monday", set()),
        # The rest of the week is not the days said before it.
        ("u: Tuesday and Friday, no. Rest of the week's fine.", set()),
        ("u: Tuesday's out. Everything else is fine.", {("tuesday", "unavailable")}),
    ],
)
def test_lists_of_days_said_as_callers_say_them(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A street said in speech-to-text, with its town or "that's the address" after it.
        ("u: its 12 ash grove in keighley", {(None, "12 Ash Grove")}),
        ("u: er 4 canal street thats the address", {(None, "4 Canal Street")}),
        # A house with a name and no number, as written.
        ("u: It's Holly Cottage, Mill Lane, Bampton.", {(None, "Holly Cottage, Mill Lane")}),
        ("u: We're at The Old Barn.", {(None, "The Old Barn")}),
        # Not when the name is not the whole clause, or is not capitalised.
        ("u: The Old Barn is where my brother lives.", set()),
        ("u: it's the farm at the end", set()),
        ("u: its ivy cottage", set()),
    ],
)
def test_addresses_as_callers_say_them(
    conversation: str, expected: set[tuple[str | None, str]]
) -> None:
    assert of_kind(conversation, "address") == expected


@pytest.mark.parametrize(
    ("conversation", "words"),
    [
        ("u: there's about thirty steps up to the front door", "steps"),
        ("u: The back gate sticks, you'll need to lift it.", "gate sticks"),
        ("u: there's a ramp at the side for the trolley", "ramp"),
        ("u: ignore the satnav it takes you round the back of the estate", "satnav"),
    ],
)
def test_the_way_in_is_kept_in_the_callers_words(conversation: str, words: str) -> None:
    kept = [f.value for f in facts(conversation) if f.kind == "access_notes"]
    assert kept and words in kept[0]


@pytest.mark.parametrize(
    ("conversation", "kind", "expected"),
    [
        # The agent's question with its question mark left off in the transcript.
        ("a: which floor are you on | u: er third", "floor", {(None, "3rd floor")}),
        ("a: and whats the flat number | u: forty one", "flat", {(None, "Flat 41")}),
        (
            "a: how many radiators have you got | u: eleven",
            "equipment_count",
            {("radiator", "11 radiators")},
        ),
        # "And thermostats?": how many of the next thing, and the first count stands.
        (
            "a: How many radiators? | u: Six. | a: And thermostats? | u: Two.",
            "equipment_count",
            {("radiator", "6 radiators"), ("thermostat", "2 thermostats")},
        ),
        (
            "a: Any towel rails? | u: One, in the bathroom.",
            "equipment_count",
            {("towel rail", "1 towel rail")},
        ),
        # A statement is no question: a bare number after it is nothing.
        ("a: Lovely, thanks for that. | u: Eleven.", "equipment_count", set()),
        ("a: I'll tell the engineer what floor it is. | u: Third.", "floor", set()),
    ],
)
def test_answers_to_the_agents_questions(
    conversation: str, kind: str, expected: set[tuple[str | None, str]]
) -> None:
    assert of_kind(conversation, kind) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "a: Is your wife usually in on Tuesdays? | u: Yes.",
        "a: Does he work Fridays? | u: No.",
        "a: is your son home on mondays | u: yeah he is",
    ],
)
def test_a_yes_to_a_question_about_somebody_else_types_no_day(conversation: str) -> None:
    assert not days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The reason after a finished predicate is a clause of its own: "my shift" is not
        # said of the day.
        (
            "u: fridays are no good | a: ok | "
            "u: oh wait actually fridays are fine now i changed my shift",
            {("friday", "available")},
        ),
        # "that was last week" takes back the day said before it.
        (
            "u: I'm away Monday, wait, that was last week. This week I'm away Friday.",
            {("friday", "unavailable")},
        ),
        # "in work" is at work.
        ("u: thursday i'm in work", {("thursday", "unavailable")}),
        # Kept free, then: for visits, or clear of them? Which way now is a guess.
        ("u: We used to keep Tuesdays free for things like this.", set()),
        ("u: Keep Tuesdays free please, that's my gym day.", {("tuesday", "unavailable")}),
    ],
)
def test_days_the_wrong_way_round_on_the_spent_sets(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "nor" and "neither" after a day go on the list under the negation before them.
        (
            "u: I can't do Monday nor Thursday.",
            {("monday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "u: tuesdays and wednesdays no good and er fridays neither",
            {("tuesday", "unavailable"), ("wednesday", "unavailable"), ("friday", "unavailable")},
        ),
        # "so not those": the days before are the ones that do not work.
        (
            "u: I'm at work Mondays and Thursdays, so not those.",
            {("monday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "u: Wednesdays and Fridays are my busy days, so neither of them.",
            {("wednesday", "unavailable"), ("friday", "unavailable")},
        ),
        # The reason after the days a negation names is a clause of its own.
        (
            "u: not tuesday or thursday im on lates",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
    ],
)
def test_lists_under_one_negation(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "words"),
    [
        ("u: my husbandll be in all day", "husband"),
        ("u: my sisters stopping with us so shell let you in", "sister"),
        ("u: My partner and I will both be in.", "partner"),
        ("u: My dad lives with us and he's always in.", "dad"),
        ("u: I'll be there myself.", "myself"),
        ("u: The site manager will let the engineer in.", "site manager"),
        ("u: My better half will be home.", "better half"),
        ("u: My lodger will be the one to let you in.", "lodger"),
        # A question tagged on for the agent leaves the statement a statement.
        ("u: My grandson will be home, he's seventeen - is that okay?", "grandson"),
    ],
)
def test_who_lets_the_engineer_in(conversation: str, words: str) -> None:
    kept = [f.value for f in facts(conversation) if f.kind == "who_home"]
    assert kept and words in kept[0].casefold()


@pytest.mark.parametrize(
    "conversation",
    [
        # Not a statement with a question tagged on: a question.
        "u: Is that okay?",
        "u: Would my son being home be okay?",
    ],
)
def test_a_question_is_still_no_statement(conversation: str) -> None:
    assert not [f for f in facts(conversation) if f.kind == "who_home"]


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: Whatever day suits you apart from Monday.",
            {("availability", "monday", "unavailable")},
        ),
        (
            "u: only wednesdays sorry",
            {("preferred_day", None, "wednesday only"), ("availability", "wednesday", "available")},
        ),
        (
            "u: its thursdays or nothing for me",
            {("preferred_day", None, "thursday only"), ("availability", "thursday", "available")},
        ),
        (
            "u: i can do saturdays and thats it",
            {("preferred_day", None, "saturday only"), ("availability", "saturday", "available")},
        ),
        # "whatever" on its own is still a shrug.
        ("u: mondays are fine, whatever", set()),
        # A "sorry" after days said before still narrows them.
        (
            "u: Mondays and Tuesdays are no good. Just Mondays, sorry.",
            {("availability", "monday", "unavailable")},
        ),
    ],
)
def test_the_one_day(conversation: str, expected: set[tuple[str, str | None, str]]) -> None:
    assert typed(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # How many changed is not how many there are; the total said after is the count.
        (
            "u: We've put in three more radiators, so it's ten in total now.",
            {("radiator", "10 radiators")},
        ),
        ("u: we added two radiators upstairs", set()),
        ("u: we've fitted two radiators", set()),
        ("u: we bought two thermostats", set()),
        ("u: they took out two radiators last year", set()),
        # The number said now, of the thing the sentence counts.
        ("u: we had five radiators now there's seven", {("radiator", "7 radiators")}),
        # A number said now with no count in the sentence is no count.
        (
            "u: We've got six radiators. We redid the bathroom and now there are two sinks.",
            {("radiator", "6 radiators")},
        ),
    ],
)
def test_a_count_that_changed(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert of_kind(conversation, "equipment_count") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: its one of them combination boilers", {(None, "combi")}),
        ("u: It's one of those back boilers behind the fire.", {(None, "back boiler")}),
        ("u: we've got a system one with a cylinder", {(None, "system")}),
        ("u: The boiler's a system type.", {(None, "system")}),
        # "an old back boiler" is an aged one, not a former one ...
        ("u: We've got an old back boiler.", {(None, "back boiler")}),
        # ... but "the old boiler" was.
        ("u: The old boiler was a back boiler, it's a combi now.", {(None, "combi")}),
    ],
)
def test_the_type_of_boiler(conversation: str, expected: set[tuple[None, str]]) -> None:
    assert of_kind(conversation, "boiler_type") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: best on the landline really", {(None, "landline")}),
        ("u: The best way to get me is my mobile.", {(None, "mobile")}),
        ("u: best number is the house phone", {(None, "landline")}),
        # Not when it was so.
        ("u: the best number used to be the landline", set()),
        ("u: we had it best on the landline", set()),
    ],
)
def test_the_phone_named_best(conversation: str, expected: set[tuple[None, str]]) -> None:
    assert of_kind(conversation, "contact_preference") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A "no" or "not at all" that agrees with the negation beside it.
        ("u: i wont be around thursday no", {("thursday", "unavailable")}),
        ("u: i'm not free mondays not at all", {("monday", "unavailable")}),
        # A positive word negated, then the reason, the comma dropped.
        (
            "u: friday wont be possible im at my sisters every friday",
            {("friday", "unavailable")},
        ),
        ("u: Tuesday's completely clear for me.", {("tuesday", "available")}),
    ],
)
def test_negations_said_twice(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_not_at_all_on_its_own_is_no_agreeing_negation() -> None:
    assert ("monday", "unavailable") not in days("a: Is Monday a problem? | u: Not at all.")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The thing named alone, how many said next.
        (
            "u: Radiators: nine. Thermostats: two.",
            {("radiator", "9 radiators"), ("thermostat", "2 thermostats")},
        ),
        # A product said whole, nothing else counted beside it.
        ("u: There's a radiator in each of the five rooms.", {("radiator", "5 radiators")}),
        ("u: two radiators in each of the four bedrooms", {("radiator", "8 radiators")}),
        # A product with more to add, or a total beside it, is left to the caller.
        ("u: a radiator in each of the three bedrooms and one in the lounge", set()),
        ("u: one radiator in each of the three bedrooms, four in total", set()),
    ],
)
def test_counts_said_other_ways(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert of_kind(conversation, "equipment_count") == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # Read after sets 17 and 18 were scored (spent): no held-out figure.
        ("u: Every day's fine barring Thursday.", {("thursday", "unavailable")}),
        ("u: From now on I can do Thursdays \u2013 my hours changed.", {("thursday", "available")}),
        (
            "u: mondays no good | a: ok | u: actually mondays are fine now my rota got changed",
            {("monday", "available")},
        ),
        ("u: Thursday's out, I'm away till the Friday.", {("thursday", "unavailable")}),
        (
            "u: It's not that I mind Wednesdays \u2013 Wednesdays are fine, it's the mornings.",
            {("wednesday", "available")},
        ),
        ("u: Tuesday is likely to be fine, I'll double-check.", set()),
        # A bare denial after "no" takes back the day: said both ways, it is kept as words.
        ("u: I can do Monday, well, no I can't.", set()),
    ],
)
def test_read_after_sets_17_and_18(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_couple_of_things_then_the_number_is_of_them() -> None:
    counts = of_kind(
        "u: Nine radiators and a couple of thermostats - two, I mean.", "equipment_count"
    )
    assert ("thermostat", "2 thermostats") in counts
    assert ("radiator", "2 radiators") not in counts


def test_only_just_is_barely_not_the_only_day() -> None:
    assert typed("u: Saturday's only just possible.") == {("availability", "saturday", "available")}
