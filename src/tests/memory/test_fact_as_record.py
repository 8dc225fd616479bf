"""A `FactToRemember` is its own host record: a gated action's `remember` may return the fact
the end-of-call write keeps, as it is (`kit.context.HostRecord`)."""

from __future__ import annotations

from contextdb_livekit.api import Confidence, FactToRemember
from contextdb_livekit.kit.context import HostRecord


def test_a_fact_to_remember_is_written_as_it_is() -> None:
    fact = FactToRemember(
        content="Service credit of £25.00 applied, reference cr_1",
        source="third_party",
        confidence=Confidence.HOST,
        entity="account",
        attribute="credit_cr_1",
    )
    record: HostRecord = fact  # what `GatedAction.remember` returns
    assert record.to_write() == fact
