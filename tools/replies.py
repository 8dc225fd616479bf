"""TEMPORARY placeholder; replaced by the textrules branch's implementation at merge."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

ReplyKind = Literal["yes", "no", "other", "new_request"]
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class ReplyReading:
    kind: ReplyKind
    day: str | None = None
    reason: str = ""


def classify_reply(
    text: str, *, offered: date | None = None, today: date | None = None
) -> ReplyReading:
    t = text.lower()
    for d in _DAYS:
        if re.search(rf"\b{d}", t) and (offered is None or offered.strftime("%A").lower() != d):
            return ReplyReading("new_request", d)
    if re.search(r"\b(no|not|don't|wait|hold on)\b", t) or "?" in t:
        return ReplyReading("no" if re.search(r"\bno\b", t) else "other")
    if re.fullmatch(r"\W*(yes|yeah|yep|sure|correct|that's right|yes please)\b.*", t):
        return ReplyReading("yes")
    return ReplyReading("other")
