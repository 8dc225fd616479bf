"""The forget action's target kind (what to forget) and how a caller's answer names it."""

from __future__ import annotations

from datetime import date

import pytest

from contextdb_livekit.caller_data.forget import FORGET_SCOPE, FORGET_WORDS
from contextdb_livekit.kit.replies import classify_reply
from contextdb_livekit.kit.target import InvalidTarget

TODAY = date(2026, 12, 4)


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("everything", "everything"),
        ("my details", "everything"),
        ("All My Details", "everything"),
        ("this call", "this_call"),
        ("this_call", "this_call"),
        ("this conversation", "this_call"),
    ],
)
def test_the_models_argument_names_a_scope(text: str, scope: str) -> None:
    assert FORGET_SCOPE.parse(text, today=TODAY) == scope


@pytest.mark.parametrize("text", ["", "the boiler", "everything and the boiler", "x" * 50])
def test_anything_else_is_refused_without_echoing_it(text: str) -> None:
    with pytest.raises(InvalidTarget) as raised:
        FORGET_SCOPE.parse(text, today=TODAY)
    assert text not in str(raised.value) or text == ""


def test_read_back_and_key() -> None:
    assert FORGET_SCOPE.spoken("everything") == "the details we hold about you"
    assert FORGET_SCOPE.spoken("this_call") == "what you said in this call"
    assert {FORGET_SCOPE.key("everything"), FORGET_SCOPE.key("this_call")} == {
        "everything",
        "this_call",
    }


@pytest.mark.parametrize(
    ("reply", "offered", "kind"),
    [
        ("yes please", "everything", "yes"),
        ("yes, everything", "everything", "yes"),
        ("yes erase everything", "everything", "yes"),
        ("yes, delete my details", "everything", "yes"),
        ("yes, just this call", "everything", "new_request"),
        ("yes, everything", "this_call", "new_request"),
        ("no, keep my details", "everything", "no"),
        ("hmm, what would that mean?", "everything", "other"),
    ],
)
def test_a_reply_is_read_against_the_offered_scope(reply: str, offered: str, kind: str) -> None:
    reading = classify_reply(reply, FORGET_SCOPE, offered=offered, today=TODAY, action=FORGET_WORDS)
    assert reading.kind == kind, reading


def test_forget_it_never_names_the_action() -> None:
    # "forget it" is English for "never mind": not a phrase that agrees to erase.
    assert "forget it" not in FORGET_WORDS.agree
    reading = classify_reply(
        "oh forget it", FORGET_SCOPE, offered="everything", today=TODAY, action=FORGET_WORDS
    )
    assert reading.kind != "yes"
