"""Round 17: corrections made a clause late or with "well", clauses split at an en dash,
"oh, and" adding, a hedge said again surely, and words that looked like facts but were not (a
phone handled, a day "off", a guess offered as "or ..."). Phrased for these tests, not taken
from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind, quoted, typed


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # The words after "no wait" name nothing; the clause after them is the correction.
        (
            "u: Tuesday's fine, no wait, what am I on about, it's Thursday that's fine.",
            {("thursday", "available")},
        ),
        # "sorry" before a reason that names nothing of the kind corrects nothing, and "I'm
        # organist" after it is no word about the day.
        (
            "u: Sundays are out, sorry, church all morning, and I'm organist.",
            {("sunday", "unavailable")},
        ),
    ],
)
def test_a_correction_that_names_nothing_yet(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "wrong"),
    [
        ("u: We're on the first floor, well, the ground floor really.", "1st floor"),
        ("u: I'm on the fifth floor, well, sixth really.", "5th floor"),
    ],
)
def test_well_before_another_value_of_the_kind_corrects_it(conversation: str, wrong: str) -> None:
    assert (None, wrong) not in of_kind(conversation, "floor")


def test_a_value_put_right_really_is_read_and_no_later_floor_is_kept() -> None:
    conversation = "u: I'm on the fourth floor, well, fifth really, the ground floor counts as one."
    assert not of_kind(conversation, "floor")
    assert quoted(conversation)


def test_well_before_the_same_day_says_it_again() -> None:
    conversation = "u: Mondays are no good, I'm in Leeds all day. Well, Mondays anyway."
    assert days(conversation) == {("monday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Thursday won't work – I'm at my mum's all day.", {("thursday", "unavailable")}),
        ("u: Monday – no, sorry – Tuesday is the one I can't do.", {("tuesday", "unavailable")}),
    ],
)
def test_an_en_dash_ends_a_clause(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_correction_after_an_en_dash() -> None:
    assert of_kind("u: Flat nine – no, nineteen.", "flat") == {(None, "Flat 19")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: Five radiators – oh, and a towel rail in the bathroom.",
            {("radiator", "5 radiators"), ("towel rail", "1 towel rail")},
        ),
        (
            "u: Eight radiators. Oh, and there's three more in the loft room, so eleven "
            "altogether.",
            {("radiator", "11 radiators")},
        ),
    ],
)
def test_oh_and_adds(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert of_kind(conversation, "equipment_count") == expected


def test_a_hedge_said_again_with_a_yes_is_sure() -> None:
    assert of_kind("u: A system boiler, I think – yes, a system boiler.", "boiler_type") == {
        (None, "system")
    }
    assert not of_kind("u: A system boiler, I think.", "boiler_type")
    # A yes to the caller's own guess, saying nothing again, is still the guess.
    assert not of_kind("u: A system boiler, I think – yes.", "boiler_type")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Email me please, I keep losing my phone.", "email"),
        ("u: Text is best, I'm forever dropping my mobile in the bath.", "text message"),
    ],
)
def test_a_phone_handled_is_no_way_to_reach_the_caller(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "contact_preference") == {(None, expected)}


def test_an_or_after_the_callers_own_question_is_a_guess() -> None:
    assert not of_kind("u: Is it an Ideal? Or Baxi.", "equipment_make")
    assert of_kind("u: Is it an Ideal? Baxi, definitely Baxi.", "equipment_make") == {
        (None, "Baxi")
    }


def test_a_day_that_is_off_is_a_guess() -> None:
    # The caller's day off, or the day ruled out: the words are kept, no fact.
    assert not days("u: Saturdays are off.")
    assert quoted("u: Saturdays are off.")
    assert days("u: I'm off on Saturdays.") == {("saturday", "available")}


def test_a_boiler_that_came_out_is_not_the_one_there() -> None:
    conversation = "u: It's a system boiler now, the back boiler came out years ago."
    assert of_kind(conversation, "boiler_type") == {(None, "system")}


def test_just_before_what_the_caller_is_doing_is_no_only() -> None:
    conversation = "u: Wednesday suits me, I'm just pottering about at home Wednesdays."
    assert not of_kind(conversation, "preferred_day")
    assert days(conversation) == {("wednesday", "available")}
    assert of_kind("u: Just Wednesdays.", "preferred_day") == {(None, "wednesday only")}


def test_a_count_of_rooms_worth_is_no_count_of_rooms() -> None:
    conversation = "u: Ten radiators and two bedrooms' worth of storage heaters."
    assert of_kind(conversation, "equipment_count") == {("radiator", "10 radiators")}


def test_a_day_both_the_only_one_and_out_is_neither() -> None:
    conversation = "u: Friday's the only day I can do, actually no, Friday's out too."
    assert not {
        fact for fact in typed(conversation) if fact[0] in ("availability", "preferred_day")
    }


@pytest.mark.parametrize(
    "conversation",
    [
        "u: The boiler's a combi, or at least that's what the last bloke said.",
        "u: Mondays are out, or at least they were last I checked.",
        "u: Apparently it's a system boiler.",
    ],
)
def test_a_doubt_said_after_the_statement(conversation: str) -> None:
    assert not typed(conversation)


def test_at_least_a_number_in_words_is_a_guess() -> None:
    assert not of_kind("u: At least two radiators need bleeding.", "equipment_count")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Tuesday suits, although thinking about it, no, Tuesday's my pilates.", set()),
        (
            "u: Tuesday suits, although thinking about it, no, Tuesday's fine.",
            {("tuesday", "available")},
        ),
    ],
)
def test_a_correction_naming_a_day_said_before_in_the_sentence(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Next week Sunday's no good, but usually it's fine.", set()),
        ("u: Sunday next week is no good.", set()),
        ("u: from next week sundays are out", {("sunday", "unavailable")}),
        ("u: from next week monday is no good", {("monday", "unavailable")}),
    ],
)
def test_a_day_of_next_week_is_one_day(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: any day but monday er mondays are bad", {("monday", "unavailable")}),
        (
            "u: i can't do friday | a: Friday is out, noted. | u: oh no wait i can do friday it's "
            "thursday i can't",
            {("friday", "available"), ("thursday", "unavailable")},
        ),
        # A weekend day named, then "weekends" as its reason: not a word on the other day.
        ("u: saturday's no good we're away most weekends", {("saturday", "unavailable")}),
        ("u: weekends are out", {("saturday", "unavailable"), ("sunday", "unavailable")}),
        # The weekdays named after "weekdays" are the ones meant.
        (
            "u: um the weekdays monday tuesday are a no no for me",
            {("monday", "unavailable"), ("tuesday", "unavailable")},
        ),
        # "a big day in our house" is no "day in".
        ("u: Sunday's a big day in our house.", set()),
        ("u: Tuesday is my day in.", {("tuesday", "available")}),
        ("u: Friday? Sorry, my hands are tied on a Friday.", {("friday", "unavailable")}),
        ("u: Tuesday's a bit of a tall order.", {("tuesday", "unavailable")}),
        (
            "u: Thursdays are a bit hit and miss but Mondays are rock solid.",
            {("monday", "available")},
        ),
        # A correction of what the call said before, not of the clause before it.
        (
            "u: Friday's fine. | a: Noted. | u: Monday's fine as well. Oh hold on, I can't do "
            "Friday after all, I'm travelling.",
            {("monday", "available"), ("friday", "unavailable")},
        ),
    ],
)
def test_days_said_again_and_their_reasons(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_feeling_is_a_hedge() -> None:
    assert not typed("u: I've a feeling we're on the third floor, the numbering's odd here.")


def test_somebody_at_homes_word_against_the_callers_boiler() -> None:
    conversation = (
        "u: it's a system boiler | a: System boiler, thanks. | u: my daughter says it's a combi"
    )
    assert not of_kind(conversation, "boiler_type")


def test_make_that_a_channel_asked_as_a_question() -> None:
    conversation = (
        "u: Best to email me. | a: Email, noted. | u: Actually can you make that a text message?"
    )
    assert of_kind(conversation, "contact_preference") == {(None, "text message")}


@pytest.mark.parametrize(
    ("conversation", "kind", "expected"),
    [
        (
            "u: there's five radiators | a: Five radiators, thanks. | u: er six actually there's "
            "one in the loft room",
            "equipment_count",
            {("radiator", "6 radiators")},
        ),
        (
            "u: it's flat seven | a: Flat 7, thanks. | u: no sorry seventeen i'm half asleep",
            "flat",
            {(None, "Flat 17")},
        ),
    ],
)
def test_a_value_put_right_with_the_correction_after_it(
    conversation: str, kind: str, expected: set[tuple[str | None, str]]
) -> None:
    assert of_kind(conversation, kind) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A day, then an agreeing "no": not "a ... no" said of the day.
        ("u: not on a wednesday no", {("wednesday", "unavailable")}),
        ("u: Wednesday's a big no.", {("wednesday", "unavailable")}),
        # "not for him" is said of somebody else.
        ("u: saturdays are good for me not for him", {("saturday", "available")}),
        ("u: Saturdays are good for me, not for my husband.", {("saturday", "available")}),
        ("u: saturdays are not for me", {("saturday", "unavailable")}),
        ("u: mondays are not with my shifts", {("monday", "unavailable")}),
        # "she" as a new subject, the comma dropped: her days, not the caller's.
        ("u: its my mums house im just calling for her she cant do mondays", set()),
    ],
)
def test_whose_negation_it_is(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_pet_brought_by_somebody_staying_is_in_the_house() -> None:
    conversation = "u: My aunt's staying with us and she's brought her dog, so it'll be here."
    assert any(fact.kind == "pets" for fact in facts(conversation))


def test_a_correction_in_the_sentence_takes_back_the_clause_before_it() -> None:
    conversation = "u: thursdays work for me. mondays are a no go, sorry, never on a thursday"
    assert days(conversation) == {("thursday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: um wensday is a non starter for me", {("wednesday", "unavailable")}),
        ("u: tuseday is no good", {("tuesday", "unavailable")}),
        ("u: thursdy works", {("thursday", "available")}),
        ("u: saterdays are out", {("saturday", "unavailable")}),
        ("u: friday's like a no go", {("friday", "unavailable")}),
        ("u: I'm never not in on a Wednesday.", {("wednesday", "available")}),
    ],
)
def test_days_as_speech_to_text_hears_them(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_value_said_anew_in_speech_to_text() -> None:
    assert of_kind("u: we've moved it's twelve church street", "address") == {
        (None, "12 Church Street")
    }


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "I beg your pardon" puts right what was said before it.
        ("u: I'm free Monday — I beg your pardon, Tuesday, Monday's my consultant.", set()),
        (
            "u: Friday, Saturday, Sunday are all a no for me.",
            {("friday", "unavailable"), ("saturday", "unavailable"), ("sunday", "unavailable")},
        ),
        # "sorry" and a reason that agrees: an apology, no correction.
        (
            "u: er no monday and no tuesday sorry im working",
            {("monday", "unavailable"), ("tuesday", "unavailable")},
        ),
        ("u: Fridays, well actually I can.", {("friday", "available")}),
        ("u: Sunday I'm all yours.", {("sunday", "available")}),
        ("u: Monday, I can't see why not.", {("monday", "available")}),
        ("u: wednesday is fine by me no dramas", {("wednesday", "available")}),
        (
            "u: So you can scratch Monday and Friday, those are my dialysis days.",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
        ("u: Mondays, scratch that, Tuesdays are out.", {("tuesday", "unavailable")}),
        ("u: aye monday nae chance", {("monday", "unavailable")}),
        ("u: Tuesday's nae bother.", {("tuesday", "available")}),
    ],
)
def test_more_ways_callers_say_a_day(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_floor_put_right_in_speech_to_text() -> None:
    conversation = "u: its the ground floor flat er no basement its the basement one"
    assert (None, "ground floor") not in of_kind(conversation, "floor")


def test_rooms_listed_before_a_total_are_where_things_are() -> None:
    conversation = "u: kitchen, lounge, three bedrooms, bathroom - that's seven radiators."
    assert of_kind(conversation, "equipment_count") == {("radiator", "7 radiators")}
    assert of_kind("u: Two bathrooms and six radiators.", "equipment_count") == {
        ("bathroom", "2 bathrooms"),
        ("radiator", "6 radiators"),
    }


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: ring the house phone my son sorts the mobile", "landline"),
        ("u: Please telephone me, I'm not one for these emails.", "phone call"),
    ],
)
def test_whose_phone_and_how(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "contact_preference") == {(None, expected)}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: friday is fine | a: Friday is fine, great. | u: actually no friday isnt fine "
            "im working",
            {("friday", "unavailable")},
        ),
        # A correction that ends its sentence naming nothing is made by the next one.
        (
            "u: Saturday's fine for me — oh hang on, no, it's my nephew's christening. "
            "Not Saturday.",
            {("saturday", "unavailable")},
        ),
        # ... but a make named in it is the correction, and the next sentence no change.
        ("u: Not Saturdays. I do the car boot every Saturday.", {("saturday", "unavailable")}),
    ],
)
def test_a_correction_across_the_sentence(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_correction_naming_the_value_leaves_nothing_open() -> None:
    conversation = "u: It's a Worcester — sorry, a Vaillant. The Worcester's in the flat I rent."
    assert (None, "Worcester Bosch") not in of_kind(conversation, "equipment_make")


def test_somebody_else_in_instead() -> None:
    conversation = (
        "u: my mum will be in | a: Your mum will be home, okay. | u: oh no she's at the "
        "hospital that day my uncle will be in instead"
    )
    home = [fact.value for fact in facts(conversation) if fact.kind == "who_home"]
    assert home and all("uncle" in value for value in home)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "it's just Tuesday" after a day put right, the comma dropped: Tuesday as before.
        (
            "u: mondays and tuesdays are out | a: so not monday or tuesday | u: sorry monday's "
            "fine it's just tuesday",
            {("monday", "available"), ("tuesday", "unavailable")},
        ),
        # A shift given up is no shift worked; a shift changed by them says the day changed.
        (
            "u: Tuesday and Wednesday are out. | a: Not Tuesday or Wednesday. | u: Just Tuesday "
            "actually, Wednesday I've swapped my shift.",
            {("tuesday", "unavailable")},
        ),
        (
            "u: wednesdays used to be my day off but they changed my shifts",
            {("wednesday", "unavailable")},
        ),
        # What the old job had the caller doing is then, not now.
        (
            "u: Nowadays I can do Wednesdays; the old job had me out every Wednesday.",
            {("wednesday", "available")},
        ),
        # "full stop" is emphasis, not a stop.
        ("u: i'm only free fridays after work well fridays full stop", {("friday", "available")}),
    ],
)
def test_days_in_corrections_and_changes(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_boiler_that_went_years_ago() -> None:
    conversation = (
        "u: It's a back boiler, sorry, no, it's a conventional one with the tank in the loft, "
        "the back boiler went years ago."
    )
    assert of_kind(conversation, "boiler_type") == {(None, "conventional")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: We've got five smoke alarms, six if you count the one in the garage.", set()),
        (
            "u: We have 2 bathrooms each with a towel rail, so 2 towel rails.",
            {("towel rail", "2 towel rails")},
        ),
        (
            "u: three bedrooms each with a radiator plus one in the lounge so four radiators",
            {("radiator", "4 radiators")},
        ),
        # A "so" that opens the sentence is no total.
        ("u: so four radiators downstairs and three upstairs", set()),
        # Only the count that is the total is sure, not "each with one radiator" beside it.
        (
            "u: Three bedrooms, each with one radiator, plus two in the lounge - five radiators "
            "altogether.",
            {("radiator", "5 radiators")},
        ),
    ],
)
def test_totals_and_counts_with_another_number(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert of_kind(conversation, "equipment_count") == expected


def test_a_thing_moved_takes_back_where_it_was() -> None:
    conversation = (
        "u: The meter is in the hallway cupboard. | a: The hallway cupboard, thank you. | "
        "u: Oh, they moved it. It's outside now, in a white box on the front wall."
    )
    assert not [fact for fact in facts(conversation) if fact.kind == "meter_location"]
    kept = "u: The meter is in the hallway cupboard. | a: Thanks. | u: Oh, and it's by the boiler."
    assert [fact for fact in facts(kept) if fact.kind == "meter_location"]


def test_now_just_one_of_the_days_that_used_to_be_free() -> None:
    free = "u: I used to be free on Fridays and Saturdays. Now it's just Saturdays."
    assert days(free) == {("friday", "unavailable"), ("saturday", "available")}
    # Said of days that used to be out, "just Saturdays" may be the one still out: a guess.
    out = "u: I used to be out on Fridays and Saturdays. Now it's just Saturdays."
    assert ("saturday", "available") not in days(out)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: Friday and Saturday are both no-goes.",
            {("friday", "unavailable"), ("saturday", "unavailable")},
        ),
        (
            "u: Monday, Tuesday, Wednesday are all taken.",
            {("monday", "unavailable"), ("tuesday", "unavailable"), ("wednesday", "unavailable")},
        ),
        # Time taken off is free time.
        ("u: I've taken Friday off work.", {("friday", "available")}),
        ("u: Mondays are spoken for.", {("monday", "unavailable")}),
        (
            "u: I won't be home Monday, nor Tuesday for that matter.",
            {("monday", "unavailable"), ("tuesday", "unavailable")},
        ),
    ],
)
def test_days_taken_and_lists_said_loosely(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "u: My grandson usually lets people in for me; he'll be here.",
        "u: My partner will be the one at home to let you in; I'm at work most of the time.",
    ],
)
def test_who_lets_the_engineer_in_said_loosely(conversation: str) -> None:
    assert [fact for fact in facts(conversation) if fact.kind == "who_home"]


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # A day said twice in speech-to-text, the reason after it.
        ("u: i can do any day except friday friday im away", {("friday", "unavailable")}),
        ("u: wensdays are free now since my class finished", {("wednesday", "available")}),
        # A question tag makes the sentence a question.
        ("u: i used to do tuesdays for you lot didnt i", set()),
        ("u: Mondays are good, aren't they?", set()),
        # The agent's last question is the one a "no" answers, not the days read back before it.
        (
            "a: Which days don't suit? | u: I can't do Wednesdays or Thursdays. | a: Wednesdays "
            "and Thursdays are out. And the boiler — is it a combi? | u: No, it's a system boiler.",
            {("wednesday", "unavailable"), ("thursday", "unavailable")},
        ),
        # A yes to a read-back of two days said two ways is no sign for both.
        (
            "a: Which days can't you do? | u: I can't do Friday, or rather I can do Friday but "
            "not Saturday. | a: So Friday's fine and Saturday's out? | u: Yes, that's right.",
            {("friday", "available"), ("saturday", "unavailable")},
        ),
        # A time of the day out is not the day out; a time of the day that works says it does.
        ("u: Wednesday mornings are bad but the afternoon's okay.", set()),
        ("u: Saturday mornings are fine, I'm always home then.", {("saturday", "available")}),
        # The "yes" ends the answer about the days before it.
        (
            "a: so monday tuesday and wednesday are out right | u: monday and wednesday yeah "
            "tuesday i can do",
            {("tuesday", "available")},
        ),
    ],
)
def test_read_backs_tags_and_times_of_day(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_the_one_day_and_another_said_to_work_after_it() -> None:
    conversation = (
        "a: which day can you do | u: thursday only | a: thursday only | u: actually friday's "
        "fine as well now my mum can have the kids"
    )
    assert not of_kind(conversation, "preferred_day")
    assert of_kind("u: just sat at home on mondays twiddling my thumbs", "preferred_day") == set()


@pytest.mark.parametrize(
    ("conversation", "kind", "expected"),
    [
        ("u: the couple in flat six they have the same boiler as us", "flat", set()),
        (
            "u: the key is in the key safe by the back door code is on the text",
            "contact_preference",
            set(),
        ),
        (
            "a: What floor are you on? | u: Fourth floor, sorry, fifth — I always forget we count "
            "the ground floor as zero.",
            "floor",
            {(None, "5th floor")},
        ),
        (
            "u: One boiler, one hot water cylinder, and two expansion tanks in the loft.",
            "boiler_type",
            set(),
        ),
        ("u: there's a tank in the loft", "boiler_type", {(None, "conventional")}),
        ("u: In my space, number 14 in the underground car park.", "address", set()),
        ("u: Yes, flat fourteen oh two.", "flat", {(None, "Flat 1402")}),
        ("u: eleventh floor flat eleven twelve", "flat", set()),
        ("u: its flat fourteen forty two queens road", "flat", {(None, "Flat 14")}),
    ],
)
def test_values_misread_before(
    conversation: str, kind: str, expected: set[tuple[str | None, str]]
) -> None:
    assert of_kind(conversation, kind) == expected


def test_the_callers_own_thing_compared_with_somebody_elses() -> None:
    conversation = "u: my mums got a vaillant same as me actually mines a baxi"
    assert of_kind(conversation, "equipment_make") == {(None, "Baxi")}


def test_a_reason_after_please_is_its_own_clause() -> None:
    conversation = (
        "a: best way to get hold of you | u: phone call please i cant see the screen very well "
        "for texts"
    )
    assert (None, "text message") not in of_kind(conversation, "contact_preference")
