"""What a call keeps when the caller asked to be forgotten: nothing.

An action that forgets (the line's "forget my details", `caller_data.forget`) records a
`KeepNothing` among the call's records (`GatedAction.remember`). From then on the call
writes no checkpoint, its end-of-call write is skipped, its checkpoint rows are dropped from
the outbox, and `after_call` runs once the call is over (an erasure run again, so what the
call itself recorded after the yes — the action's own decision and receipt — is stripped
too). Generic: the worker only reads this marker.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from contextdb_livekit.kit.caller_memory import call_write_key
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.models import FactToRemember
from contextdb_livekit.stores.outbox import Outbox

Scope = Literal["everything", "this_call"]


async def _nothing() -> None:
    return None


@dataclass(frozen=True)
class KeepNothing:
    scope: Scope
    # Run by the worker after the call (bounded by the end-of-call write budget).
    after_call: Callable[[], Awaitable[object]] = field(default=_nothing, compare=False)

    def to_write(self) -> FactToRemember | None:
        """Never a fact: the end of the call keeps nothing (see the module doc)."""
        return None


def keep_nothing(call: CallContext) -> KeepNothing | None:
    """The call's request to keep nothing, if the caller made one (the widest wins)."""
    found = [r for r in call.records if isinstance(r, KeepNothing)]
    if not found:
        return None
    return next((r for r in found if r.scope == "everything"), found[0])


async def drop_call_rows(outbox: Outbox, user_id: str, call_id: str) -> int:
    """Remove this call's own queued fact rows (its checkpoints and its end-of-call write)
    from the outbox; how many."""
    prefix = call_write_key(user_id, call_id)
    dropped = 0
    for item in await outbox.items():
        if item.kind == "remember_many" and item.idempotency_key.startswith(prefix):
            await outbox.mark_done(item.idempotency_key)
            dropped += 1
    return dropped
