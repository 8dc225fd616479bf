"""Replies to a visit read-back: the kit's yes/no grammar (`kit.replies`) with visit days.

    classify_reply("yes, friday", offered=date(2026, 12, 10))        -> new_request "friday"
    classify_reply("yeah scrap it", offered=..., action=CANCELLING)  -> yes

The scoring benches and the labelled corpora (tests/tools) read replies through this. A
read-back whose action declares no words is read with `BOOKING_READBACK`, the vocabulary the
corpus was labelled with.
"""

from __future__ import annotations

from datetime import date

from contextdb_livekit.kit import replies
from contextdb_livekit.kit.replies import ActionWords, ReplyKind, ReplyReading
from tools.visit_day import VISIT_DAY

__all__ = ["BOOKING_READBACK", "ActionWords", "ReplyKind", "ReplyReading", "classify_reply"]

NO_WORDS = ActionWords()
BOOKING_READBACK = ActionWords(
    agree=(
        "book",
        "book it",
        "book it in",
        "book me in",
        "pencil me in",
        "pencil it in",
        "put me down",
        "sign me up",
        "lock it in",
        "put it in",
        "pop it in",
        "put me in",
        "i'm free",
        "i'm available",
        "we're free",
        "see you then",
    )
)


def classify_reply(
    text: str,
    *,
    offered: date | None = None,
    today: date | None = None,
    action: ActionWords = NO_WORDS,
) -> ReplyReading:
    words = BOOKING_READBACK if action == NO_WORDS else action
    return replies.classify_reply(text, VISIT_DAY, offered=offered, today=today, action=words)
