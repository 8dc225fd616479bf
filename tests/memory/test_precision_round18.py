"""Round 18: a caller changing their mind inside one run-on clause, asides between a correction
and its value, days given to something else ("my office days", "I do Thursdays at the food
bank"), read-backs the agent notes rather than offers, and a way to reach the caller put right
in the same breath. Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, facts, of_kind, quoted


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: Tuesday and Thursday are my office days.",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "u: Wednesday is our swim-and-work day so nobody's about.",
            {("wednesday", "unavailable")},
        ),
        # A negated day, then the days restated as the caller's work days: one negation.
        (
            "u: not mondays not fridays them are my work days",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
        ("u: these days i do saturdays at the garden centre", {("saturday", "unavailable")}),
    ],
)
def test_days_given_to_something_else_do_not_work(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: I can't manage Thursday or Friday - well, Friday I actually can, just not "
            "Thursday.",
            {("thursday", "unavailable"), ("friday", "available")},
        ),
        (
            "u: Mondays suit me - well, except they don't, it's my pottery class.",
            {("monday", "unavailable")},
        ),
        (
            "u: Saturdays are a no - oh I'm all mixed up, I mean Sundays are a no.",
            {("sunday", "unavailable")},
        ),
        (
            "u: not tuesday i mean not wednesday tuesday is alright",
            {("wednesday", "unavailable"), ("tuesday", "available")},
        ),
    ],
)
def test_a_day_put_right_in_one_breath(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_sentence_that_ends_taking_back_is_put_right_by_the_next() -> None:
    conversation = (
        "u: Thursday's no good - no, hold on. Thursday's fine, it's Monday that's no good."
    )
    assert days(conversation) == {("thursday", "available"), ("monday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        # "it's <day> that ..." after a reason starts the day put right.
        (
            "a: Which days are out? | u: fridays are out no wait thats my old hours "
            "its mondays that are out",
            {("monday", "unavailable")},
        ),
        # "just <day>" then another day with its own predicate.
        (
            "u: mondays and fridays are no use | a: So Mondays and Fridays don't work? | "
            "u: just mondays fridays fine really",
            {("monday", "unavailable"), ("friday", "available")},
        ),
        # The reason after a finished predicate, in the past, is no word against the day.
        (
            "u: sorry saturday is fine i was reading the wrong calendar",
            {("saturday", "available")},
        ),
        ("u: i do thursdays sorry fridays i do fridays thursday im around", None),
    ],
)
def test_run_on_clauses_are_split(conversation: str, expected: set[tuple[str, str]] | None) -> None:
    if expected is None:
        # "... fridays i do fridays thursday i'm around": Friday worked, Thursday free.
        assert ("thursday", "available") in days(conversation)
        assert ("thursday", "unavailable") not in days(conversation)
    else:
        assert days(conversation) == expected


@pytest.mark.parametrize(
    "conversation",
    [
        "u: im around monday tuesday thursday well not thursday monday and tuesday",
        "u: we used to do mondays and wednesdays now just wednesdays",
    ],
)
def test_a_day_said_both_ways_in_one_clause_is_kept_as_words(conversation: str) -> None:
    assert not days(conversation)
    assert quoted(conversation)


def test_not_now_after_the_past_agrees_with_it() -> None:
    assert days("u: we used to do fridays not any more") == {("friday", "unavailable")}


def test_the_weekend_excepted_is_every_weekend() -> None:
    assert days("u: Any day works bar the weekend and Tuesdays.") == {
        ("saturday", "unavailable"),
        ("sunday", "unavailable"),
        ("tuesday", "unavailable"),
    }


def test_an_exception_list_without_commas() -> None:
    assert days("u: any day's fine except monday thursday and saturday") == {
        ("monday", "unavailable"),
        ("thursday", "unavailable"),
        ("saturday", "unavailable"),
    }


def test_only_the_day_excepted_from_work_is_the_one_that_works() -> None:
    conversation = (
        "u: I'm at work every day except Wednesday | a: So Wednesday is your only free day? | "
        "u: yes only wednesday"
    )
    assert ("wednesday", "available") in days(conversation)
    assert ("wednesday", "unavailable") not in days(conversation)


def test_an_excepted_day_with_a_subject_of_its_own_is_its_own_clause() -> None:
    conversation = "u: I'm home most days now, but Thursday I'm at the day centre."
    assert days(conversation) == {("thursday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: sundays theres never anything on", {("sunday", "available")}),
        ("u: Tuesdays, which used to be hopeless, are now in.", {("tuesday", "available")}),
        (
            "u: I'm home Fridays now, but up until last year I couldn't do Fridays.",
            {("friday", "available")},
        ),
        ("u: until last month i could do mondays", {("monday", "unavailable")}),
    ],
)
def test_the_sign_said_now(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_no_chance_agrees_with_a_negative_read_back() -> None:
    conversation = (
        "u: wednesdays and thursdays im snowed under | a: So Wednesday and Thursday are no "
        "good? | u: no chance"
    )
    assert days(conversation) == {("wednesday", "unavailable"), ("thursday", "unavailable")}


def test_a_day_the_agent_noted_is_no_slot_offered() -> None:
    conversation = (
        "u: Fridays are out. | a: Friday out, I've written that down. | "
        "u: Sorry, I mean Saturday, not Friday. Friday's fine."
    )
    assert days(conversation) == {("saturday", "unavailable"), ("friday", "available")}


def test_a_day_that_now_works_after_a_swap_leaves_the_other_days_alone() -> None:
    conversation = (
        "u: Tuesdays are out. | a: Tuesday out. Any other days? | u: Sunday's fine. | "
        "a: Sunday, lovely. | u: Oh, actually, Tuesday I can do now, we swapped rotas."
    )
    assert days(conversation) == {("tuesday", "available"), ("sunday", "available")}


def test_those_are_off_is_a_guess() -> None:
    conversation = "u: Monday and Tuesday, those are off."
    assert not days(conversation)
    assert quoted(conversation)


def test_a_bare_channel_answers_the_agents_either_or() -> None:
    conversation = (
        "a: How should we get in touch? | u: Ring me. | a: Mobile or landline? | "
        "u: Landline. I haven't got a mobile."
    )
    assert of_kind(conversation, "contact_preference") == {(None, "landline")}


@pytest.mark.parametrize(
    ("conversation", "put_right"),
    [
        ("u: email me er no the landline emails i never look at", "email"),
        ("u: call the landline um no the mobile the landlines always engaged", "landline"),
        ("a: Best way to reach you? | u: text is best no the mobile i mean a call", "text message"),
    ],
)
def test_a_channel_put_right_is_not_kept(conversation: str, put_right: str) -> None:
    assert (None, put_right) not in of_kind(conversation, "contact_preference")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: The mobile's best, I'm no use with landlines.", "mobile"),
        ("u: Text me please, no emails.", "text message"),
        ("u: Emails end up in my junk, so a text is better.", "text message"),
    ],
)
def test_a_no_that_is_no_correction(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "contact_preference") == {(None, expected)}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: we moved from flat six b to flat nine a upstairs", "flat 9a"),
        ("u: flat 3 a week ago we had a leak", "flat 3"),
    ],
)
def test_a_flat_letter_a(conversation: str, expected: str) -> None:
    assert {value.casefold() for _, value in of_kind(conversation, "flat")} == {expected}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: I would guess it's an Ideal, but don't quote me.",
        "u: Difficult to say about Saturdays, really.",
    ],
)
def test_guesses_store_nothing(conversation: str) -> None:
    assert not of_kind(conversation, "equipment_make")
    assert not days(conversation)


def test_otherwise_is_said_of_the_other_days() -> None:
    conversation = "u: I'm at the clinic Tuesdays and Fridays, otherwise I'm in."
    assert days(conversation) == {("tuesday", "unavailable"), ("friday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: tuesday no wednesday no thursday yeah",
            {("tuesday", "unavailable"), ("wednesday", "unavailable"), ("thursday", "available")},
        ),
        (
            "a: Saturday or Sunday? | u: saturday sunday both no",
            {("saturday", "unavailable"), ("sunday", "unavailable")},
        ),
        # One "no" after a day, then a day with its own predicate: a day put right.
        ("u: friday no thursday is the one i cant do", {("thursday", "unavailable")}),
        # "no good" is the predicate, not an answer.
        ("u: friday no friday no good", {("friday", "unavailable")}),
    ],
)
def test_days_answered_in_turn(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_relative_clause_in_the_past_is_no_word_on_now() -> None:
    assert days("u: Fridays, which were always out, are now in.") == {("friday", "available")}


def test_a_bare_day_after_a_day_turned_round_is_a_guess() -> None:
    conversation = (
        "u: Monday's good, Monday mornings. No, not Monday at all, I was thinking of last "
        "term. Friday."
    )
    assert ("friday", "unavailable") not in days(conversation)
    assert ("friday", "available") not in days(conversation)


def test_a_bare_day_answering_the_agent_after_a_turnround_is_read() -> None:
    conversation = (
        "u: mondays are good | a: Monday then. | u: no wait mondays are out now | "
        "a: Which day is your best day then? | u: thursday"
    )
    assert of_kind(conversation, "preferred_day") == {(None, "thursday")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: So that's Tuesdays out and Thursdays fine? | u: Yes, spot on.",
            {("tuesday", "unavailable"), ("thursday", "available")},
        ),
        (
            "a: Monday available, Saturday out? | u: Yes.",
            {("monday", "available"), ("saturday", "unavailable")},
        ),
        ("a: So Wednesday's fine and Friday's out? | u: No.", set()),
    ],
)
def test_a_read_back_said_two_ways_is_confirmed_day_by_day(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_read_back_without_its_question_mark() -> None:
    conversation = "a: so thats wednesdays and fridays out | u: just wednesdays"
    assert days(conversation) == {("wednesday", "unavailable")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "u: They moved my rota, it's Mondays I'm off now, not Wednesdays.",
            {("monday", "available"), ("wednesday", "unavailable")},
        ),
        (
            "a: Which days can't you do? | u: Mondays. | a: Mondays out. Any others? | "
            "u: Wednesdays. No, wait, that was last term. It's Wednesdays only now, not Mondays.",
            {("wednesday", "unavailable")},  # Monday taken back, nothing new said of it
        ),
    ],
)
def test_the_day_a_new_one_replaces_is_the_other_way_round(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_fire_away_is_go_ahead() -> None:
    assert days("u: wednesday to friday fire away") == {
        ("wednesday", "available"),
        ("thursday", "available"),
        ("friday", "available"),
    }


@pytest.mark.parametrize(
    "conversation",
    [
        "u: thursday off yeah and friday also off",
        "u: Not Tuesdays - Thursdays.",
        "u: weekdays no weekends only sunday or saturday",
    ],
)
def test_signs_that_could_go_either_way_are_kept_as_words(conversation: str) -> None:
    assert not days(conversation)
    assert quoted(conversation)


def test_a_day_after_a_finished_predicate_with_its_own_sign() -> None:
    conversation = "u: weekends ok er sunday ok saturday no good"
    # Saturday both ways in one breath is kept as words; Sunday is read.
    assert days(conversation) == {("sunday", "available")}
    assert quoted(conversation)


def test_any_day_said_later_undoes_the_days_said_not_to_work() -> None:
    conversation = (
        "u: I used to only be able to do Mondays but I've gone part time, so any day bar "
        "Friday works."
    )
    assert days(conversation) == {("monday", "available"), ("friday", "unavailable")}


def test_any_day_said_later_leaves_somebody_elses_days_alone() -> None:
    conversation = "u: my son can't do tuesdays but i can do any day except thursday"
    assert ("tuesday", "available") not in days(conversation)


@pytest.mark.parametrize(
    "conversation",
    [
        "u: it's my lodger who can't do wednesdays, I'm easy",
        "u: me i dont mind its my husband who cant do mondays",
        "a: Which days are you home? | u: the young lad upstairs is only home on sundays",
        "a: Which days are you in? | u: the old boy next door hes only in on tuesdays",
    ],
)
def test_somebody_elses_days_said_another_way(conversation: str) -> None:
    assert not days(conversation)


def test_they_were_answers_for_then() -> None:
    conversation = (
        "a: so thursdays suit you | u: they did but not any more, fridays i'm about these days"
    )
    assert ("thursday", "available") not in days(conversation)
    conversation = (
        "a: so thursdays are okay for you | u: they were but theyre not any more um fridays "
        "though fridays i'm around now"
    )
    assert ("thursday", "available") not in days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Monday's my favourite day, or rather Tuesday, Monday I've got yoga.", "tuesday"),
        ("u: Wednesday is best, or rather Thursday.", "thursday"),
    ],
)
def test_a_favourite_put_right(conversation: str, expected: str) -> None:
    assert of_kind(conversation, "preferred_day") == {(None, expected)}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: Could you call my daughter instead of me? She's better with texts.",
        "u: my landlords number is on the lease ring him about the boiler not me",
    ],
)
def test_a_channel_to_somebody_else_is_not_the_callers(conversation: str) -> None:
    assert not of_kind(conversation, "contact_preference")


def test_a_channel_the_caller_is_reached_on_is_theirs() -> None:
    conversation = "u: text me, my grandson showed me how"
    assert of_kind(conversation, "contact_preference") == {(None, "text message")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: Which days are no good? | u: Wednesday, Friday - oh, and Sunday.",
            {("wednesday", "unavailable"), ("friday", "unavailable"), ("sunday", "unavailable")},
        ),
        (
            "a: Any days you can't do? | u: Tuesdays and Thursdays, because I'm at college.",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "a: Shall I note any days you can't do? | u: Yes - Mondays and Fridays.",
            {("monday", "unavailable"), ("friday", "unavailable")},
        ),
    ],
)
def test_bare_days_answer_the_agents_days_question(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_new_question_after_a_read_back_asks_with_its_own_sign() -> None:
    conversation = (
        "a: So Mondays are out now. Is there another day that's good instead? | "
        "u: Wednesdays, these days."
    )
    assert ("wednesday", "unavailable") not in days(conversation)


def test_a_question_about_the_day_read_back_is_still_about_it() -> None:
    conversation = (
        "a: Last time we came on a Friday. Is that still good? | "
        "u: Not any more, no. I'm at the gym on Fridays now."
    )
    assert days(conversation) == {("friday", "unavailable")}


def test_a_correction_that_names_nothing_leaves_the_next_sentence_to_say_it() -> None:
    conversation = (
        "a: So Thursday's your best day? | u: Thursday, yes. Or - no, that's my pottery "
        "class and I'm out all day. Put Friday down as my best day."
    )
    assert of_kind(conversation, "preferred_day") == {(None, "friday")}


def worded(conversation: str, kind: str) -> list[str]:
    """What the call kept under a worded kind (the caller's words, never a typed fact)."""
    return [f.value for f in facts(conversation) if f.kind == kind]


@pytest.mark.parametrize(
    ("conversation", "words"),
    [
        ("a: Where's the gas meter? | u: Cupboard under the sink, at the back.", "sink"),
        (
            "a: Is the meter inside or outside? | u: Outside. | a: Whereabouts outside? | "
            "u: On the side wall by the gate.",
            "gate",
        ),
        ("a: whereabouts is the meter | u: in the cellar on the left", "cellar"),
        ("a: so the meter is in the hall | u: no its in the porch by the mat", "porch"),
    ],
)
def test_the_answer_to_where_the_meter_is(conversation: str, words: str) -> None:
    kept = worded(conversation, "meter_location")
    assert any(words in value.casefold() for value in kept)


def test_only_the_first_place_answers_where_the_meter_is() -> None:
    conversation = "a: And the meter? | u: Loft. Watch the ladder, it wobbles."
    kept = [value.casefold() for value in worded(conversation, "meter_location")]
    assert kept and all("ladder" not in value for value in kept)


def test_somebody_elses_meter_is_not_the_callers() -> None:
    conversation = "a: Where's the meter? | u: My sister's is in her garage, ours I'm not sure."
    assert not worded(conversation, "meter_location")


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: So that's Monday and Wednesday out? | u: monday yes wednesday no",
            {("monday", "unavailable"), ("wednesday", "available")},
        ),
        (
            "a: So Wednesday and Friday out, Monday fine? | u: yeah thats me",
            {("wednesday", "unavailable"), ("friday", "unavailable"), ("monday", "available")},
        ),
    ],
)
def test_answers_agree_with_the_read_back(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: saturdays we go to the allotment", {("saturday", "unavailable")}),
        (
            "u: monday doesnt work mondays i do the school run and then the shop",
            {("monday", "unavailable")},
        ),
        # The caller's job, not the day: "I don't work Mondays" says Mondays are free.
        ("u: I don't work Tuesdays, so Tuesday's good.", {("tuesday", "available")}),
        (
            "u: I'm home most days except Wednesday when we do the big shop.",
            {("wednesday", "unavailable")},
        ),
    ],
)
def test_a_day_given_to_something_else(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_just_days_after_days_said_out_narrows_them() -> None:
    conversation = (
        "a: Which days are out? | u: monday tuesday thursday | a: Monday, Tuesday and "
        "Thursday out. | u: no hang on tuesday is fine i was thinking of last month just monday "
        "and thursday"
    )
    assert days(conversation) == {
        ("tuesday", "available"),
        ("monday", "unavailable"),
        ("thursday", "unavailable"),
    }


def test_the_rest_of_the_week_is_a_clause_of_its_own() -> None:
    # Once "the rest of the week I'm at work" is its own clause, said of the other days, the one
    # day is read (round 17 kept the whole run-on line as words).
    conversation = "u: it's only ever wednesdays for me the rest of the week i'm at work"
    assert of_kind(conversation, "preferred_day") == {(None, "wednesday only")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: Any days that are tricky? | u: tuesday i'm i'm not here tuesdays at all | "
            "a: Right, so no Tuesdays. | u: yep",
            {("tuesday", "unavailable")},
        ),
        (
            "a: Which days can't you do? | u: monday and er wednesday | "
            "a: So Monday and Wednesday are out? | u: yeah and thursday as well actually",
            {("monday", "unavailable"), ("wednesday", "unavailable"), ("thursday", "unavailable")},
        ),
        (
            "a: Which days don't work? | u: Thursday, Friday. | a: Thursday and Friday out. | "
            "u: Plus the weekend. | a: So Thursday, Friday, Saturday and Sunday are out? | "
            "u: That's the size of it.",
            {
                ("thursday", "unavailable"),
                ("friday", "unavailable"),
                ("saturday", "unavailable"),
                ("sunday", "unavailable"),
            },
        ),
        (
            "a: So Mondays and Tuesdays are good? | u: mondays yeah tuesdays not so much",
            {("monday", "available"), ("tuesday", "unavailable")},
        ),
        ("a: Could Friday work? | u: Friday? Not on your nelly.", {("friday", "unavailable")}),
        (
            "a: Which days should we avoid? | u: Sunday. I'm never in Sundays. | "
            "a: Sundays out. And Saturdays? | u: Oh, Saturdays are fine.",
            {("sunday", "unavailable"), ("saturday", "available")},
        ),
    ],
)
def test_longer_calls_with_read_backs(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: Any days you can't do? | u: not tuesday or thursday | "
            "a: So Tuesday and Thursday are out. Anything else? | u: No, that's it.",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        # The read-back with "anything else" run on, as speech-to-text writes the agent too: a
        # "nah" adds nothing and turns nothing round.
        (
            "a: are there days you cant do | u: um not tuesday or thursday | "
            "a: so tuesday and thursday are out anything else | u: nah thats all",
            {("tuesday", "unavailable"), ("thursday", "unavailable")},
        ),
        # "yeah that's it" confirms.
        (
            "a: Which days are out? | u: sundays we used to do but not any more | "
            "a: So Sundays are out now? | u: yeah thats it",
            {("sunday", "unavailable")},
        ),
    ],
)
def test_nothing_more_to_add_takes_nothing_back(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: Fridays I'm off fishing with my brother, so that's a washout.", "unavailable"),
        ("u: Fridays I'm off, so that works.", "available"),
    ],
)
def test_off_somewhere_is_not_a_day_off(conversation: str, expected: str) -> None:
    assert days(conversation) == {("friday", expected)}


def test_a_favourite_in_a_read_back_is_not_a_plain_sign() -> None:
    conversation = (
        "a: What day's best? | u: Mondays. | a: Monday best then. | u: No - I've just started "
        "Monday shifts. Thursdays are best now. | a: So Thursday best, Monday out? | u: Yes."
    )
    assert ("monday", "available") not in days(conversation)


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: days that suit | u: any day is fine except the monday monday no",
            {("monday", "unavailable")},
        ),
        (
            "a: any changes | u: well i used to be out sundays but im not now sundays im in",
            {("sunday", "available")},
        ),
        # Without "now" set against it, the later value is the one kept (the corpus policy).
        ("u: from march thursdays are out", {("thursday", "unavailable")}),
        (
            "u: book it for tuesday please but tuesdays are bad for me its just this once im off",
            {("tuesday", "unavailable")},
        ),
        (
            "a: so fridays are out | u: no fridays are in its mondays out",
            {("friday", "available"), ("monday", "unavailable")},
        ),
    ],
)
def test_more_run_on_read_backs(conversation: str, expected: set[tuple[str, str]]) -> None:
    assert days(conversation) == expected


def test_a_later_change_set_against_now_is_not_typed_the_later_way() -> None:
    conversation = (
        "a: and thursdays | u: er from march thursdays wont work but right now theyre fine"
    )
    assert ("thursday", "unavailable") not in days(conversation)


def test_a_day_taken_on_as_shifts_is_out() -> None:
    conversation = (
        "a: What day is best? | u: Sundays mostly. | a: Sunday best then. | u: Hmm, no, I've "
        "just picked up Sunday shifts. Can we say Tuesday? Tuesdays are best now."
    )
    assert days(conversation) == {("sunday", "unavailable")}
    assert of_kind(conversation, "preferred_day") == {(None, "tuesday")}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: My next-door neighbour's got twelve radiators, would you believe.",
        "u: my sister in law shes got nine radiators in her place",
    ],
)
def test_somebody_elses_count_is_not_the_callers(conversation: str) -> None:
    assert not of_kind(conversation, "equipment_count")


def test_a_channel_asked_for_instead_after_or_actually() -> None:
    conversation = "u: Texts are fine. Or, actually, could you email instead? I lose texts."
    assert of_kind(conversation, "contact_preference") == {(None, "email")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        ("u: It's a Vaillant, I think it's a Vaillant.", set()),
        (
            "u: its a vaillant im fairly sure yeah ive just checked definitely vaillant",
            {(None, "Vaillant")},
        ),
        # A doubt about the name of the thing, not about what it is.
        ("u: A Glow-worm. I think the model's a Betacom.", {(None, "Glow-worm")}),
    ],
)
def test_a_value_said_again_with_a_doubt(
    conversation: str, expected: set[tuple[None, str]]
) -> None:
    assert of_kind(conversation, "equipment_make") == expected


def test_a_correction_word_after_a_day_starts_the_day_put_right() -> None:
    conversation = (
        "u: mondays and thursdays im busy | a: Mondays and Thursdays unavailable. | "
        "u: just thursdays actually mondays fine now"
    )
    # Whole, the run-on clause read Thursday as the one day that works.
    assert ("monday", "available") in days(conversation)
    assert ("thursday", "available") not in days(conversation)


def test_a_later_sentence_changing_an_earlier_day_is_no_correction_of_the_last_turn() -> None:
    conversation = (
        "u: Tuesdays are out. | a: Tuesday out. Any other days? | u: Sunday's fine. | "
        "a: Sunday, lovely. | u: Sorry, one thing. Tuesday I can do now, we swapped rotas."
    )
    assert days(conversation) == {("tuesday", "available"), ("sunday", "available")}


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (
            "a: so wednesday no friday and saturday yes | u: yeah thats it",
            {("wednesday", "unavailable"), ("friday", "available"), ("saturday", "available")},
        ),
        (
            "a: tuesday and thursday are both out yeah | u: tuesday yes thursday no",
            {("tuesday", "unavailable"), ("thursday", "available")},
        ),
        (
            "a: still friday as your best day | u: no not since i changed jobs monday's best now",
            set(),
        ),
        (
            "a: any days to avoid | u: yeah monday i cant monday is a nightmare | "
            "a: okay so monday is no good anything else | u: nope thats it just monday",
            {("monday", "unavailable")},
        ),
        (
            "a: ive written down fridays unavailable is that right | u: no i said maybe "
            "fridays i dont know yet",
            set(),
        ),
    ],
)
def test_run_on_read_backs_from_the_agent(
    conversation: str, expected: set[tuple[str, str]]
) -> None:
    assert days(conversation) == expected


def test_a_day_after_a_changed_job_is_its_own_clause() -> None:
    conversation = (
        "a: still friday as your best day | u: no not since i changed jobs monday's best now"
    )
    assert of_kind(conversation, "preferred_day") == {(None, "monday")}


def test_a_sentence_left_in_doubt_is_not_what_a_later_only_narrows() -> None:
    conversation = (
        "a: what days are good | u: only day i can do is a tuesday i work the other four and "
        "saturday i'm at the match | a: tuesday only then | u: tuesday only yeah"
    )
    assert ("tuesday", "unavailable") not in days(conversation)


def test_a_favourite_read_back_gives_no_availability() -> None:
    assert days("a: So Monday's out and Friday's best? | u: Yes.") == {("monday", "unavailable")}


def test_days_answered_in_turn_before_the_rest() -> None:
    conversation = "u: tuesday no wednesday no thursday no weekdays apart from tuesday are fine"
    assert days(conversation) == {("tuesday", "unavailable")}
