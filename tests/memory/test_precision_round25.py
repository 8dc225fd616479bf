"""Round 25: "just" that is no "only", a day hedged by "sometimes", the favoured day after "but",
reasons run on after a day without a comma, and days that are the weather's. Phrased for these
tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind


def test_just_the_ticket_is_no_only() -> None:
    conversation = "a: which day is good | u: saturday is just the ticket for us"
    assert of_kind(conversation, "preferred_day") != {(None, "saturday only")}


def test_just_remembered_is_no_only() -> None:
    conversation = (
        "a: Which days? | u: Monday. Oh, and Thursday, I've just realised I'm off Thursday."
    )
    assert of_kind(conversation, "preferred_day") == set()
    assert ("thursday", "available") in days(conversation)


def test_just_that_is_no_only_and_a_past_visit_no_day() -> None:
    conversation = "a: Anything else? | u: Just that the lad on Tuesday left his ladder behind."
    assert of_kind(conversation, "preferred_day") == set()
    assert days(conversation) == set()


def test_just_before_the_day_is_still_the_only_one() -> None:
    assert of_kind("a: what days | u: just fridays really", "preferred_day") == {
        (None, "friday only")
    }


def test_an_apology_after_the_only_day_does_not_turn_it_round() -> None:
    conversation = "a: what days suit | u: only mondays i'm sorry i know that's a pain"
    assert ("monday", "unavailable") not in days(conversation)
    assert of_kind(conversation, "preferred_day") == {(None, "monday only")}


def test_the_best_day_after_any_day_but_is_favoured_not_excepted() -> None:
    conversation = "a: Which days? | u: Any day of the week, but Tuesday suits best."
    assert ("tuesday", "unavailable") not in days(conversation)
    assert of_kind(conversation, "preferred_day") == {(None, "tuesday")}


def test_any_day_but_a_day_still_excepts_it() -> None:
    conversation = "a: Which days? | u: Any day of the week, but Tuesday."
    assert ("tuesday", "unavailable") in days(conversation)


def test_a_day_gone_then_the_day_the_caller_can_do() -> None:
    conversation = "u: saturdays are gone now we can do mondays instead"
    found = days(conversation)
    assert ("monday", "available") in found
    assert ("saturday", "available") not in found


def test_sometimes_a_day_is_no_standing_fact() -> None:
    conversation = "a: which days | u: tuesday's good, i'm in tuesdays and sometimes fridays"
    found = days(conversation)
    assert ("tuesday", "available") in found
    assert not {d for d, _ in found} & {"friday"}


def test_a_day_that_is_sometimes_busy_is_no_standing_fact() -> None:
    conversation = "a: Are Mondays bad? | u: Mondays are occasionally busy."
    assert days(conversation) == set()


def test_every_other_day_of_the_week_is_all_the_rest() -> None:
    conversation = "u: it's only wednesdays for us, we work every other day"
    assert of_kind(conversation, "preferred_day") == {(None, "wednesday only")}


def test_the_odd_ones_are_days_not_a_hedge() -> None:
    conversation = "a: which days are free | u: i'm free tuesday thursday saturday the even ones"
    assert ("tuesday", "available") in days(conversation)
    conversation = "a: which days are free | u: i'm free monday wednesday friday the odd ones"
    assert ("monday", "available") in days(conversation)


def test_a_day_fine_now_and_what_stopped_is_the_reason() -> None:
    conversation = (
        "a: still no saturdays | u: no saturdays are fine now i've stopped doing the car boot"
    )
    assert days(conversation) == {("saturday", "available")}
    conversation = "a: still no fridays | u: fridays are ok now we are not doing the school run"
    assert days(conversation) == {("friday", "available")}


def test_a_new_day_after_one_that_does_not_work_any_more() -> None:
    conversation = "u: fridays don't work anymore thursday's my day off now"
    found = days(conversation)
    assert ("friday", "unavailable") in found
    assert ("thursday", "available") in found
    assert ("thursday", "unavailable") not in found


def test_the_weather_on_a_day_is_not_the_callers_day() -> None:
    conversation = "a: How are you? | u: Not bad. The forecast for Saturday is awful though."
    assert days(conversation) == set()


def test_ring_me_from_the_gate_is_the_day_not_a_preference() -> None:
    conversation = (
        "a: Any access notes? | u: There's a barrier. Ring me from the barrier and I'll open it."
    )
    assert of_kind(conversation, "contact_preference") == set()


def test_knock_or_ring_my_mobile_is_the_day_not_a_preference() -> None:
    conversation = "a: access | u: the buzzer's dead so knock on the window or ring my mobile"
    assert of_kind(conversation, "contact_preference") == set()


def test_ring_me_and_we_will_sort_it_is_one_call() -> None:
    conversation = "u: I can't do Mondays. Give me a ring on the landline and we'll sort it out."
    assert of_kind(conversation, "contact_preference") == set()
    assert ("monday", "unavailable") in days(conversation)


def test_a_standing_channel_is_still_a_preference() -> None:
    conversation = "a: How should we contact you? | u: Ring me on the mobile, I'm never at home."
    assert of_kind(conversation, "contact_preference") == {(None, "mobile")}


def test_the_floor_of_the_buildings_office_is_not_the_homes() -> None:
    conversation = "a: Who has a key? | u: The porter. His office is on the ground floor."
    assert of_kind(conversation, "floor") == set()
    conversation = "a: Where's the meter? | u: In the ground floor bin store, left of the lift."
    assert of_kind(conversation, "floor") == set()


def test_the_homes_floor_beside_a_building_place_is_kept() -> None:
    conversation = "u: we're on the second floor, the office on the ground floor has a key"
    assert of_kind(conversation, "floor") == {(None, "2nd floor")}


def test_a_flat_opposite_is_a_neighbours_door() -> None:
    conversation = "a: Where's the meter? | u: In the cupboard on the landing, opposite flat 7."
    assert of_kind(conversation, "flat") == set()
    assert of_kind("u: flat 7, opposite the park", "flat") == {(None, "Flat 7")}


def test_a_make_the_caller_used_to_have_is_not_the_current_one() -> None:
    assert of_kind("u: we used to have an ideal boiler years back", "equipment_make") == set()
    assert of_kind("u: we have an ideal boiler", "equipment_make") == {(None, "Ideal")}


def test_a_boiler_to_come_is_not_the_homes() -> None:
    conversation = "u: it's a system boiler but we're having it swapped for a combi next spring"
    assert of_kind(conversation, "boiler_type") == {(None, "system")}
    assert of_kind("u: we're getting a combi put in after christmas", "boiler_type") == set()
    assert of_kind("u: we are having trouble with the combi", "boiler_type") == {(None, "combi")}


def test_rooms_the_things_are_in_are_no_count_of_rooms() -> None:
    conversation = "a: radiators | u: one in the hall and one in each of the four bedrooms"
    assert "bedroom" not in {key for key, _ in of_kind(conversation, "equipment_count")}
    conversation = "u: eight radiators and two towel rails because there are two bathrooms"
    assert of_kind(conversation, "equipment_count") == {
        ("radiator", "8 radiators"),
        ("towel rail", "2 towel rails"),
    }


def test_rooms_counted_outright_are_still_counted() -> None:
    conversation = "u: we got rid of the old bathroom so it's two bathrooms now and nine radiators"
    assert ("bathroom", "2 bathrooms") in of_kind(conversation, "equipment_count")


def test_the_number_of_the_building_a_flat_is_above() -> None:
    conversation = "u: it's the flat over the post office, number 12 station road"
    assert of_kind(conversation, "flat") == set()
    assert of_kind("u: flat number 12, over the post office", "flat") == {(None, "Flat 12")}


def test_a_day_getting_busy_is_not_a_day_out() -> None:
    conversation = (
        "a: Best day? | u: Tuesday. | a: Tuesday noted. | u: Actually, make it Wednesday, "
        "Tuesdays are getting a bit hectic."
    )
    assert ("tuesday", "unavailable") not in days(conversation)
    assert ("tuesday", "unavailable") in days("u: tuesdays are hectic for me")


def test_a_days_time_favoured_is_the_favoured_day() -> None:
    assert of_kind("u: Friday afternoons are best.", "preferred_day") == {(None, "friday")}
    conversation = "u: thursdays are fine, afternoons are best"
    assert of_kind(conversation, "preferred_day") == set()
    assert ("thursday", "available") in days(conversation)


def test_no_no_before_the_days_is_one_no() -> None:
    conversation = "a: so you can't do tuesdays or fridays | u: no no mondays and fridays"
    found = days(conversation)
    assert ("monday", "available") not in found
    assert ("friday", "available") not in found


def test_no_no_still_opens_a_correction_of_the_last_turn() -> None:
    conversation = "u: it's a vaillant | a: Vaillant, thanks. | u: no no it's an old one, not sure"
    assert of_kind(conversation, "equipment_make") == set()


def test_an_answering_no_before_a_day_that_is_fine_mid_sentence() -> None:
    conversation = "u: i can't do thursdays er no thursdays are fine now ignore me"
    assert ("thursday", "unavailable") not in days(conversation)


def test_a_value_read_back_and_denied_is_not_kept() -> None:
    conversation = "u: It's on the third floor. | a: Third floor, is that right? | u: No, it isn't."
    assert of_kind(conversation, "floor") == set()
    conversation = "u: it's an ideal | a: so an Ideal boiler | u: nope"
    assert of_kind(conversation, "equipment_make") == set()


def test_a_no_to_something_else_keeps_the_value() -> None:
    conversation = "u: It's on the third floor. | a: Anything else we should know? | u: No."
    assert of_kind(conversation, "floor") == {(None, "3rd floor")}
    conversation = "u: It's on the third floor. | a: Third floor, is that right? | u: Yes."
    assert of_kind(conversation, "floor") == {(None, "3rd floor")}


def test_it_is_just_her_that_is_out_is_hers() -> None:
    conversation = "a: so wednesdays are out | u: no i'm in on wednesdays it's just her that's out"
    assert ("wednesday", "unavailable") not in days(conversation)


@pytest.mark.parametrize(
    ("conversation", "kind", "expected"),
    [
        ("a: flat number | u: twelve", "flat", {(None, "Flat 12")}),
        ("a: the make | u: ideal", "equipment_make", {(None, "Ideal")}),
        ("a: email or text | u: email", "contact_preference", {(None, "email")}),
        ("a: radiators how many | u: seven", "equipment_count", {("radiator", "7 radiators")}),
        ("a: Combi? | u: Yep.", "boiler_type", {(None, "combi")}),
        ("a: best day | u: thursday", "preferred_day", {(None, "thursday")}),
    ],
)
def test_a_prompt_of_a_few_words_is_a_question(
    conversation: str, kind: str, expected: set[tuple[str | None, str]]
) -> None:
    assert of_kind(conversation, kind) == expected


def test_days_asked_in_a_few_words_carry_the_prompts_sign() -> None:
    assert days("a: days to avoid | u: mondays") == {("monday", "unavailable")}
    assert days("a: any days that are good | u: tuesdays") == {("tuesday", "available")}


def test_a_few_words_saying_a_value_back_ask_nothing() -> None:
    conversation = (
        "a: Where can they park? | u: The car park behind the library. "
        "| a: Car park behind the library. | u: Yes. My mum will let you in."
    )
    assert any(f.kind == "parking" and "car park" in f.value for f in facts(conversation))
    conversation = (
        "a: where can they park | u: no parking out front, use the car park behind the church "
        "| a: car park behind the church | u: yeah its free after six"
    )
    assert any(f.kind == "parking" and "car park" in f.value for f in facts(conversation))
    conversation = (
        "u: Monday and Friday are both fine. | a: Monday and Friday available. "
        "| u: Hmm, no, forget Monday, I've got the dentist every Monday this month."
    )
    assert ("friday", "available") in days(conversation)
    conversation = "a: any pets | u: a cat | a: a cat okay | u: she's very shy"
    assert any(f.kind == "pets" and "cat" in f.value for f in facts(conversation))
    conversation = (
        "a: parking | u: we park on the road now the drive is a garden | a: road parking then "
        "| u: yes there's usually space"
    )
    assert any(f.kind == "parking" and "road" in f.value for f in facts(conversation))
    conversation = "a: any pets | u: two cats | a: two cats | u: yeah they're friendly"
    assert any(f.kind == "pets" and "cats" in f.value for f in facts(conversation))
    conversation = (
        "a: what about tuesdays | u: tuesdays are a write off | a: no tuesdays then | u: no"
    )
    assert days(conversation) == {("tuesday", "unavailable")}


def test_a_no_to_noting_a_day_declines_the_note() -> None:
    conversation = (
        "a: Which days? | u: Maybe Friday, I'm not sure. | a: Shall I note Friday as available? "
        "| u: No, don't put anything down yet."
    )
    assert days(conversation) == set()
    conversation = "a: Should I mark Friday as unavailable? | u: Yes please."
    assert days(conversation) == {("friday", "unavailable")}


def test_noting_the_preferred_day_is_asked_of_the_favourite() -> None:
    conversation = "a: Shall I note Tuesday as your preferred day? | u: Yes."
    assert of_kind(conversation, "preferred_day") == {(None, "tuesday")}


def test_any_days_to_avoid_is_asked_without_a_question_mark() -> None:
    conversation = "a: great and any days for you to avoid | u: er just saturdays"
    assert days(conversation) == {("saturday", "unavailable")}


def test_it_cannot_be_a_day_is_the_day_out() -> None:
    assert days("u: Well, it can't be a Tuesday, I'm at the clinic.") == {
        ("tuesday", "unavailable")
    }
    assert days("u: it can be any wednesday") == {("wednesday", "available")}
    assert days("u: it could be a wednesday") == set()


def test_a_question_after_sorry_is_still_asked() -> None:
    conversation = "a: sorry which days can't you do | u: thursdays"
    assert days(conversation) == {("thursday", "unavailable")}


def test_a_reason_after_not_work_for_us_is_its_own_clause() -> None:
    conversation = "u: sunday doesnt work for us we're never home sundays"
    assert days(conversation) == {("sunday", "unavailable")}


def test_nor_is_a_day_is_on_the_list_under_the_negation() -> None:
    conversation = "a: any days you can't do | u: tuesday's no good and nor is er thursday really"
    assert days(conversation) == {("tuesday", "unavailable"), ("thursday", "unavailable")}
    assert days("u: tuesdays are fine and nor is thursday a problem") == set()


def test_a_channel_switched_to_is_the_preference() -> None:
    assert of_kind("u: We've switched to email now.", "contact_preference") == {(None, "email")}
    conversation = "a: still the mobile? | u: no, I've gone back to the landline"
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}
    assert of_kind("u: we have not gone back to the landline", "contact_preference") == set()


def test_a_floor_named_alone_answers_which_floor() -> None:
    assert of_kind("a: which floor | u: ground", "floor") == {(None, "ground floor")}
    assert of_kind("a: Which floor? | u: Lower ground.", "floor") == {(None, "basement")}
    assert of_kind("a: any pets | u: ground", "floor") == set()
    assert of_kind("a: Which floor? | u: Top. Well, top but one.", "floor") == set()


def test_an_answering_no_before_what_a_day_used_to_be() -> None:
    conversation = "a: fridays still ok | u: no fridays used to be fine but i've started a new job"
    assert days(conversation) == {("friday", "unavailable")}


def test_what_does_not_matter_is_not_the_day() -> None:
    conversation = "u: my son can't do mondays but it doesn't matter i'll be in mondays"
    assert ("monday", "available") in days(conversation)
    assert ("monday", "unavailable") not in days(conversation)


def test_doing_nothing_is_idle_not_a_negation() -> None:
    conversation = "a: any good days | u: saturdays are easy i'm home all day doing nothing"
    assert days(conversation) == {("saturday", "available")}


def test_the_day_said_again_after_honestly_is_a_clause_of_its_own() -> None:
    conversation = (
        "a: any bad days | u: any day but thursday honestly thursday i'm at the allotment"
    )
    assert days(conversation) == {("thursday", "unavailable")}
