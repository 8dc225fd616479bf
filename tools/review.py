"""What this call would change in the caller's memory, read back before the call ends.

The line's side of the review: how the host says each change to the caller. Which facts are
changes, and how the caller's answer to the read-back settles them (confirmed, dropped, or
kept only as their quoted words), is the library's `FactChanges`, over this line's kinds;
which extractor reads the call when is its `ReviewedFacts`.
"""

from __future__ import annotations

from contextdb_livekit.api import FactChanges, ReviewedFacts
from memory.extract import extract_call_facts, quote
from memory.facts import KINDS, TOPICS, CallerFact
from memory.llm_extract import extract_with_model

# A change not confirmed is kept as the caller's own words; a change of routine ("it's
# Tuesdays from now on") switches the weekdays that worked before.
CHANGES: FactChanges[CallerFact] = FactChanges(
    KINDS,
    quote=lambda fact: quote(
        fact.said or fact.sentence, today=fact.observed_on, call_id=fact.call_id
    ),
    switched_kind="availability",
)


def spoken(fact: CallerFact, replaces: bool) -> str:
    """The change in the host's words, to the caller ("Thursdays no longer work for you");
    `replaces`: memory held something else in its slot."""
    value = fact.value
    if fact.kind == "availability":
        day = f"{str(fact.key).capitalize()}s"
        if fact.polarity == "negative":
            return f"{day} no longer work for you" if replaces else f"{day} don't work for you"
        return f"{day} now work for you" if replaces else f"{day} work for you"
    if fact.kind == "preferred_day":
        if value.endswith(" only"):
            return f"only {value.removesuffix(' only').capitalize()}s work for you"
        return f"{value.capitalize()} is your favourite day for a visit"
    phrases = {
        "preferred_time": f"{value}s suit you best for a visit",
        "address": f"your address is {value}",
        "equipment_make": f"your equipment is a {value}",
        "equipment_count": f"you have {value}",
        "boiler_type": f"your boiler is a {value}{'' if 'boiler' in value else ' boiler'}",
        "contact_preference": f"we should contact you by {value}",
        "floor": f"your home is {'in the basement' if value == 'basement' else f'on the {value}'}",
        "flat": f"your flat number is {value.removeprefix('Flat ')}",
    }
    if fact.kind in TOPICS:
        return f"{TOPICS[fact.kind].lower()}, in your words: {value}"
    return phrases.get(fact.kind, value)


# The call's facts for the checkpoints, the end-of-call write (the model when the settings
# name one) and the review's read-back, each settled through `CHANGES`.
REVIEWED_FACTS: ReviewedFacts[CallerFact] = ReviewedFacts(
    CHANGES, rules=extract_call_facts, spoken=spoken, model=extract_with_model
)
