"""Round 24: days said of somebody else by "for her", "for him", "for your mum" (whoever the
sentence's subject is), and what still belongs to the caller. Phrased for these tests, not
taken from any scored set."""

from __future__ import annotations

from memory.extract import Turn, extract_call_facts
from tests.memory.spoken_calls import TODAY, days, of_kind


def test_days_no_good_for_her_are_hers() -> None:
    conversation = "u: My aunt's boiler is the one playing up. Mondays are hopeless for her."
    assert days(conversation) == set()


def test_days_fine_for_my_lodger_are_his() -> None:
    assert days("u: wednesdays are fine for my lodger") == set()


def test_for_him_yes_answers_for_him() -> None:
    conversation = "a: So Thursdays suit? | u: For him, yes. He'll be the one at home."
    assert ("thursday", "available") not in days(conversation)


def test_a_read_back_of_days_for_your_dad() -> None:
    conversation = "a: So Saturdays are bad for your dad? | u: Yep, that's right."
    assert days(conversation) == set()


def test_sessions_for_my_son_leave_the_days_the_callers() -> None:
    conversation = (
        "u: Thursdays are booked up with physio sessions for my son, so I can't do Thursdays."
    )
    assert ("thursday", "unavailable") in days(conversation)


def test_best_for_him_to_pop_round_is_the_engineer() -> None:
    assert of_kind("u: tuesdays are best for him to pop round", "preferred_day") == {
        (None, "tuesday")
    }


def test_an_agent_note_that_days_never_suit_them_is_the_callers() -> None:
    # A note is written about the caller, and "them" is the caller.
    turns = [Turn("user", "hello, it's the boiler again")]
    found = extract_call_facts(
        turns, ["Caller says Tuesdays never work for them"], today=TODAY, call_id="call-1"
    )
    assert ("tuesday", "unavailable") in {
        (f.key, f.value) for f in found if f.kind == "availability"
    }


def test_somebody_elses_floor_in_a_run_on_that_ends_with_the_caller() -> None:
    conversation = (
        "u: my sister lives up on the sixth floor in them flats by the park "
        "she gave me your number when i rang her"
    )
    assert of_kind(conversation, "floor") == set()


def test_somebody_elses_make_when_he_tells_me_to_get_one() -> None:
    conversation = "u: My brother has a Vaillant at his place and he always tells me to get one."
    assert of_kind(conversation, "equipment_make") == set()


def test_the_caller_close_to_the_subject_is_still_in_it() -> None:
    conversation = "u: my mum lives with me on the second floor"
    assert of_kind(conversation, "floor") == {(None, "2nd floor")}


def test_ours_after_theirs_in_a_run_on_is_the_callers() -> None:
    conversation = (
        "u: my uncle used to have a back boiler in his old place up north ours is just a "
        "normal combi"
    )
    assert of_kind(conversation, "boiler_type") == {(None, "combi")}


def test_from_now_on_goes_with_the_days_after_it() -> None:
    conversation = "u: mondays were my day off but from now on it's fridays i'm off"
    found = days(conversation)
    assert ("monday", "available") not in found
    assert ("friday", "available") in found


def test_now_then_no_day_after_it_still_refers_back() -> None:
    conversation = "u: I used to be busy on Saturdays, but not now."
    assert ("saturday", "unavailable") not in days(conversation)


def test_one_day_only_then_the_days_out_the_comma_dropped() -> None:
    conversation = "a: what days suit | u: friday only really monday tuesday wednesday im working"
    found = days(conversation)
    assert ("friday", "unavailable") not in found
    assert ("monday", "unavailable") in found


def test_free_now_since_i_stopped_is_not_turned_round() -> None:
    conversation = "a: any days free | u: sundays im free now since i gave up the sunday league"
    assert ("sunday", "unavailable") not in days(conversation)


def test_not_usually_as_the_answer_stores_no_standing_day() -> None:
    conversation = (
        "a: That's booked. Are Wednesdays usually good for you? | "
        "u: Not usually, no, I've swapped a shift this week."
    )
    assert days(conversation) == set()


def test_not_always_free_is_no_standing_day() -> None:
    assert days("u: I'm not always free on Mondays, it depends on the rota.") == set()


def test_cant_normally_do_a_day_is_a_standing_no() -> None:
    conversation = "u: Book the Saturday, though I can't normally do Saturdays, I'm off this one."
    assert ("saturday", "unavailable") in days(conversation)


def test_no_then_still_no_good_keeps_the_day_out() -> None:
    conversation = "a: Are Mondays still a problem? | u: No, still no good, I'm on earlies."
    assert ("monday", "available") not in days(conversation)


def test_still_no_good_no_echoes_the_question() -> None:
    conversation = "a: Still no good on Mondays? | u: Still no good, no."
    assert days(conversation) == {("monday", "unavailable")}


def test_a_bare_no_still_answers_the_question() -> None:
    conversation = "a: Are Mondays still fine? | u: No."
    assert days(conversation) == {("monday", "unavailable")}


def test_still_waiting_then_no_is_no_answer() -> None:
    conversation = "a: Are Fridays all right for you? | u: Still waiting on the rota, no."
    assert days(conversation) == set()


def test_a_new_phone_is_a_handset_not_a_channel() -> None:
    conversation = "a: How do we reach you? | u: Email suits me best. I've just bought a new phone."
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


def test_phone_me_is_still_a_call() -> None:
    assert of_kind("u: just phone me", "contact_preference") == {(None, "phone call")}


def test_not_great_with_texts_is_averse_to_texts() -> None:
    conversation = "u: ringing is best to be honest im not great with texts"
    assert of_kind(conversation, "contact_preference") == {(None, "phone call")}


def test_the_same_street_name_with_another_kind_puts_it_right() -> None:
    conversation = "u: We're at 41 Mill Road. Mill Crescent, sorry, I was thinking of my old place."
    assert of_kind(conversation, "address") == {(None, "41 Mill Crescent")}


def test_not_road_is_no_street() -> None:
    conversation = "u: It's 5 Orchard Road, oh, not Road, Orchard Close."
    assert of_kind(conversation, "address") == {(None, "5 Orchard Close")}


def test_another_street_named_later_is_not_a_correction() -> None:
    conversation = (
        "a: What's the address? | u: 41 Mill Road. | a: And the main road nearest? | u: Park Lane."
    )
    assert of_kind(conversation, "address") == {(None, "41 Mill Road")}


def test_wait_no_starts_the_correction() -> None:
    conversation = "u: its 12 church street wait no 14 church street"
    assert of_kind(conversation, "address") == {(None, "14 Church Street")}


def test_the_ground_floors_shops_is_not_the_callers_floor() -> None:
    conversation = "u: we're up on the first floor the ground floor's shops"
    assert of_kind(conversation, "floor") == {(None, "1st floor")}


def test_how_they_count_the_ground_floor_is_not_the_callers_floor() -> None:
    conversation = "u: Second floor, they count the ground floor differently here."
    assert of_kind(conversation, "floor") == {(None, "2nd floor")}


def test_a_count_put_right_with_the_one_left_out() -> None:
    conversation = "u: Eight radiators. Oh, no, nine with the one in the conservatory."
    assert of_kind(conversation, "equipment_count") == {("radiator", "9 radiators")}


def test_a_count_said_again_in_a_run_on_is_not_the_first_one() -> None:
    conversation = "a: how many rads | u: weve got five radiators er six with the one in the garage"
    assert ("radiator", "5 radiators") not in of_kind(conversation, "equipment_count")


def test_im_on_the_ordinal_after_the_floor_puts_it_right() -> None:
    conversation = (
        "u: We're on the second floor. | a: Second floor. Is there a lift? | "
        "u: There is. Hang on, did I say second? We're on the third."
    )
    assert of_kind(conversation, "floor") == {(None, "3rd floor")}


def test_on_the_ordinal_after_another_value_is_not_a_floor() -> None:
    conversation = (
        "u: We're on the second floor. | a: And the address? | u: 9 Elm Road. | "
        "a: And when are you back from holiday? | u: I'm on the sixth."
    )
    assert of_kind(conversation, "floor") == {(None, "2nd floor")}


def test_what_the_caller_drops_on_the_phone_is_no_channel() -> None:
    conversation = "u: It's number 40, not 14, people always mishear it on the phone."
    assert of_kind(conversation, "contact_preference") == set()


def test_its_the_ordinal_after_the_floor_puts_it_right() -> None:
    conversation = "a: which floor | u: first | a: first floor | u: no its the second sorry"
    assert of_kind(conversation, "floor") == {(None, "2nd floor")}


def test_the_old_street_name_denied_puts_it_right() -> None:
    conversation = "u: It's 6 Marlow Close. | a: 6 Marlow Close. | u: Marsden Close, not Marlow."
    assert of_kind(conversation, "address") == {(None, "6 Marsden Close")}


def test_another_word_denied_is_no_correction_of_the_street() -> None:
    conversation = "u: It's 6 Marlow Close. | a: Where's that? | u: Behind Marsden Close, not far."
    assert of_kind(conversation, "address") == {(None, "6 Marlow Close")}


def test_an_address_after_my_sisters_is_hers() -> None:
    conversation = "u: Same trouble as the one at my sister's, 22 Ash Grove, funnily enough."
    assert of_kind(conversation, "address") == set()


def test_their_house_then_the_callers_own_address() -> None:
    conversation = "u: I'm ringing from my son's, 3 Oak Lane, but I live at 9 Elm Road."
    assert of_kind(conversation, "address") == {(None, "9 Elm Road")}


def test_a_read_back_of_days_set_against_one_denied() -> None:
    conversation = (
        "a: So Thursday's good? | u: Yep. | a: And Friday? | u: Friday too. | a: Saturday? | "
        "u: No. | a: So Thursday and Friday, not Saturday. | u: Spot on."
    )
    found = days(conversation)
    assert ("thursday", "unavailable") not in found
    assert ("friday", "unavailable") not in found
    assert ("saturday", "unavailable") in found


def test_i_have_you_as_is_a_read_back_not_an_offer() -> None:
    conversation = (
        "a: I have you down as not free Mondays and Thursdays, is that right? | u: Just Mondays."
    )
    found = days(conversation)
    assert ("monday", "available") not in found
    assert ("monday", "unavailable") in found


def test_before_they_werent_is_what_was() -> None:
    conversation = "u: wednesdays are good now before they werent cos of my shifts"
    assert days(conversation) == {("wednesday", "available")}


def test_days_out_not_another_day_leaves_that_day_unsaid() -> None:
    conversation = (
        "a: So you can't do Tuesday or Thursday? | u: No, Tuesday and Friday are out, not Thursday."
    )
    found = days(conversation)
    assert ("thursday", "unavailable") not in found
    assert ("friday", "unavailable") in found
