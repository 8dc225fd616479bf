"""Round 22: days stored the wrong way round. Idioms with "off" that rule a day out, "nothing
but" and "nothing before", a day said to be work, a read-back and its question each with a
sign, "any others?", read-backs that open with an apology, "no X not Y" putting a read-back
right, a change of routine said in the same breath as the day it changed, "just" in answer
to a question about days that do not work, a day said again after "not", and a day that is
one date ("the Friday after that").
Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, of_kind, typed


@pytest.mark.parametrize(
    "conversation",
    ["u: Wednesdays are off the cards for us.", "u: Thursdays are off the menu, sorry."],
)
def test_off_the_cards_rules_the_day_out(conversation: str) -> None:
    assert {sign for _, sign in days(conversation)} == {"unavailable"}


def test_a_day_off_is_still_a_guess() -> None:
    assert days("u: Wednesdays are off.") == set()


def test_nothing_but_a_day_is_the_one_day() -> None:
    assert of_kind("u: Nothing but Tuesdays suits me.", "preferred_day") == {(None, "tuesday only")}
    assert ("tuesday", "unavailable") not in days("u: Nothing but Tuesdays suits me.")


def test_nothing_before_a_day_says_nothing_of_that_day() -> None:
    found = days("u: Nothing before Thursday is any good, so Monday to Wednesday are out.")
    assert found == {
        ("monday", "unavailable"),
        ("tuesday", "unavailable"),
        ("wednesday", "unavailable"),
    }


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: fridays and saturdays are always work", "unavailable"),
        ("u: Tuesdays work fine for me.", "available"),
    ],
)
def test_a_day_that_is_work(conversation: str, expected: str) -> None:
    assert {sign for _, sign in days(conversation)} == {expected}


def test_a_read_back_with_a_question_of_its_own_keeps_one_sign() -> None:
    conversation = (
        "a: Is Tuesday any use? | u: Tuesday's a bit of a struggle. | "
        "a: So Tuesday's not ideal - is it a firm no? | u: Yes, a firm no."
    )
    assert days(conversation) == {("tuesday", "unavailable")}


def test_a_question_after_words_with_no_sign_asks_with_its_own() -> None:
    conversation = (
        "a: Last time the engineer came on a Monday. Is that still good? | u: Not any more."
    )
    assert days(conversation) == {("monday", "unavailable")}


def test_a_read_back_and_a_question_said_two_ways_confirm_nothing() -> None:
    conversation = "a: So Thursday's fine - or is it a problem? | u: Yes."
    assert days(conversation) == set()


def test_a_no_to_any_others_adds_no_day_and_turns_none_round() -> None:
    conversation = "a: Which days are bad? | u: Mondays. | a: Mondays out. Any others? | u: No."
    assert days(conversation) == {("monday", "unavailable")}


@pytest.mark.parametrize(
    "read_back",
    ["got it so wednesdays out fridays fine", "sorry wednesdays out fridays fine"],
)
def test_a_read_back_after_an_acknowledgement_or_an_apology(read_back: str) -> None:
    conversation = f"a: {read_back} | u: yeah"
    assert days(conversation) == {("wednesday", "unavailable"), ("friday", "available")}


def test_no_x_not_y_puts_the_read_back_right() -> None:
    conversation = (
        "a: so wednesdays and fridays are no good | u: no thursdays not fridays fridays im home"
    )
    found = days(conversation)
    assert ("thursday", "unavailable") in found
    assert ("friday", "unavailable") not in found


def test_a_day_said_again_after_not_is_the_statement() -> None:
    assert days("u: not fridays fridays im actually home") == {("friday", "available")}


def test_a_change_of_routine_does_not_take_back_a_day_said_in_the_same_breath() -> None:
    conversation = (
        "a: so mondays are out and tuesdays out | "
        "u: mondays yes tuesdays actually tuesdays are fine now i swapped my shift "
        "thursday friday fine too"
    )
    assert ("tuesday", "unavailable") not in days(conversation)
    assert ("tuesday", "available") in days(conversation)


def test_a_change_of_routine_still_replaces_the_days_said_before() -> None:
    conversation = "u: Wednesdays work. | u: We've switched, it's Mondays from now on."
    assert days(conversation) == {("wednesday", "unavailable"), ("monday", "available")}


def test_a_yes_to_a_read_back_counts_as_said_before_a_change_of_routine() -> None:
    conversation = (
        "a: So Wednesdays are out? | u: Yes. | a: And Mondays? | "
        "u: Mondays are fine. Oh, ignore what I said about Wednesday, my rota changed, "
        "Wednesdays are fine now."
    )
    assert days(conversation) == {("monday", "available"), ("wednesday", "available")}


def test_a_day_ruled_out_in_a_list_then_said_only_is_a_guess() -> None:
    assert days("u: no sundays sundays only") == set()


def test_only_a_day_then_the_week_worked() -> None:
    conversation = "u: only sundays im afraid i work all week"
    assert of_kind(conversation, "preferred_day") == {(None, "sunday only")}
    assert ("sunday", "unavailable") not in days(conversation)


def test_a_no_to_several_days_then_just_one() -> None:
    conversation = (
        "a: Which days suit you? | u: Only Mondays. | a: Mondays and Fridays? | "
        "u: No, just Mondays."
    )
    assert ("monday", "unavailable") not in days(conversation)


@pytest.mark.parametrize("question", ["Any days you can't manage?", "Which days can't you do?"])
def test_just_a_day_to_a_question_about_days_that_do_not_work(question: str) -> None:
    assert days(f"a: {question} | u: Just Tuesdays.") == {("tuesday", "unavailable")}


def test_only_a_day_to_a_question_about_days_that_work() -> None:
    assert of_kind("a: Which days suit? | u: Only Tuesdays.", "preferred_day") == {
        (None, "tuesday only")
    }


def test_which_days_do_asks_with_the_verb_of_the_question_before() -> None:
    conversation = "a: Is it Fridays that suit you? | u: No. | a: Which days do? | u: Sundays only."
    assert of_kind(conversation, "preferred_day") == {(None, "sunday only")}
    assert ("sunday", "unavailable") not in days(conversation)


def test_any_you_cannot_do_after_a_read_back_is_an_open_question() -> None:
    conversation = (
        "a: Which days suit? | u: Mondays and Wednesdays, I'm home then. | "
        "a: So Mondays and Wednesdays work. Any you can't do? | u: Not really."
    )
    assert days(conversation) == {("monday", "available"), ("wednesday", "available")}


def test_a_read_back_of_the_one_day_and_a_day_out_confirms_no_one_sign() -> None:
    conversation = "a: sorry so tuesday only and friday no | u: yeah"
    assert ("tuesday", "unavailable") not in days(conversation)


def test_was_after_a_day_takes_it_back() -> None:
    conversation = "u: Thursday's my day off, well, was, it's Friday now since the rota changed."
    assert days(conversation) == {("friday", "available")}


def test_as_well_keeps_the_day_said_before() -> None:
    conversation = "u: Monday used to be my only day off. Now I'm off Tuesdays as well."
    assert ("monday", "unavailable") not in days(conversation)


def test_an_emphatic_no_before_a_day_given_over() -> None:
    conversation = "a: so saturdays are good | u: no no saturdays are family day"
    assert days(conversation) == {("saturday", "unavailable")}


def test_not_a_day_then_another_day_fine() -> None:
    assert days("u: so not tuesdays thursdays fine") == {
        ("tuesday", "unavailable"),
        ("thursday", "available"),
    }


def test_the_day_after_that_is_one_date() -> None:
    conversation = (
        "a: Noted, Tuesday unavailable. | "
        "u: Actually no, Tuesday's fine, it's the Tuesday after that I'm away."
    )
    assert days(conversation) == {("tuesday", "available")}


def test_doing_a_day_somewhere_else() -> None:
    assert days("u: I'm doing Wednesdays at the food bank now.") == {("wednesday", "unavailable")}


def test_an_offer_to_confirm_a_visit_is_no_standing_day() -> None:
    conversation = "a: We wanted to confirm Monday. Is that still okay? | u: Yes, fine."
    assert typed(conversation) == set()


# -- values: contact, makes, streets, floors, boiler types --------------------------------------


@pytest.mark.parametrize(
    "conversation",
    [
        "u: I can't do Fridays. I did ring on Monday and leave a message, by the way.",
        "u: not wednesday, i told the chap on the phone yesterday as well",
    ],
)
def test_a_call_the_caller_made_is_no_way_to_reach_them(conversation: str) -> None:
    assert of_kind(conversation, "contact_preference") == set()


def test_a_call_made_before_does_not_hide_the_preference_after_it() -> None:
    conversation = "u: I phoned last month, but a text is best."
    assert of_kind(conversation, "contact_preference") == {(None, "text message")}


def test_a_channel_the_caller_keeps_missing() -> None:
    conversation = "a: Is email still best? | u: Ring me instead, I keep missing the emails."
    assert of_kind(conversation, "contact_preference") == {(None, "phone call")}


def test_preferred_to_all_that() -> None:
    conversation = "u: I prefer an email to all those phone calls."
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


def test_the_phone_the_caller_loses_is_not_the_line_to_ring() -> None:
    conversation = (
        "a: so we'll ring your mobile | "
        "u: actually ring the landline im always losing the mobile under the cushions"
    )
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


def test_from_now_on_please_email() -> None:
    conversation = (
        "a: How should we reach you? | u: Usually a call. | a: Okay. | "
        "u: I'm moving jobs, so from now on please email."
    )
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: its an ideal now the vaillant packed up", "Ideal"),
        ("u: It's a Worcester. The Baxi's the old one in the shed.", "Worcester Bosch"),
        ("u: No, a Vokera. The Ideal was the one before.", "Vokera"),
    ],
)
def test_a_make_said_after_as_the_old_one(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "equipment_make") == {(None, expected)}


@pytest.mark.parametrize(
    "conversation",
    [
        "a: Is parking easy? | u: Not on our road. Nearest is the Aldi car park, ten minutes' walk",
        "a: which house number | u: 27 park road sorry its an odd road",
    ],
)
def test_words_no_street_carries(conversation: str) -> None:
    assert of_kind(conversation, "address") == set()


def test_a_street_named_with_a_number_still_reads() -> None:
    assert of_kind("u: we're at 31 Mill Road", "address") == {(None, "31 Mill Road")}


def test_a_floor_that_is_the_car_park() -> None:
    conversation = "a: which floor | u: we're on the first, the ground floor is the car park really"
    assert of_kind(conversation, "floor") == {(None, "1st floor")}


def test_a_value_read_back_then_denied_is_put_right_after() -> None:
    conversation = (
        "a: So, flat 3, second floor? | u: Flat 3, yes. Second floor, no. We're on the sixth."
    )
    assert of_kind(conversation, "floor") == {(None, "6th floor")}
    assert of_kind(conversation, "flat") == {(None, "Flat 3")}


def test_what_a_mate_said_set_against_the_caller() -> None:
    conversation = "u: its a system boiler er my brother said combi but it aint it has a tank"
    assert of_kind(conversation, "boiler_type") == {(None, "system")}


def test_aint_is_a_negation() -> None:
    assert days("u: sundays ain't any good for us") == {("sunday", "unavailable")}


# -- requests, favourites, dates, read-backs put right --------------------------------------


@pytest.mark.parametrize(
    "conversation",
    [
        "u: yeah can i get someone out on friday please the radiators are cold",
        "u: can you send an engineer out tuesday the pilot light keeps going",
    ],
)
def test_asking_for_someone_out_on_a_day_is_a_request(conversation: str) -> None:
    assert days(conversation) == set()


def test_out_said_of_the_caller_still_reads() -> None:
    assert days("u: I'm out on Fridays.") == {("friday", "unavailable")}


def test_no_longer_the_favourite_says_nothing_of_the_day() -> None:
    assert days("a: is friday still your best day | u: no not any more") == set()


def test_no_longer_fine_still_reads() -> None:
    assert days("a: is friday still ok for you | u: no not any more") == {("friday", "unavailable")}


def test_the_day_the_caller_mentioned_is_one_day() -> None:
    conversation = (
        "u: i can't do mondays at all, the thursday i mentioned was just when it broke down"
    )
    assert days(conversation) == {("monday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: so fridays a no go | u: no monday monday not friday",
            {("monday", "unavailable")},
        ),
        (
            "a: so thats tuesdays and fridays out | u: no tuesdays and sundays sundays not fridays",
            {("tuesday", "unavailable"), ("sunday", "unavailable")},
        ),
    ],
)
def test_no_days_not_the_day_read_back(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_type_put_right_without_commas_keeps_no_first_type() -> None:
    conversation = "a: what type is it | u: combi no system its a system"
    assert ("boiler_type", None, "combi") not in typed(conversation)


def test_a_floor_put_right_after_the_flat() -> None:
    conversation = (
        "a: What floor are you on? | u: Second. | a: Second floor. And the flat? | "
        "u: Flat 22. Oh, hang on, we're on the third, the numbers start at 21 on the third."
    )
    assert of_kind(conversation, "floor") == {(None, "3rd floor")}


def test_a_count_said_back_keeps_the_question_open_for_a_recount() -> None:
    conversation = (
        "a: How many radiators? | u: Ten, I think. | a: Ten radiators. | "
        "u: Let me count. Kitchen, landing, two in the lounge, three bedrooms, bathroom... "
        "that's nine."
    )
    assert of_kind(conversation, "equipment_count") == {("radiator", "9 radiators")}


def test_a_count_said_back_with_a_new_question_asks_the_new_one() -> None:
    conversation = (
        "a: How many radiators? | u: Seven. | a: Seven radiators. And towel rails? | u: Two."
    )
    assert ("radiator", "2 radiators") not in of_kind(conversation, "equipment_count")


def test_a_bare_count_against_two_counts_read_back_is_a_guess() -> None:
    conversation = (
        "u: Five radiators and one thermostat. | a: Fifteen radiators and one thermostat? | "
        "u: No, five."
    )
    assert ("thermostat", "5 thermostats") not in of_kind(conversation, "equipment_count")


def test_a_count_put_right_beside_its_unit_still_reads() -> None:
    conversation = (
        "a: So two boilers and twelve radiators? | u: Twelve radiators, no, it's thirteen."
    )
    assert ("radiator", "13 radiators") in of_kind(conversation, "equipment_count")
