"""Every decision names its slot: there is no unslotted path that would hand pycontextdb's
trust shortcuts (a `user_stated` fact at >= 0.7, two sessions as corroboration) to a caller
who forgot it."""

from __future__ import annotations

import pytest

from contextdb_livekit.kit.gate import ActionGate


async def test_a_backend_decision_without_a_slot_is_refused(backend) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError):
        await backend.evaluate_action("cust-1", "book a visit on thursday")


async def test_a_gate_decision_without_a_slot_is_refused(local_engine) -> None:  # type: ignore[no-untyped-def]
    gate = ActionGate(local_engine, None)
    with pytest.raises(TypeError):
        async with gate.evaluate("cust-1", "book_visit", "book a visit"):  # type: ignore[call-arg]
            pass
