"""Round 13 of the rule reader, tuned on sets 1-11 for recall without losing precision:
speech-to-text's "were" for "we're", a house number's letter before any street word, and the
words callers use for getting in, parking, who is home and pets. Phrasings of its own (not
the scored sets')."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind


def words(conversation: str, kind: str) -> list[str]:
    """What a worded kind (parking, pets, access, who is home, the meter) kept."""
    return [f.value for f in facts(conversation) if f.kind == kind]


# -- speech-to-text "were" for "we're" -------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "kind", "value"),
    [
        ("u: were on the ninth floor", "floor", "9th floor"),
        ("u: yeah were at number forty one birch road", "address", "41 Birch Road"),
        ("u: were in the basement flat by the bins", "floor", "basement"),
    ],
)
def test_stt_were_with_no_subject_before_it_is_we_are(said: str, kind: str, value: str) -> None:
    assert of_kind(said, kind) == {(None, value)}


def test_a_past_were_with_its_subject_before_it_is_still_past() -> None:
    assert not of_kind("u: the old radiators were on the second floor", "floor")


def test_a_house_number_letter_joins_before_any_street_word() -> None:
    assert of_kind("u: we are at 7 b orchard rise", "address") == {(None, "7b Orchard Rise")}


# -- floors said as one word -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("u: We rent the third-floor flat, number 31.", "3rd floor"),
        ("u: It's a top-floor studio.", "top floor"),
        ("u: a ground-floor flat round the back", "ground floor"),
    ],
)
def test_a_floor_said_with_a_hyphen_is_the_floor(said: str, value: str) -> None:
    assert of_kind(said, "floor") == {(None, value)}


def test_the_lower_ground_floor_is_the_basement() -> None:
    assert of_kind("u: Ours is the lower-ground-floor flat.", "floor") == {(None, "basement")}
    assert of_kind("u: we're on the lower ground floor", "floor") == {(None, "basement")}


# -- addresses -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("u: We live at number nine, Foxglove Lane.", "9 Foxglove Lane"),
        ("u: The house is number 14, Quarry Road.", "14 Quarry Road"),
        ("u: I live at number 5 Tanners Close", "5 Tanners Close"),
        (
            "u: Since March we've moved to number 6 Tanners Close, so update that.",
            "6 Tanners Close",
        ),
    ],
)
def test_a_house_number_said_with_number_and_its_street_after_a_comma(
    said: str, value: str
) -> None:
    assert of_kind(said, "address") == {(None, value)}


def test_which_house_on_the_street_follows_the_address() -> None:
    said = "u: its sixty one mill road the one with the caravan outside"
    assert of_kind(said, "address") == {(None, "61 Mill Road")}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("a: whats the address | u: nineteen westgate", "19 Westgate"),
        ("a: Can I take your address? | u: Yes, 7 Broadway, Leeds.", "7 Broadway"),
    ],
)
def test_a_number_and_a_name_answering_the_address_question(said: str, value: str) -> None:
    assert of_kind(said, "address") == {(None, value)}


@pytest.mark.parametrize(
    "said",
    [
        "a: Can I take your address? | u: Twenty minutes.",
        "a: What's the address? | u: two radiators",
        "u: 19 westgate",  # not asked: a number and a name could be anything
        "a: What's the address? | u: 4 sorry",
    ],
)
def test_a_number_and_a_word_is_no_address_unless_it_answers_for_one(said: str) -> None:
    assert not of_kind(said, "address")


# -- getting in ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: The hot water tank's in the loft, so you'll need a ladder.",
        "u: Flats have a concierge, sign in with him first.",
        "u: We're at the bottom of a bumpy track off the main road.",
        "u: The side gate's padlocked, I'll open it in the morning.",
        "u: Please go round the back, nobody uses the front.",
        "u: The front door is jammed, use the side.",
        "u: The keys are under the plant pot.",
        "u: Heads up, the lift is out of order.",
        "u: Our way in is through the garage.",
    ],
)
def test_how_to_get_in_is_kept_as_an_access_note(said: str) -> None:
    assert words(said, "access_notes") == [said.removeprefix("u: ").rstrip(".")]


@pytest.mark.parametrize(
    "said",
    [
        "u: The heat pump sits round the side of the house.",
        "u: We keep track of the boiler services ourselves.",
        "u: No need to bring a ladder, there's one in the shed.",
    ],
)
def test_a_place_or_a_track_that_is_no_way_in_is_no_access_note(said: str) -> None:
    assert not words(said, "access_notes")


# -- parking ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: parkings round the back usually",
        "u: Best bet is the lay-by past the church.",
        "u: There's a loading bay by the chippy.",
        "u: Use the residents' bay, they never check.",
        "u: Stick the van on the gravel by the hedge.",
        "u: Leave the car in the forecourt.",
        "u: just pull up on the verge",
        "u: Honestly just use the road.",
        "u: loads of room on the street most days",
    ],
)
def test_where_a_van_can_stop_is_kept_as_parking(said: str) -> None:
    assert words(said, "parking") == [said.removeprefix("u: ").rstrip(".")]


def test_the_street_the_house_is_on_is_no_parking() -> None:
    assert not words("u: We're on the high street above the bakery.", "parking")


# -- who is home -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: my brother will be in hes on nights",  # a run-on's next subject
        "u: our granddaughter will be there in the morning",
        "u: The lodger can open the door for your chap.",
        "u: My partner will let the tech in, hes off that day.",
        "u: Our neighbour, Pat, will pop round to let you in.",
        "u: my dad lives with us hell be home",  # speech-to-text's "he'll"
        "u: Our tenant, Jo, will be in to open up.",
    ],
)
def test_who_will_be_at_the_visit_is_kept(said: str) -> None:
    assert words(said, "who_home") == [said.removeprefix("u: ").split("  #")[0].rstrip(".")]


@pytest.mark.parametrize(
    "said",
    [
        "u: I can't be home that day, but my husband will.",
        "a: Will you be in yourself? | u: No, my daughter will.",
    ],
)
def test_somebody_with_only_the_auxiliary_answers_who_is_home(said: str) -> None:
    assert words(said, "who_home")


def test_a_relative_named_without_my_in_a_note_is_who_is_home() -> None:
    from datetime import date

    from memory.extract import Turn, extract_call_facts

    kept = extract_call_facts(
        [Turn("user", "That's all, thanks.")],
        ["Daughter will let engineer in."],
        today=date(2026, 12, 3),
        call_id="call-1",
    )
    assert [f.value for f in kept if f.kind == "who_home"]


@pytest.mark.parametrize(
    "said",
    [
        "u: My son's in flat 9, I'm in 11.",
        "u: My son will be in flat 9 from March.",
        "u: My sister has got a dog, but she won't be there.",
        "u: I can't do Fridays but my husband can.",
    ],
)
def test_where_somebody_lives_or_what_they_can_do_is_not_who_is_home(said: str) -> None:
    assert not words(said, "who_home")


# -- pets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "u: There's a goldfish in the kitchen.",
        "u: Only the fish tank, nothing that moves much.",
        "u: We've got a staffie called Rocky.",
        "u: theres a jack russell hes loud",
        "u: Our Great Dane sleeps in the hall.",
    ],
)
def test_fish_and_dogs_named_by_breed_are_pets(said: str) -> None:
    assert words(said, "pets")


@pytest.mark.parametrize(
    "said",
    [
        "u: three cats they'll probably be asleep",
        "u: the dog might be out with my son",
    ],
)
def test_a_doubt_after_the_animal_is_about_what_it_does_not_whether_it_is_there(
    said: str,
) -> None:
    assert words(said, "pets")


@pytest.mark.parametrize(
    "said",
    [
        "u: We might get a puppy next year.",
        "u: I think we've got a cat somewhere.",
        "u: The people before had a dog I think.",
        "u: We're having fish and chips tonight.",
    ],
)
def test_a_doubted_or_past_or_eaten_animal_is_no_pet(said: str) -> None:
    assert not words(said, "pets")


# -- days ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: not wednesday i can't do wednesday", {("wednesday", "unavailable")}),
        (
            "u: not mondays not fridays i'm at the allotment them days",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
        (
            "u: we're not home tuesdays we're not home saturdays either",
            {("tuesday", "unavailable"), ("saturday", "unavailable")},
        ),
        ("u: er we don't do fridays nobody's in on a friday", {("friday", "unavailable")}),
    ],
)
def test_a_negated_day_run_on_into_a_new_subject_is_two_clauses(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


def test_no_no_before_a_day_is_no_run_on_split() -> None:
    # "no no" is one emphatic no; the reader is not sure of two and must not flip the day.
    assert ("thursday", "available") not in days(
        "a: Is Thursday okay? | u: no no thursdays i'm never in on a thursday"
    )
    assert ("thursday", "available") not in days(
        "a: Is Thursday okay? | u: no no thursdays i'm at work"
    )


@pytest.mark.parametrize(
    "said",
    [
        "u: Wednesdays are a no. I'm in Cardiff every Wednesday.",
        "u: i'm in bristol every wednesday",
        "u: I'm over in Hull on Wednesdays for work.",
    ],
)
def test_in_somewhere_else_on_a_day_is_not_at_home(said: str) -> None:
    assert ("wednesday", "available") not in days(said)


@pytest.mark.parametrize(
    "said", ["u: I'm in on Wednesdays.", "u: we're in all day wednesdays", "u: i'm in wednesdays"]
)
def test_in_said_alone_is_still_at_home(said: str) -> None:
    assert days(said) == {("wednesday", "available")}


def test_a_day_that_does_not_happen_does_not_work() -> None:
    assert days("u: saturdays just don't happen for us") == {("saturday", "unavailable")}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "u: Mondays are out. | a: Noted, not Mondays. | u: Hang on, I've looked at the diary, "
            "Mondays are fine. It's Wednesdays I'm at the hospital.",
            {("monday", "available")},
        ),
        (
            "u: We can't do Tuesday or Friday. | a: Tuesday and Friday are out. "
            "| u: Sorry, only Tuesday. Friday we can do.",
            {("tuesday", "unavailable"), ("friday", "available")},
        ),
    ],
)
def test_a_correcting_turn_keeps_what_it_said_again_before_its_next_sentence(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert expected <= days(said)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: We can't really do Fridays.", {("friday", "unavailable")}),
        ("u: i cant usually do mondays", {("monday", "unavailable")}),
        ("u: I can always do Tuesdays.", {("tuesday", "available")}),
    ],
)
def test_an_adverb_between_can_and_do_is_still_the_verb(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


def test_do_at_the_end_before_a_run_on_subject_is_the_verb() -> None:
    said = "u: wednesdays i cant do im down the allotment every wednesday"
    assert days(said) == {("wednesday", "unavailable")}


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: Thursday I can't, I'm afraid.", {("thursday", "unavailable")}),
        ("u: sundays we cant", {("sunday", "unavailable")}),
        ("a: Is Monday any good? | u: Monday we can.", {("monday", "available")}),
    ],
)
def test_can_with_its_verb_left_out_is_said_of_the_day(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


def test_doing_something_else_on_a_day_is_still_no_predicate() -> None:
    assert not days("u: I do the car boot every Sunday, we are at the field all day.")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("u: mondays no i cant do mondays", {("monday", "unavailable")}),
        ("u: er saturdays no saturdays dont suit us", {("saturday", "unavailable")}),
        ("u: thursdays no not thursdays im on the rota", {("thursday", "unavailable")}),
    ],
)
def test_a_day_then_no_then_the_reason_is_the_day_answered_no(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert days(said) == expected


def test_a_day_then_no_good_is_still_one_clause() -> None:
    assert days("u: fridays no good for me") == {("friday", "unavailable")}


# -- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "u: Two boilers, one in the cellar and one in the barn.",
            {("boiler", "2 boilers")},
        ),
        (
            "u: We've 8 radiators and 2 thermostats, one for each floor.",
            {("radiator", "8 radiators"), ("thermostat", "2 thermostats")},
        ),
        ("u: two boilers one for each wing", {("boiler", "2 boilers")}),
    ],
)
def test_where_each_of_a_count_is_does_not_put_the_count_in_doubt(
    said: str, expected: set[tuple[str, str]]
) -> None:
    assert of_kind(said, "equipment_count") == expected


@pytest.mark.parametrize(
    "said",
    [
        "u: Six radiators, and one in the kitchen.",  # one more: a sum left to us
        "u: Three radiators in the kitchen, one in each bedroom.",  # the count is one room's
        "u: Two thermostats, one in the hall.",  # one placed of two: the other is not said
        "u: five radiators one in each of the two bathrooms",  # a product left to us
    ],
)
def test_a_count_with_more_to_add_stays_in_doubt(said: str) -> None:
    assert not of_kind(said, "equipment_count") & {
        ("radiator", "6 radiators"),
        ("radiator", "3 radiators"),
        ("thermostat", "2 thermostats"),
        ("radiator", "5 radiators"),
    }


# -- how to reach the caller -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("u: Could you text me instead? I'm never near the landline.", "text message"),
        ("u: can you email rather than ring from now on", "email"),
        ("u: Would you call rather than email in future?", "phone call"),
    ],
)
def test_a_question_asking_for_a_channel_instead_is_the_preference(said: str, value: str) -> None:
    assert of_kind(said, "contact_preference") == {(None, value)}


@pytest.mark.parametrize(
    "said",
    [
        "u: Could you text me the code when you get here?",
        "u: can you email me the quote",
        "u: Could you ring the office instead of me? No, sorry, ignore that.",
    ],
)
def test_a_question_asking_for_one_message_is_no_preference(said: str) -> None:
    assert not of_kind(said, "contact_preference") & {(None, "text message"), (None, "email")}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("u: I'd much rather you texted.", "text message"),
        ("u: Honestly I'd rather you emailed me.", "email"),
        ("u: We'd rather you phoned than emailed.", "phone call"),
    ],
)
def test_rather_you_with_a_past_tense_channel_is_the_preference(said: str, value: str) -> None:
    assert of_kind(said, "contact_preference") == {(None, value)}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("u: My wife likes emails, but I'd like a phone call.", "phone call"),
        ("u: honestly i like texts", "text message"),
        ("u: Mobile only, please.", "mobile"),
        ("u: landline only i never have the mobile on", "landline"),
    ],
)
def test_what_the_caller_likes_or_the_only_phone_is_the_preference(said: str, value: str) -> None:
    assert of_kind(said, "contact_preference") == {(None, value)}


def test_a_phone_denied_alone_after_the_only_one_is_not_the_preference() -> None:
    said = "u: Ring the landline only - no mobile."
    assert of_kind(said, "contact_preference") == {(None, "landline")}


def test_a_bracketed_aside_in_a_note_is_a_clause_of_its_own() -> None:
    from datetime import date

    from memory.extract import Turn, extract_call_facts

    kept = extract_call_facts(
        [Turn("user", "That's everything.")],
        ["Caller cannot do Thursdays (works at the depot)."],
        today=date(2026, 12, 3),
        call_id="call-1",
    )
    assert {(f.kind, f.key, f.value) for f in kept if f.kind == "availability"} == {
        ("availability", "thursday", "unavailable")
    }


def test_a_pair_of_things_is_two() -> None:
    said = "u: We've got nine radiators and a pair of storage heaters."
    assert of_kind(said, "equipment_count") == {
        ("radiator", "9 radiators"),
        ("storage heater", "2 storage heaters"),
    }
