"""Round 27: a day taken back in one unpunctuated breath, and the words run on after it.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days, of_kind


def test_a_day_before_its_verb_then_another_day_before_its_own() -> None:
    assert days("u: saturdays we cant do sundays we can") == {
        ("saturday", "unavailable"),
        ("sunday", "available"),
    }


def test_a_day_that_can_be_done_then_the_one_that_cannot() -> None:
    assert days("u: tuesday i can do monday is the one i cant") == {
        ("tuesday", "available"),
        ("monday", "unavailable"),
    }


def test_i_was_wrong_takes_back_the_day_said_before() -> None:
    conversation = (
        "a: so mondays are out | u: yes mondays | a: anything else "
        "| u: oh i was wrong mondays fine its fridays i cant do i checked my diary"
    )
    assert days(conversation) == {("monday", "available"), ("friday", "unavailable")}


def test_two_correction_words_in_a_row_take_back_the_day() -> None:
    conversation = (
        "a: tuesdays no good | u: yeah | a: ok | u: actually i was wrong tuesdays are fine"
    )
    assert days(conversation) == {("tuesday", "available")}


def test_a_new_subject_after_the_days_verb_starts_a_clause() -> None:
    assert days("u: its thursday we cant do we checked the calendar") == {
        ("thursday", "unavailable")
    }


def test_a_hedge_after_the_days_verb_still_hedges_it() -> None:
    assert days("u: monday i can do i think") == set()
    assert days("u: monday i can do we will see") == set()


def test_a_shift_moved_away_is_no_day_worked() -> None:
    assert days("u: friday i can do now they moved my shift") == {("friday", "available")}


def test_a_shift_moved_to_a_day_is_that_day_worked() -> None:
    assert days("u: they moved my shift to friday") == {("friday", "unavailable")}


def test_not_the_day_said_out_taken_back_is_left_in_doubt() -> None:
    conversation = (
        "a: which days are bad | u: thursdays | a: right thursdays | u: oh no sorry not thursdays"
    )
    assert ("thursday", "unavailable") not in days(conversation)


def test_not_a_day_said_to_work_is_still_ruled_out_when_put_right() -> None:
    conversation = "a: which days | u: thursdays are fine | a: ok | u: sorry not thursdays"
    assert days(conversation) == {("thursday", "unavailable")}


def test_no_not_one_day_then_another_to_a_read_back_says_neither_way() -> None:
    conversation = "a: so tuesday and saturday are out | u: no not saturday sunday"
    assert ("saturday", "unavailable") not in days(conversation)
    assert ("sunday", "unavailable") not in days(conversation)


def test_a_day_struck_off_the_days_said_out_is_left_in_doubt() -> None:
    conversation = "a: which days are out | u: Mondays and Wednesdays. Scrap Wednesday."
    assert days(conversation) == {("monday", "unavailable")}


def test_a_day_struck_off_the_days_said_to_work_no_longer_works() -> None:
    conversation = "a: which days work | u: Mondays and Wednesdays. Scratch Wednesday."
    assert days(conversation) == {("monday", "available")}


def test_days_answered_then_narrowed_by_no_just_keep_the_questions_sign() -> None:
    conversation = "a: Which days can't you make? | u: Tuesday, and Thursday - no, just Tuesday."
    assert days(conversation) == {("tuesday", "unavailable")}


def test_a_no_then_a_day_said_again_is_not_narrowed() -> None:
    # "saturdays, no, not saturdays": said out twice, not a day narrowed or taken back.
    conversation = "a: any days to avoid | u: er fridays no not fridays"
    assert days(conversation) == {("friday", "unavailable")}


def test_a_value_denied_then_the_right_one_keeps_only_the_right_one() -> None:
    conversation = "a: what make is it | u: baxi no its not baxi its vaillant"
    assert of_kind(conversation, "equipment_make") == {(None, "Vaillant")}
    conversation = "a: which floor | u: fourth no its not the fourth its the fifth"
    assert of_kind(conversation, "floor") == {(None, "5th floor")}


def test_sorry_after_the_only_day_apologises_and_never_turns_it_round() -> None:
    conversation = "a: what days | u: thursdays only, sorry, it's a bit of a pain"
    assert ("thursday", "unavailable") not in days(conversation)
    conversation = "a: what days | u: thursdays only sorry"
    assert of_kind(conversation, "preferred_day") == {(None, "thursday only")}


def test_sorry_after_the_only_day_before_another_day_still_corrects() -> None:
    conversation = "a: what days | u: thursdays only, sorry, fridays"
    assert of_kind(conversation, "preferred_day") == {(None, "friday")}
    conversation = "a: what days | u: thursdays only sorry fridays only"
    assert ("thursday", "available") not in days(conversation)


def test_no_sorry_run_on_after_days_is_a_correction_not_a_negation() -> None:
    conversation = "a: what days work | u: monday or thursday no sorry just monday"
    assert ("thursday", "unavailable") not in days(conversation)
    assert ("monday", "unavailable") not in days(conversation)


def test_a_street_put_right_with_the_same_house_number_drops_the_old_street() -> None:
    conversation = (
        "a: whats the address | u: its twelve mill road no sorry mill lane twelve mill lane"
    )
    assert (None, "12 Mill Road") not in of_kind(conversation, "address")


def test_now_its_one_day_only_after_days_that_used_to_work() -> None:
    conversation = "u: i used to do mondays and thursdays but now its thursdays only"
    assert ("thursday", "unavailable") not in days(conversation)
    assert of_kind(conversation, "preferred_day") == {(None, "thursday only")}


def test_the_working_week_given_as_the_reason_for_the_free_days_rules_nothing_out() -> None:
    conversation = "u: Sundays only, I'm afraid. I work Monday to Friday at the depot."
    assert days(conversation) <= {("sunday", "available")}
    assert of_kind(conversation, "preferred_day") == {(None, "sunday only")}
    conversation = "a: weekends ok? | u: Saturday and Sunday both fine. I am at work weekdays."
    assert days(conversation) == {("saturday", "available"), ("sunday", "available")}


def test_the_working_week_said_out_on_its_own_still_rules_the_weekdays_out() -> None:
    conversation = "a: any days to avoid | u: weekdays are out i work monday to friday"
    assert ("wednesday", "unavailable") in days(conversation)


def test_a_read_back_then_correct_question_confirms_each_day_its_own_way() -> None:
    conversation = "a: So Tuesday out, Saturday fine. Is that right? | u: Yes."
    assert days(conversation) == {("tuesday", "unavailable"), ("saturday", "available")}
    conversation = "a: Monday unavailable, Thursday available. Correct? | u: yep"
    assert days(conversation) == {("monday", "unavailable"), ("thursday", "available")}


def test_from_now_on_stays_one_phrase_before_the_day() -> None:
    conversation = (
        "u: i used to be off on mondays but not any more so from now on fridays are my day off"
    )
    assert days(conversation) == {("monday", "unavailable"), ("friday", "available")}


def test_not_one_day_another_then_i_said_it_is_a_guess() -> None:
    conversation = "a: so tuesday is your best day | u: no not tuesday thursday i said thursday"
    assert ("thursday", "unavailable") not in days(conversation)
    assert ("tuesday", "unavailable") not in days(conversation)


def test_a_channel_that_swamps_the_caller_is_not_theirs() -> None:
    conversation = "u: I'd rather a text these days, I get too many phone calls."
    assert of_kind(conversation, "contact_preference") == {(None, "text message")}


def test_a_bare_number_to_a_count_question_is_the_count_not_the_flat() -> None:
    conversation = "a: how many radiators have you got | u: in my flat it's six"
    assert of_kind(conversation, "flat") == set()
    assert of_kind(conversation, "equipment_count") == {("radiator", "6 radiators")}


def test_a_count_put_right_after_its_thing_keeps_the_new_count() -> None:
    conversation = (
        "a: how many radiators | u: five radiators er six actually theres one in the loft too"
    )
    assert of_kind(conversation, "equipment_count") == {("radiator", "6 radiators")}


def test_a_flat_put_right_with_not_keeps_no_old_flat() -> None:
    conversation = (
        "a: so flat six is it | u: yeah | a: and what floor "
        "| u: first floor oh hang on did you say six its flat eight not six sorry"
    )
    assert (None, "Flat 6") not in of_kind(conversation, "flat")


def test_a_street_said_again_with_another_kind_word_is_put_right() -> None:
    conversation = "a: the address | u: its nine station road er station avenue"
    assert of_kind(conversation, "address") == {(None, "9 Station Avenue")}


def test_tanks_and_cylinders_counted_are_no_boiler_type() -> None:
    conversation = "a: how many cylinders and tanks | u: one cylinder and one header tank"
    assert of_kind(conversation, "boiler_type") == set()
    conversation = "u: two radiators, one unvented cylinder and one towel rail"
    assert of_kind(conversation, "boiler_type") == set()


def test_a_boiler_described_by_its_tank_still_has_its_type() -> None:
    conversation = "a: what kind of boiler | u: its the old sort with the tank up in the loft"
    assert of_kind(conversation, "boiler_type") == {(None, "conventional")}


def test_scam_calls_are_no_way_to_reach_the_caller() -> None:
    conversation = (
        "a: best way to reach you | u: email really, i never answer numbers i dont know "
        "cos of all them scam calls"
    )
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


def test_the_one_morning_of_the_visit_is_no_favoured_time() -> None:
    conversation = "a: we'll ring on the day | u: yes a call that afternoon is ideal"
    assert of_kind(conversation, "preferred_time") == set()
    assert of_kind("u: the afternoon is best for me", "preferred_time") == {(None, "afternoon")}


def test_not_a_day_then_the_day_that_does_not_work_says_nothing_of_the_first() -> None:
    conversation = (
        "a: I have Tuesday and Thursday as days you can't do? "
        "| u: Tuesday yes, but not Thursday, it's Friday I can't do."
    )
    assert ("thursday", "unavailable") not in days(conversation)
    assert ("friday", "unavailable") in days(conversation)
    assert ("monday", "unavailable") in days("u: not monday, it's tuesday that's fine")


def test_a_type_named_in_an_inventory_is_still_the_boilers_type() -> None:
    conversation = "a: how many radiators | u: eight radiators and one system boiler"
    assert of_kind(conversation, "boiler_type") == {(None, "system")}


def test_most_days_but_a_day_that_wont_work_rules_that_day_out() -> None:
    conversation = (
        "a: What days suit? | u: Most days really, but Friday won't work, I have a class."
    )
    assert days(conversation) == {("friday", "unavailable")}


def test_an_em_dash_without_spaces_ends_the_clause() -> None:
    conversation = "u: Not Mondays, and definitely not Fridays\u2014those are my office days."
    assert days(conversation) == {("monday", "unavailable"), ("friday", "unavailable")}


def test_anyway_moves_on_from_a_negated_aside_to_the_days() -> None:
    conversation = "u: i phoned last week and nobody rang back anyway thursdays im around"
    assert days(conversation) == {("thursday", "available")}


def test_a_street_cut_off_by_a_dash_is_finished_in_the_next_turn() -> None:
    conversation = (
        "a: Can I take the address? | u: It's 22 Hawthorn \u2014 | a: 22 Hawthorn...? "
        "| u: Hawthorn Rise. Sorry, the cat was at the door."
    )
    assert (None, "22 Hawthorn") not in of_kind(conversation, "address")
