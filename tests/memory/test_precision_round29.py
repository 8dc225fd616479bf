"""Round 29: an hour limited beside a day, and read-backs whose days carry signs of their own.
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

from tests.memory.spoken_calls import days, of_kind


def test_a_day_that_suits_but_not_before_an_hour_still_suits() -> None:
    assert days("u: wednesdays are grand for me just not before ten") == {
        ("wednesday", "available")
    }


def test_a_day_that_works_but_not_in_the_mornings_still_works() -> None:
    assert days("u: friday works for me just not mornings") == {("friday", "available")}


def test_a_day_that_is_fine_but_not_too_early_is_fine() -> None:
    assert days("u: monday is fine not too early though") == {("monday", "available")}


def test_a_day_said_not_to_suit_still_does_not() -> None:
    assert days("u: not tuesdays, I'm at my sister's") == {("tuesday", "unavailable")}


def test_a_yes_to_one_day_with_no_sign_beside_one_out_keeps_no_guess() -> None:
    conversation = (
        "a: Which days are bad? | u: Thursdays. "
        "| a: So Wednesday's the one day, and Thursday would be difficult? | u: Yes."
    )
    assert ("wednesday", "unavailable") not in days(conversation)


def test_a_yes_to_two_days_out_keeps_both() -> None:
    conversation = (
        "a: Which days are bad? | u: Mondays and Thursdays. "
        "| a: So Monday and Thursday are out? | u: Yes."
    )
    assert days(conversation) == {("monday", "unavailable"), ("thursday", "unavailable")}


def test_a_read_back_whose_days_give_two_signs_is_not_one_double_negative() -> None:
    conversation = (
        "a: Any days you can't do? | u: Fridays for me. "
        "| a: So Friday is out for you, and your son's Mondays don't matter. | u: That's it."
    )
    assert ("friday", "available") not in days(conversation)


def test_a_day_asked_after_days_read_back_takes_their_sign() -> None:
    conversation = (
        "a: Which days are good? | u: Thursday and Friday suit. "
        "| a: So Thursdays and Fridays suit, and Saturday? | u: Saturday as well."
    )
    assert ("saturday", "available") in days(conversation)


def test_a_type_said_as_a_system_after_is_a_is_the_type() -> None:
    assert of_kind("u: no, ours is actually a system", "boiler_type") == {(None, "system")}


def test_this_one_is_a_system_puts_right_the_type_before() -> None:
    conversation = "u: combi, no hang on, that was the flat, this ones a system"
    assert of_kind(conversation, "boiler_type") == {(None, "system")}


def test_a_system_of_something_else_is_no_boiler_type() -> None:
    assert of_kind("u: it is a system of pipes under the floor", "boiler_type") == set()


def test_a_type_condemned_is_not_the_current_type() -> None:
    conversation = "u: we have gone over to a combi now the back boiler was condemned"
    assert of_kind(conversation, "boiler_type") == {(None, "combi")}


def test_no_more_tank_in_the_loft_infers_no_conventional_boiler() -> None:
    conversation = "u: we changed to a combi last year so no more tank in the loft"
    assert of_kind(conversation, "boiler_type") == {(None, "combi")}


def test_a_type_put_right_to_is_a_system_is_the_system() -> None:
    assert of_kind("u: it's a combi. No wait, it's a system.", "boiler_type") == {(None, "system")}


def test_a_count_put_right_with_no_just_and_no_comma() -> None:
    conversation = "u: three towel rails no just the two"
    assert of_kind(conversation, "equipment_count") == {("towel rail", "2 towel rails")}


def test_a_day_out_that_is_just_the_one_day_stays_out() -> None:
    assert days("u: tuesday does not work but it is just the one day") == {
        ("tuesday", "unavailable")
    }


def test_days_put_right_to_just_one_are_not_a_count() -> None:
    assert of_kind("u: mondays no just the one", "equipment_count") == set()


def test_the_next_thing_asked_with_across_both_is_asked_how_many() -> None:
    conversation = (
        "a: How many boilers? | u: Two, the house and the flat. "
        "| a: And thermostats across both? | u: Three in the house, one in the flat, four in all."
    )
    counts = of_kind(conversation, "equipment_count")
    assert ("boiler", "4 boilers") not in counts
    assert ("thermostat", "4 thermostats") in counts


def test_a_total_after_the_agent_asks_of_another_thing_is_not_the_first_things() -> None:
    conversation = (
        "a: How many boilers? | u: Two, the house and the flat. "
        "| a: And the towel rails, do you know? | u: Two in the house, one in the flat, so three."
    )
    assert ("boiler", "3 boilers") not in of_kind(conversation, "equipment_count")


def test_the_next_thing_asked_roughly_is_asked_how_many() -> None:
    conversation = "a: How many boilers? | u: One. | a: Right. Thermostats, roughly? | u: Five."
    assert ("thermostat", "5 thermostats") in of_kind(conversation, "equipment_count")


def test_a_count_taken_back_after_a_hedge_is_of_the_thing_hedged() -> None:
    conversation = (
        "a: How many towel rails? "
        "| u: two towel rails and seven radiators i reckon no im sure its seven"
    )
    counts = of_kind(conversation, "equipment_count")
    assert ("towel rail", "7 towel rails") not in counts


def test_just_the_one_after_another_thing_had_is_not_the_thing_asked() -> None:
    conversation = "a: How many thermostats? | u: Oh the hot tub has its own remote, just the one."
    assert ("thermostat", "1 thermostat") not in of_kind(conversation, "equipment_count")


def test_just_the_one_after_the_thing_asked_is_one() -> None:
    conversation = "a: Any towel rails? | u: We have a towel rail, just the one."
    assert of_kind(conversation, "equipment_count") == {("towel rail", "1 towel rail")}


def test_a_phone_denied_once_is_not_the_phone_meant() -> None:
    conversation = "u: call the mobile not the landline we hardly ever hear the landline"
    assert of_kind(conversation, "contact_preference") == {(None, "mobile")}


def test_calls_agreed_to_after_the_mobile_is_named_keep_the_mobile() -> None:
    conversation = (
        "a: What's the best way to reach you? | u: My mobile. "
        "| a: So we'll call your mobile? | u: Yes, a call is best."
    )
    assert of_kind(conversation, "contact_preference") == {(None, "mobile")}


def test_the_phone_named_then_a_call_in_one_turn_is_no_contradiction() -> None:
    conversation = "a: How should we contact you? | u: The landline. Ring me any time."
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


def test_a_later_channel_still_replaces_the_phone() -> None:
    conversation = "u: my mobile is best | a: ok | u: actually, email me instead"
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


def test_the_phones_offered_without_a_question_mark_are_asked() -> None:
    conversation = (
        "a: how do we get hold of you | u: ring me | a: on the mobile or the landline "
        "| u: landline im in all day"
    )
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


def test_a_call_then_the_phone_named_in_one_turn_is_no_contradiction() -> None:
    conversation = "a: How should we contact you? | u: Give me a ring. On the mobile."
    assert of_kind(conversation, "contact_preference") == {(None, "mobile")}


def _favourite(conversation: str) -> set[tuple[str | None, str]]:
    return of_kind(conversation, "preferred_day")


def test_one_day_only_then_another_added_is_not_one_day_only() -> None:
    conversation = "u: It's only ever Tuesdays. Well, Tuesdays and Thursdays, to be fair."
    assert (None, "tuesday only") not in _favourite(conversation)


def test_one_day_only_then_oh_and_another_said_unsure() -> None:
    conversation = "a: Which days? | u: Only Mondays. Oh, and Fridays, I think."
    assert (None, "monday only") not in _favourite(conversation)


def test_one_day_only_beside_the_working_week_stays_one_day_only() -> None:
    conversation = "u: I'm only free on Sundays, I work Monday to Saturday at the shop."
    assert (None, "sunday only") in _favourite(conversation)


def test_one_day_only_beside_weekends_said_of_the_firm_stays_one_day_only() -> None:
    conversation = "u: Just Saturdays. I know you may not work weekends, but that's it."
    assert (None, "saturday only") in _favourite(conversation)


def test_one_day_only_after_an_addition_taken_back_stays_one_day_only() -> None:
    conversation = "a: what days | u: friday only well friday or monday no sorry just friday"
    assert (None, "friday only") in _favourite(conversation)


def test_one_day_only_then_another_too_is_no_new_favourite() -> None:
    conversation = (
        "a: What days can you do? | u: Only Wednesdays. "
        "| a: Wednesday only, nothing else? | u: Well, Saturdays too, now I think of it."
    )
    assert (None, "saturday") not in _favourite(conversation)


def test_one_day_only_then_another_too_said_unsure() -> None:
    assert (None, "tuesday only") not in _favourite("u: Only Tuesdays. Hmm, maybe Fridays too.")


def test_one_day_only_beside_another_day_out_stays_one_day_only() -> None:
    conversation = "u: Only Thursdays, and Mondays are definitely out."
    assert (None, "thursday only") in _favourite(conversation)


def test_away_with_work_is_no_day_that_works() -> None:
    conversation = (
        "a: which days are no good | u: tuesday and wednesday both of them im up in leeds with work"
    )
    assert ("tuesday", "available") not in days(conversation)
    assert ("wednesday", "available") not in days(conversation)


def test_days_that_work_beside_the_job_still_work() -> None:
    conversation = "u: thursdays work for me im off for work the rest of the week"
    assert ("thursday", "available") in days(conversation)


def test_a_day_fine_then_just_another_is_no_sign_for_the_other() -> None:
    conversation = (
        "a: which days are bad | u: fridays | a: fridays and mondays out then "
        "| u: no no mondays are fine just fridays"
    )
    assert ("friday", "available") not in days(conversation)
