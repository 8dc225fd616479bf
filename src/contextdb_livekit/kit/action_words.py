"""How callers name two common actions in their answer to a read-back (`kit.replies`):
booking something (an appointment, a place, a slot) and cancelling it.

A line whose action books or cancels declares these words for it, with its own domain's:

    words=ActionWords(agree=(*CANCEL_WORDS.agree, "it's fixed"), refuse=CANCEL_WORDS.refuse)

In a phrase, "it" stands for any way of naming what was booked ("that", "the appointment",
...), as everywhere in `ActionWords`.
"""

from __future__ import annotations

from contextdb_livekit.kit.replies import ActionWords

# "book me in" agrees; "we'll manage" refuses; "cancel that" and "don't book it" are the
# grammar's generic no's.
BOOK_WORDS = ActionWords(
    agree=(
        "book",
        "get it booked",
        "have it booked",
        "want it booked",
        "need it booked",
        "pencil it in",
        "pencil me in",
        "pencil us in",
        "put it in",
        "put me in",
        "put us in",
        "put me down",
        "put us down",
        "pop it in",
        "pop me in",
        "pop us in",
        "pop me down",
        "sign me up",
        "sign us up",
        "lock it in",
        "i'll take it",
        "we'll take it",
        "i'll have it",
        "we'll have it",
        "i'm free",
        "i'm available",
        "we're free",
        "we're available",
        "see you then",
    ),
    refuse=(
        "don't need it",
        "don't need one",
        "don't need anyone",
        "no longer need it",
        "not needed",
        "i'll manage",
        "we'll manage",
        "i'll sort it myself",
        "we'll sort it ourselves",
        "won't bother",
    ),
)

# "scrap it", "we don't need it anymore" agree; "keep it", "still need it" refuse; "don't
# cancel it" is a negated action, so no.
CANCEL_WORDS = ActionWords(
    agree=(
        # "cancel", "cancel it", "cancel that", "scrap it" are refusals of a booking
        # read-back; declared here, they agree.
        "cancel",
        "cancel it",
        "cancel that",
        "cancel away",
        "cancellation",
        "cancelling",
        "get it cancelled",
        "have it cancelled",
        "want it cancelled",
        "need it cancelled",
        "like it cancelled",
        "still want it cancelled",
        "still need it cancelled",
        "scrap",
        "scrap it",
        "scrap that",
        "scratch it",
        "bin it",
        "ditch it",
        "drop it",
        "dump it",
        "axe it",
        "kill it",
        "wipe it",
        "remove it",
        "delete it",
        "knock it on the head",
        "call it off",
        "get rid",
        "get rid of",
        "get rid of it",
        "take it off",
        "take it out",
        "take me off",
        "take us off",
        "take it off the list",
        "take me off the list",
        "take us off the list",
        "strike it off",
        "cross it off",
        # Agreeing by saying what was booked is not needed.
        "don't need it",
        "don't need anyone",
        "don't need anybody",
        "no longer need it",
        "won't need it",
        "won't be needing it",
        "don't want it",
        "no longer want it",
        "not needed",
        "no longer needed",
        "not required",
        "no longer required",
        "no need for it",
        # Spanish, French, German (accents are stripped before matching).
        "cancelar",
        "cancela",
        "cancelalo",
        "annuler",
        "annulez",
        "stornieren",
        "absagen",
    ),
    refuse=(
        "keep",
        "keep it",
        "leave it",
        "hang on to it",
        "hold on to it",
        "hold onto it",
        "hang onto it",
        "stick with it",
        "still need",
        "still want",
        "still needed",
        "need it",
        "want it",
        "go ahead with the appointment",
        "go ahead with the booking",
        "still go ahead",
    ),
)
