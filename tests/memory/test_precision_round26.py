"""Round 26: days read back that were somebody else's, and days good for somebody else.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind, quoted, typed


def test_days_great_for_someone_else_are_not_the_callers() -> None:
    conversation = (
        "a: Which days? | u: Tuesdays are brilliant for my lodger, he works nights, "
        "but I can only do Fridays."
    )
    assert ("tuesday", "available") not in days(conversation)
    assert ("friday", "available") in days(conversation)


def test_a_no_to_her_days_read_back_says_nothing_of_the_callers() -> None:
    conversation = (
        "a: Any bad days? | u: My husband can't do Wednesdays. | a: So Wednesdays are out? "
        "| u: No, that's just him."
    )
    assert days(conversation) == set()


def test_a_no_with_the_callers_own_reason_still_says_the_day_works() -> None:
    conversation = "a: So Wednesdays are out? | u: No, that's my day off."
    assert days(conversation) == {("wednesday", "available")}


def test_a_day_said_not_to_be_the_best_is_not_ruled_out() -> None:
    conversation = "a: Which day is best? | u: Friday's my favourite day, not Monday."
    assert of_kind(conversation, "preferred_day") == {(None, "friday")}
    assert ("monday", "unavailable") not in days(conversation)


def test_not_a_day_alone_still_rules_it_out_beside_a_day_that_works() -> None:
    assert ("monday", "unavailable") in days("u: Friday is fine, not Monday.")


def test_a_no_before_the_only_day_answers_the_question() -> None:
    conversation = "a: is any day alright | u: nope sundays only"
    assert ("sunday", "unavailable") not in days(conversation)
    assert of_kind(conversation, "preferred_day") == {(None, "sunday only")}


def test_a_no_before_just_a_day_is_not_taken_for_an_only() -> None:
    conversation = "a: wednesday's out, any other days | u: no just wednesdays"
    assert of_kind(conversation, "preferred_day") == set()


def test_a_day_taken_back_out_of_a_list_of_bad_days_is_not_kept() -> None:
    conversation = "a: Any days to avoid? | u: Tuesdays and Thursdays, well, not Thursdays."
    assert days(conversation) == {("tuesday", "unavailable")}


def test_not_each_day_of_a_bad_weekend_still_rules_each_out() -> None:
    conversation = "u: Weekends are no good, not Saturday, not Sunday."
    assert days(conversation) == {("saturday", "unavailable"), ("sunday", "unavailable")}


def test_sorry_not_a_day_that_was_said_to_work_turns_it_round() -> None:
    conversation = "u: I can do Tuesday or Thursday. | a: Both then. | u: Sorry, not Thursday."
    assert ("thursday", "available") not in days(conversation)


def test_not_a_day_after_a_list_of_days_that_work_is_no_taking_back() -> None:
    conversation = "u: I can do Mondays and Fridays, well, not Fridays."
    assert days(conversation) == {("monday", "available")}
    assert quoted(conversation)


def test_an_alternative_said_after_a_hedge_is_as_unsure() -> None:
    conversation = "a: Which day is best? | u: Maybe Monday. Or Tuesday. I'll know next week."
    assert of_kind(conversation, "preferred_day") == set()
    assert days(conversation) == set()


def test_a_channel_that_loses_the_callers_messages_is_not_the_one_preferred() -> None:
    conversation = "u: email me actually no a call is better my emails get lost"
    assert of_kind(conversation, "contact_preference") == {(None, "phone call")}


def test_things_in_the_plural_alone_ask_how_many() -> None:
    conversation = "a: Radiators? | u: Nine. | a: ok and thermostats | u: Two."
    assert typed(conversation) >= {
        ("equipment_count", "radiator", "9 radiators"),
        ("equipment_count", "thermostat", "2 thermostats"),
    }


def test_number_of_things_asks_how_many() -> None:
    assert ("equipment_count", "radiator", "6 radiators") in typed(
        "a: Number of radiators? | u: Six."
    )


def test_the_meter_alone_asks_where_it_is_not_how_many() -> None:
    conversation = "a: Gas meter? | u: it's in the garage on the back wall"
    assert of_kind(conversation, "equipment_count") == set()
    assert any(f.kind == "meter_location" for f in facts(conversation))


def test_one_per_floor_says_where_each_is_not_more_to_add() -> None:
    conversation = (
        "a: How many thermostats and radiators? | u: Ten radiators, two thermostats, one per floor."
    )
    assert typed(conversation) >= {
        ("equipment_count", "radiator", "10 radiators"),
        ("equipment_count", "thermostat", "2 thermostats"),
    }


def test_one_upstairs_one_down_says_where_each_of_two_is() -> None:
    conversation = "u: Two thermostats, one upstairs, one down, and six radiators."
    assert ("equipment_count", "thermostat", "2 thermostats") in typed(conversation)


def test_a_part_upstairs_is_still_a_sum_left_to_us() -> None:
    assert of_kind("u: six radiators and three upstairs", "equipment_count") == set()


def test_a_bare_count_with_another_number_after_it_is_a_guess() -> None:
    conversation = "a: Radiators? | u: Seven, and the one in the garage makes eight."
    assert of_kind(conversation, "equipment_count") == set()
    assert quoted(conversation)


def test_a_bare_count_beside_a_count_of_another_thing_stands() -> None:
    conversation = "a: How many radiators? | u: Eleven, plus three towel rails."
    assert ("equipment_count", "radiator", "11 radiators") in typed(conversation)


def test_a_bare_count_put_right_in_the_same_breath_is_the_new_one() -> None:
    conversation = "a: Any towel rails? | u: One. | a: And radiators? | u: Six, no, seven."
    assert typed(conversation) >= {
        ("equipment_count", "towel rail", "1 towel rail"),
        ("equipment_count", "radiator", "7 radiators"),
    }


def test_a_bare_count_then_where_each_one_is_stands() -> None:
    conversation = "a: How many thermostats? | u: Three, one per floor."
    assert ("equipment_count", "thermostat", "3 thermostats") in typed(conversation)


def test_a_bare_count_run_on_with_where_each_one_is() -> None:
    conversation = (
        "a: how many radiators | u: ten | a: ok and thermostats | u: er two one up one down"
    )
    assert typed(conversation) >= {
        ("equipment_count", "radiator", "10 radiators"),
        ("equipment_count", "thermostat", "2 thermostats"),
    }


def test_where_each_of_the_next_count_is_says_nothing_against_the_last() -> None:
    conversation = (
        "a: How many radiators? | u: Nine. | a: And thermostats? | u: Two, one on each floor."
    )
    assert ("equipment_count", "radiator", "9 radiators") in typed(conversation)


def test_one_in_each_of_several_rooms_is_still_a_sum_left_to_us() -> None:
    conversation = "u: Three storage heaters in the hall and one in each of the four bedrooms."
    assert of_kind(conversation, "equipment_count") == set()


def test_a_count_said_back_then_the_next_thing_asks_for_that_thing() -> None:
    conversation = (
        "a: how many radiators | u: eight | a: eight radiators and thermostats | u: three"
    )
    assert typed(conversation) >= {
        ("equipment_count", "radiator", "8 radiators"),
        ("equipment_count", "thermostat", "3 thermostats"),
    }


def _words_of(conversation: str, kind: str) -> str:
    return " ".join(f.value for f in facts(conversation) if f.kind == kind).casefold()


def test_what_is_said_of_a_pet_after_naming_it_does_not_lose_the_animal() -> None:
    conversation = "a: Any pets? | u: Just a tortoise. He's very old, mind where you step."
    assert "tortoise" in _words_of(conversation, "pets")


def test_who_lets_the_engineer_in_is_kept_beside_what_follows() -> None:
    conversation = "a: Who will be home? | u: My nephew Sam. Someone is always in anyway."
    assert "sam" in _words_of(conversation, "who_home")


def test_parking_said_then_more_about_it_adds_up() -> None:
    conversation = (
        "a: Where can the engineer park? | u: On the drive. It's the one with the blue van."
    )
    assert "drive" in _words_of(conversation, "parking")


def test_where_the_meter_is_said_in_two_breaths_adds_up() -> None:
    conversation = "a: Where's the meter? | u: Cellar. On the wall by the steps."
    words = _words_of(conversation, "meter_location")
    assert "cellar" in words and "steps" in words


def test_a_turn_correcting_the_last_replaces_the_words_it_corrects() -> None:
    conversation = (
        "a: Where's the meter? | u: In the hall cupboard. | a: Thanks. "
        "| u: Oh no wait, sorry, it's in the garage now, they moved it."
    )
    words = _words_of(conversation, "meter_location")
    assert "garage" in words and "hall" not in words


def test_a_pet_put_right_in_the_next_turn_is_replaced() -> None:
    conversation = "a: Any pets? | u: A rabbit. | a: A rabbit. | u: Sorry, no, a guinea pig."
    words = _words_of(conversation, "pets")
    assert "guinea pig" in words and "rabbit" not in words


@pytest.mark.parametrize(
    "question",
    ["wheres the gas meter", "and the gas meter where is it", "and your meter whereabouts"],
)
def test_a_question_about_the_meter_without_its_question_mark(question: str) -> None:
    conversation = f"a: {question} | u: in the shed at the bottom of the garden"
    assert "shed" in _words_of(conversation, "meter_location")


def test_only_the_opening_of_a_correcting_turn_replaces() -> None:
    conversation = (
        "a: Who'll let the engineer in? | u: My son. | a: Your son. And parking? "
        "| u: Plenty on the road. Actually, my son's at work that day, so it'll be my wife."
    )
    assert "road" in _words_of(conversation, "parking")


def test_a_channel_put_right_then_said_again_on_its_own_is_a_guess() -> None:
    conversation = "u: text me, sorry, email me please, text me"
    assert of_kind(conversation, "contact_preference") == set()
    assert quoted(conversation)


def test_the_old_value_named_in_a_reason_after_the_correction_is_no_going_back() -> None:
    conversation = "u: text me, sorry, email me, texts never reach me"
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


def test_one_sentence_read_twice_is_kept_once() -> None:
    conversation = "a: Where's the meter? | u: It's in the shed, by the water butt."
    values = [f.value for f in facts(conversation) if f.kind == "meter_location"]
    assert len(values) == 1 and ";" not in values[0]


def test_a_part_of_the_day_said_to_be_best_is_the_callers_favoured_time() -> None:
    assert of_kind("u: Afternoons are best for me.", "preferred_time") == {(None, "afternoon")}
    assert of_kind("u: I prefer evenings.", "preferred_time") == {(None, "evening")}


def test_a_day_and_time_favoured_types_both() -> None:
    conversation = "u: Wednesday afternoons are ideal."
    assert of_kind(conversation, "preferred_time") == {(None, "afternoon")}
    assert of_kind(conversation, "preferred_day") == {(None, "wednesday")}


def test_the_time_named_alone_answers_the_agents_question() -> None:
    conversation = "a: Mornings or afternoons? | u: Mornings please."
    assert of_kind(conversation, "preferred_time") == {(None, "morning")}


def test_the_time_named_alone_with_no_question_is_nothing() -> None:
    assert of_kind("a: Thanks for calling. | u: Mornings.", "preferred_time") == set()


def test_a_time_offered_for_this_visit_is_no_standing_preference() -> None:
    conversation = "a: Would you like a morning or an afternoon slot? | u: Afternoon."
    assert of_kind(conversation, "preferred_time") == set()


def test_a_time_put_right_in_the_next_turn_is_the_new_one() -> None:
    conversation = (
        "a: What time of day suits? | u: Evenings. | a: Evenings. | u: Sorry, afternoons."
    )
    assert of_kind(conversation, "preferred_time") == {(None, "afternoon")}


def test_a_time_put_right_in_one_breath_keeps_only_the_new_one() -> None:
    conversation = "u: Mornings are best, no, afternoons actually, I swim in the morning."
    assert of_kind(conversation, "preferred_time") == {(None, "afternoon")}


@pytest.mark.parametrize(
    "line",
    [
        "u: Mornings are no good for me.",
        "u: My husband prefers mornings.",
        "u: Mornings used to be best.",
        "u: Mornings are better for my mum.",
        "u: Mornings or afternoons, either is fine.",
        "u: Maybe mornings are best, I'm not sure.",
    ],
)
def test_no_favoured_time_from_a_negation_someone_else_the_past_or_a_hedge(line: str) -> None:
    assert of_kind(line, "preferred_time") == set()


@pytest.mark.parametrize(
    "line",
    [
        "u: Mornings are ideal on weekdays but afternoons at the weekend.",
        "u: I don't prefer mornings particularly.",
        "u: I used to prefer mornings.",
        "u: Mornings are best, no, sorry, I swim in the mornings.",
    ],
)
def test_no_favoured_time_from_two_times_a_negator_the_past_or_a_reason(line: str) -> None:
    assert of_kind(line, "preferred_time") == set()


def test_make_it_another_time_puts_the_time_right() -> None:
    conversation = "u: Mornings are best, no, make it afternoons."
    assert of_kind(conversation, "preferred_time") == {(None, "afternoon")}


def test_where_do_you_live_asks_for_the_address() -> None:
    conversation = "a: and where do you live | u: forty one larch grove its the corner house"
    assert of_kind(conversation, "address") == {(None, "41 Larch Grove")}


def test_a_count_memory_holds_said_back_asks_for_it_again() -> None:
    conversation = "a: Is the number of radiators still ten? | u: It's twelve now, we built on."
    assert of_kind(conversation, "equipment_count") == {("radiator", "12 radiators")}


def test_a_count_on_file_said_back_then_the_new_one() -> None:
    conversation = "a: I have you down with 9 radiators. | u: Out of date, it's 7 now."
    assert of_kind(conversation, "equipment_count") == {("radiator", "7 radiators")}


def test_a_channel_memory_holds_said_back_then_the_new_one() -> None:
    conversation = "a: is it still the mobile we should ring | u: no the landline only now please"
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


def test_a_lost_phone_is_the_device_not_a_call() -> None:
    conversation = (
        "a: Is it still your mobile we should ring? | u: No, I've lost that phone. "
        "Please use the landline from now on."
    )
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


def test_a_day_said_back_as_still_good_is_no_count_or_channel() -> None:
    conversation = "a: Is Monday still good for a call? | u: Yes."
    assert of_kind(conversation, "contact_preference") == set()


def test_the_days_i_cant_do_are_named_after_the_verb() -> None:
    conversation = "u: The days I can't do are Tuesday and Sunday."
    assert days(conversation) == {("tuesday", "unavailable"), ("sunday", "unavailable")}


def test_the_only_day_i_can_do_is_still_the_only_one() -> None:
    assert of_kind("u: The only day I can do is Friday.", "preferred_day") == {
        (None, "friday only")
    }
