"""What a gated action is about, and how a caller names it: the kit's one domain hook for it.

A booking is about a day, a refund about an amount, a move about an address. The kit never
knows which: each `GatedAction` brings a `TargetKind` that turns the model's argument into
a target, speaks it in the read-back, keys the request slot and the idempotency key with it,
and finds the targets a caller's reply names ("yes, Friday" names another day; "yes, thirty
pounds" another amount), so the reply reader can tell a new request from a yes.

    kind.parse("thursday", today=...)   -> date(2026, 12, 10)      (or InvalidTarget)
    kind.spoken(target)                 -> "on Thursday 10 December"
    kind.key(target)                    -> "2026_12_10"            (slot and key material)
    kind.mentions(tokens, offered=..., today=...)  -> [Mention(start, end, label, offered)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol, TypeVar

T = TypeVar("T")


class InvalidTarget(ValueError):
    """The model's argument is not a target of this kind. `str(error)` is a short sentence
    safe to hand back to the model: it never echoes the untrusted input."""


@dataclass(frozen=True)
class Mention:
    """A target named in a caller's reply: tokens [start, end) of the reply reader's words."""

    start: int
    end: int
    # What a new request would carry ("friday", "2026-12-11", "£30.00"); None when the reply
    # names one that cannot be resolved to a single target.
    label: str | None
    # Whether it names the offered target itself ("yes, Thursday" to a Thursday read-back).
    offered: bool


class TargetKind(Protocol[T]):
    @property
    def noun(self) -> str:
        """What the target is called in a tool message: "day", "amount", "address"."""
        ...

    def parse(self, text: str, *, today: date) -> T:
        """The target the model's argument names, or `InvalidTarget`."""
        ...

    def spoken(self, target: T) -> str:
        """The words after the action's phrase in the read-back: "on Thursday 10 December"."""
        ...

    def key(self, target: T) -> str:
        """Lowercase letters, digits and underscores: one value per distinct target."""
        ...

    def protect(self, folded: str) -> str:
        """The reply (lowercased, quotes straightened) with this kind's spellings that the
        word splitter would break ("2026-12-10", "£25.50") made single words."""
        ...

    def mentions(
        self, tokens: Sequence[str], *, offered: T | None, today: date | None
    ) -> list[Mention]:
        """Every target the reply's words name, in order, not overlapping."""
        ...
