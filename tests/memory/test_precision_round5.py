"""Round 5 of the rule reader (issue 27), precision first: each guard keeps a wrong typed fact
out of memory, and each is pinned by a phrasing of its own (not the held-out sets')."""

from __future__ import annotations

from datetime import date

import pytest

from memory.extract import Turn, extract_call_facts

TODAY = date(2026, 12, 3)


def typed(conversation: str) -> set[tuple[str, str | None, str]]:
    """The typed facts (quotes and notes left out) of "u: ... | a: ... | u: ..."."""
    turns = []
    for part in conversation.split(" | "):
        role, text = part.split(": ", 1)
        turns.append(Turn("user" if role == "u" else "assistant", text))
    facts = extract_call_facts(turns, [], today=TODAY, call_id="call-1")
    return {(f.kind, f.key, f.value) for f in facts if f.kind not in ("quote", "note")}


@pytest.mark.parametrize(
    ("conversation", "never"),
    [
        # The caller's words about this call are not how they want to be reached.
        ("u: Hi, I'm ringing to check what time the engineer is due.", "contact_preference"),
        ("u: I'm calling on behalf of my dad, he is poorly.", "contact_preference"),
        # Choices and doubt type nothing.
        ("u: It's either a Worcester or a Vaillant, one of the two.", "equipment_make"),
        ("u: Whether it's a system boiler or not, I couldn't tell you.", "boiler_type"),
        ("u: either is fine text or email im not fussy", "contact_preference"),
        # One day in a sentence asking for a visit is the request.
        ("u: Tuesday at 2 would be ideal, can you book it?", "availability"),
        ("u: Friday is good, please book me in.", "availability"),
        ("u: id like the engineer to get it done on thursday if thats possible", "availability"),
        # Somebody else's pet, in their own words.
        ("u: Mr Jones upstairs asked me to mention he's got a parrot.", "pets"),
        ("u: I'm out all day Fridays, hen, so don't bother then.", "pets"),
    ],
)
def test_nothing_of_that_kind_is_typed(conversation: str, never: str) -> None:
    assert never not in {kind for kind, _, _ in typed(conversation)}


@pytest.mark.parametrize(
    ("conversation", "wrong"),
    [
        # A correction whose new value is not read still takes back the old one.
        ("u: number thirty sorry thirteen", ("address", None, "30")),
        ("u: flat eight sorry eighteen", ("flat", None, "Flat 8")),
        (
            "u: Ground floor. Sorry, I tell a lie, we're up on the first.",
            ("floor", None, "Ground floor"),
        ),
        # ...and so does a turn that corrects in its first words, after the agent's echo.
        (
            "u: We're at 12 Station Street. | a: 12 Station Street, got it. | u: Station Road! "
            "Sorry. Station Street is where I work.",
            ("address", None, "12 Station Street"),
        ),
        # A correction that only flips what was just said.
        (
            "u: I can't do Wednesdays... well, actually I can now, they changed my hours.",
            ("availability", "wednesday", "unavailable"),
        ),
        # The past is not now.
        (
            "u: before we could do mondays but not since the new job",
            ("availability", "monday", "available"),
        ),
        (
            "u: I could do Thursdays at one point but not these days.",
            ("availability", "thursday", "available"),
        ),
        # Somebody else's days, and the clause that refers back to them.
        ("u: My wife works Saturdays, I don't.", ("availability", "saturday", "unavailable")),
        # Speech-to-text without apostrophes.
        (
            "u: monday is fine actually no its not fine im at work mondays",
            ("availability", "monday", "available"),
        ),
    ],
)
def test_the_wrong_fact_is_not_kept(conversation: str, wrong: tuple[str, str | None, str]) -> None:
    kind, key, value = wrong
    found = typed(conversation)
    assert not any(
        k == kind and x == key and v.casefold() == value.casefold() for k, x, v in found
    ), found


@pytest.mark.parametrize(
    ("conversation", "kept"),
    [
        # A correction that restates the same value keeps it.
        (
            "u: About a dozen radiators. Actually exactly twelve, I counted.",
            ("equipment_count", "radiator", "12 radiators"),
        ),
        # "sorry" after the new value explains; it does not take the value back.
        (
            "u: We're on the fourth floor. Fifth, sorry, I always lose count.",
            ("floor", None, "5th floor"),
        ),
        # A correcting turn takes back the last turn's note of who will be home.
        (
            "u: I'll be home myself. | a: Lovely. | u: Oh no, wait, I'm away. My son will be in.",
            ("who_home", None, None),
        ),
    ],
)
def test_what_the_caller_settled_on_is_kept(
    conversation: str, kept: tuple[str, str | None, str | None]
) -> None:
    kind, key, value = kept
    found = typed(conversation)
    if value is None:
        assert not any(k == kind and "wife" in v for k, _, v in found), found
    else:
        assert (kind, key, value) in found, found
