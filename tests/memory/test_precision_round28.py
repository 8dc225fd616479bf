"""Round 28: counts asked one after another, each answered in a word. Phrased for these tests,
not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days, of_kind


def test_the_count_said_back_then_the_next_thing_asked() -> None:
    conversation = (
        "a: How many radiators? | u: Eleven. | a: Eleven radiators. Towel rails? | u: Three."
    )
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "11 radiators"),
        ("towel rail", "3 towel rails"),
    }


def test_the_count_said_back_then_how_many_of_the_next_thing() -> None:
    conversation = (
        "a: How many boilers? | u: Two. | a: Two boilers. And how many thermostats? | u: Four."
    )
    assert of_kind(conversation, "equipment_count") == {
        ("boiler", "2 boilers"),
        ("thermostat", "4 thermostats"),
    }


def test_a_count_of_the_next_thing_with_where_it_is_leaves_the_first_count() -> None:
    conversation = (
        "a: How many radiators? | u: Six. | a: Six. Any towel rails? | u: Just one upstairs."
    )
    assert ("radiator", "6 radiators") in of_kind(conversation, "equipment_count")


def test_a_count_said_again_on_the_way_to_another_is_not_kept() -> None:
    conversation = (
        "a: How many radiators? "
        "| u: Seven. Well, seven plus the tiny one in the utility, so eight really."
    )
    assert ("radiator", "7 radiators") not in of_kind(conversation, "equipment_count")


def test_a_time_said_after_the_count_leaves_it() -> None:
    conversation = "a: How many radiators? | u: Eight. I'm out till 8 tonight, mind."
    assert of_kind(conversation, "equipment_count") == {("radiator", "8 radiators")}


def test_the_count_said_again_beside_one_of_them_is_kept() -> None:
    conversation = "a: How many radiators? | u: Four. Well four, and the one in the hall leaks."
    assert of_kind(conversation, "equipment_count") == {("radiator", "4 radiators")}


def test_a_count_of_the_next_thing_that_names_the_first_thing_again_is_a_word_about_it() -> None:
    conversation = (
        "a: How many radiators? | u: Six. | a: Six. Towel rails? "
        "| u: One, and the radiators might be seven, not sure."
    )
    assert ("radiator", "6 radiators") not in of_kind(conversation, "equipment_count")


def test_a_yes_to_counts_read_back_keeps_each_count() -> None:
    conversation = "a: So five radiators and two towel rails? | u: Yes."
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "5 radiators"),
        ("towel rail", "2 towel rails"),
    }


def test_a_yes_to_counts_read_back_without_a_question_mark() -> None:
    conversation = "a: ten rads one boiler | u: yeah thats right"
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "10 rads"),
        ("boiler", "1 boiler"),
    }


def test_a_no_to_counts_read_back_keeps_none() -> None:
    assert of_kind("a: So five radiators? | u: No.", "equipment_count") == set()


def test_a_yes_to_part_of_the_read_back_keeps_none_of_the_rest() -> None:
    conversation = (
        "a: Six radiators and one boiler? "
        "| u: Yes, one boiler. Hang on, the radiators, let me count again... seven-ish."
    )
    assert ("radiator", "6 radiators") not in of_kind(conversation, "equipment_count")


def test_a_count_said_back_leaves_the_question_open_for_a_recount() -> None:
    conversation = (
        "a: How many radiators? | u: Nine. | a: Nine radiators. "
        "| u: Hang on, let me count... kitchen, two bedrooms, bathroom, hall. Five."
    )
    assert of_kind(conversation, "equipment_count") == {("radiator", "5 radiators")}


def test_a_yes_after_doubting_the_read_back_keeps_none() -> None:
    conversation = "a: Four radiators and one boiler? | u: Hmm, the radiators might be five. Yes."
    assert ("radiator", "4 radiators") not in of_kind(conversation, "equipment_count")


def test_a_yes_to_a_count_read_back_with_more_than_counts_keeps_none() -> None:
    conversation = (
        "a: So three radiators, plus the one in the bathroom that doesn't work? | u: Yes."
    )
    assert ("radiator", "3 radiators") not in of_kind(conversation, "equipment_count")


def test_the_thing_then_just_the_one_counts_one() -> None:
    conversation = "a: and the heating | u: twelve rads and the boiler just the one obviously"
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "12 rads"),
        ("boiler", "1 boiler"),
    }


def test_a_thing_in_a_room_then_just_the_one_counts_the_thing() -> None:
    conversation = "u: theres a towel rail in the en suite as well only the one"
    assert ("towel rail", "1 towel rail") in of_kind(conversation, "equipment_count")


def test_just_the_one_after_another_thing_counts_neither() -> None:
    conversation = "u: the boiler and the thermostat just the one"
    assert of_kind(conversation, "equipment_count") == set()


def test_just_the_one_saying_which_is_no_count() -> None:
    conversation = "u: the radiator just the one in the hall is cold"
    assert of_kind(conversation, "equipment_count") == set()


def test_two_things_one_for_upstairs_one_for_down_keeps_the_counts() -> None:
    conversation = "u: Two thermostats, one for upstairs, one for downstairs, and nine radiators."
    assert of_kind(conversation, "equipment_count") == {
        ("thermostat", "2 thermostats"),
        ("radiator", "9 radiators"),
    }


def test_a_room_then_just_the_one_is_no_count_of_rooms() -> None:
    assert of_kind("u: and a bathroom just the one", "equipment_count") == set()


def test_somebody_else_as_the_subject_mid_run_on_is_not_the_caller() -> None:
    conversation = "u: im phoning for my nan really she lives on the third floor"
    assert of_kind(conversation, "floor") == set()


def test_what_the_caller_said_before_somebody_else_became_the_subject_is_kept() -> None:
    conversation = "u: call me on the mobile when he's on his way"
    assert of_kind(conversation, "contact_preference") == {(None, "mobile")}


def test_were_after_a_subject_is_the_verb_not_we_are() -> None:
    conversation = "u: my sister lives on the ground floor and she says the lads were brilliant"
    assert of_kind(conversation, "floor") == set()


def test_the_caller_as_the_subject_again_after_somebody_else_is_the_caller() -> None:
    conversation = "u: yes he can use the lift i live on the fourth floor"
    assert of_kind(conversation, "floor") == {(None, "4th floor")}


def test_its_a_day_now_answers_which_days_are_bad_with_its_sign() -> None:
    assert days("a: Which days don't work? | u: It's Thursdays now.") == {
        ("thursday", "unavailable")
    }


def test_its_a_day_now_to_which_days_suit_works() -> None:
    assert days("a: What days suit you? | u: It's Thursdays now.") == {("thursday", "available")}


def test_a_correction_word_then_its_just_the_days_starts_a_clause() -> None:
    conversation = (
        "a: so which days are no good | u: mondays and thursdays | a: mondays thursdays and "
        "sundays | u: no sundays are ok really it's just the monday and thursday"
    )
    assert days(conversation) == {
        ("monday", "unavailable"),
        ("thursday", "unavailable"),
        ("sunday", "available"),
    }


def test_not_any_more_ends_the_past_and_the_new_day_has_its_own_sign() -> None:
    conversation = (
        "a: when are you home | u: i used to be home fridays but not any more "
        "i'm home on mondays now"
    )
    assert days(conversation) == {("friday", "unavailable"), ("monday", "available")}


def test_a_yes_to_days_read_back_with_two_signs_unread_gives_neither_a_sign() -> None:
    conversation = (
        "a: What days can you do? | u: Only Thursdays really. "
        "| a: So Thursday is your only day, and Monday would be no use? | u: Correct."
    )
    assert ("monday", "available") not in days(conversation)


def test_a_days_question_after_a_read_back_asks_with_the_callers_sign() -> None:
    conversation = (
        "a: Which days are no good? | u: Mondays. | a: Mondays are out. And Fridays too? "
        "| u: Yes, Fridays too."
    )
    assert days(conversation) == {("monday", "unavailable"), ("friday", "unavailable")}


def test_a_yes_to_the_one_day_and_a_day_out_gives_no_one_sign_to_both() -> None:
    conversation = (
        "a: What days can you do? | u: Just Tuesdays. "
        "| a: So Tuesday's the one day, and Monday would be a problem? | u: Yes."
    )
    assert ("tuesday", "unavailable") not in days(conversation)


def test_two_days_with_one_past_verb_are_no_longer_so() -> None:
    conversation = "a: Which days suit? | u: Tuesday and Friday were good but now it's just Monday."
    assert ("tuesday", "available") not in days(conversation)
    assert ("friday", "available") not in days(conversation)


def test_something_that_happened_on_a_day_then_that_was_says_nothing_of_the_day() -> None:
    assert days("u: The engineer phoned on Wednesday, that was good of him.") == set()


def test_ringing_back_on_a_day_is_no_day_for_a_visit() -> None:
    assert days("u: no worries i'll call you back tuesday") == set()


def test_a_yes_to_a_day_for_the_booking_is_no_standing_fact() -> None:
    assert days("a: Could Friday suit? | u: Yes, Friday is fine for the appointment.") == set()


def test_a_yes_to_a_day_in_general_is_still_read() -> None:
    assert days("a: Are Fridays usually good for you? | u: Yes.") == {("friday", "available")}


def test_a_bare_no_to_days_asked_in_the_negative_says_neither_way() -> None:
    assert days("a: So Mondays are no good? | u: No.") == set()


def test_a_no_then_a_reason_to_days_asked_in_the_negative_says_neither_way() -> None:
    conversation = "a: so weekends no good | u: no i'm away a lot so fridays really"
    assert ("saturday", "available") not in days(conversation)
    assert ("sunday", "available") not in days(conversation)


def test_a_no_then_the_day_said_to_be_fine_is_read() -> None:
    conversation = "a: And Thursday's out as well? | u: No, Thursday is fine."
    assert days(conversation) == {("thursday", "available")}


def test_a_no_then_they_are_fine_is_read() -> None:
    conversation = (
        "a: so mondays and fridays are out for you "
        "| u: no theyre fine its just theyll be round i dont mind him coming"
    )
    assert days(conversation) == {("monday", "available"), ("friday", "available")}


def test_a_no_naming_the_next_day_keeps_the_days_said_before() -> None:
    conversation = (
        "a: Which days are bad? | u: Mondays. | a: Mondays are out. And Fridays too? "
        "| u: No, Friday's fine actually."
    )
    assert days(conversation) == {("monday", "unavailable"), ("friday", "available")}


def test_asking_whether_there_is_anything_on_a_day_is_a_request() -> None:
    assert days("a: want me to book it | u: yeah is there anything on thursday or friday") == set()


def test_asking_whether_a_day_is_possible_is_a_request() -> None:
    assert days("a: shall i book the service | u: yes please is wednesday possible") == set()


def test_a_day_that_is_not_possible_is_still_out() -> None:
    assert days("u: Wednesday is not possible, I work.") == {("wednesday", "unavailable")}
