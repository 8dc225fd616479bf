"""Round 23: clauses speech-to-text runs on after "only" and "best" and before "it's just";
a read-back with a day left open; days something happened on ("I rang on a Wednesday", "we
had the gas man out on a Friday"); "have a good Sunday"; "no X X" to a read-back; somebody
else's count, then the caller's. Phrased for these tests, not taken from any scored set."""

from __future__ import annotations

import pytest

from tests.memory.spoken_calls import days, of_kind


def test_only_a_day_then_a_day_worked() -> None:
    conversation = "a: You said Monday only? | u: no sorry tuesday only i work mondays now"
    found = days(conversation)
    assert ("tuesday", "unavailable") not in found
    assert ("monday", "unavailable") in found


def test_a_day_i_can_do_then_just_the_others() -> None:
    conversation = (
        "a: Which days are out? | u: thursday friday and saturday | a: Thursday to Saturday out. | "
        "u: wait not friday friday i can do it's just thursday and saturday"
    )
    found = days(conversation)
    assert ("thursday", "available") not in found
    assert ("saturday", "available") not in found


def test_now_its_only_a_day_keeps_now_with_it() -> None:
    conversation = "u: I used to only be able to do Tuesdays, but now it's only Thursdays."
    assert ("tuesday", "available") not in days(conversation)


def test_best_then_a_day_worked() -> None:
    conversation = "u: mondays are best sorry i mean tuesdays are best mondays i work"
    assert ("monday", "available") not in days(conversation)


def test_a_read_back_with_a_day_left_open() -> None:
    conversation = (
        "a: Any days to avoid? | u: Fridays definitely. Tuesdays, perhaps, I'll let you know. | "
        "a: So Friday out, and Tuesday to be confirmed? | u: Yes."
    )
    assert days(conversation) == {("friday", "unavailable")}


@pytest.mark.parametrize(
    "conversation",
    [
        "u: I'm not free Monday. I phoned you on a Thursday last month and it was fine.",
        "u: We had a plumber out on a Tuesday once, lovely chap. Anyway, Mondays are out.",
    ],
)
def test_a_day_something_happened_on(conversation: str) -> None:
    assert days(conversation) == {("monday", "unavailable")}


def test_a_day_not_to_come_on_still_reads() -> None:
    assert days("u: I'd rather you didn't come on a Friday, I won't be in.") == {
        ("friday", "unavailable")
    }


def test_the_agents_past_visit_still_asks() -> None:
    conversation = "a: Last time we came on a Monday. Is that still good? | u: Not any more, no."
    assert days(conversation) == {("monday", "unavailable")}


def test_have_a_good_day() -> None:
    assert days("u: Cheers, have a good Saturday.") == set()


def test_no_a_day_said_twice_to_a_read_back() -> None:
    conversation = "a: Monday and Thursday? | u: no friday friday"
    assert ("friday", "unavailable") not in days(conversation)


@pytest.mark.parametrize(
    "conversation",
    [
        "u: the folks next door they've got like eleven radiators i've only got six",
        "u: the people next door have got like eleven radiators",
    ],
)
def test_somebody_elses_then_the_callers(conversation: str) -> None:
    assert ("radiator", "11 radiators") not in of_kind(conversation, "equipment_count")
