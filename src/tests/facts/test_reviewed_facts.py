"""`ReviewedFacts`: which extractor reads a call when (the rules every turn and for the review,
the model at the end only when the settings name one), each settled by the caller's answer to
the review, over a toy line with one kind (an address) and the caller's quoted words."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from types import SimpleNamespace
from typing import Any, Literal

import pytest
from livekit.agents import llm

from contextdb_livekit.api import (
    Confidence,
    FactChanges,
    FactKinds,
    KindSpec,
    ReviewedFacts,
    Turn,
    TypedFact,
    words_kind,
)
from contextdb_livekit.facts.changes import change_key
from contextdb_livekit.memory.settings import ExtractionModel

Kind = Literal["address", "quote"]
TODAY = date(2026, 12, 3)
KINDS: FactKinds[Kind] = FactKinds(
    {"address": KindSpec(("user", "address"), "Address: {value}"), "quote": words_kind("quote")}
)
MODEL = ExtractionModel(base_url="http://model.test/v1", api_key="k", model="m", timeout_s=1.5)


class Fact(TypedFact[Kind]):
    @property
    def kinds(self) -> FactKinds[Kind]:
        return KINDS


def address(value: str) -> Fact:
    return Fact("address", value, "user_stated", Confidence.CALLER, TODAY, said=value)


def quote(said: Fact) -> Fact:
    return Fact("quote", said.said, "user_stated", Confidence.UNCONFIRMED, TODAY, key=said.said)


def kept_as_said(value: str) -> str:
    """An address change not confirmed, as written: the caller's quoted words."""
    return quote(address(value)).to_write().content


@dataclass
class Reads:
    """What each extractor was asked: the rules' and the model's calls."""

    rules: list[dict[str, Any]] = field(default_factory=list)
    model: list[dict[str, Any]] = field(default_factory=list)


def reviewed(reads: Reads, *, with_model: bool = True) -> ReviewedFacts[Fact]:
    def rules(turns: list[Turn], notes: list[str], *, today: date, call_id: str) -> list[Fact]:
        reads.rules.append(dict(turns=turns, notes=notes, today=today, call_id=call_id))
        return [address(turns[-1].text)]

    async def model(turns: list[Turn], notes: list[str], **keywords: Any) -> list[Fact]:
        reads.model.append(dict(turns=turns, notes=notes, **keywords))
        return [address("3 Mill Lane (the model)")]

    return ReviewedFacts(
        FactChanges(KINDS, quote=quote),
        rules=rules,
        spoken=lambda fact, replaces: f"your address is {fact.value}",
        model=model if with_model else None,
    )


@dataclass
class Call:
    """What `ReviewedFacts` reads of a call: notes, the day, the host's settings, the review."""

    extraction_model: ExtractionModel | None = None
    notes: list[str] = field(default_factory=lambda: ["gate code at the side"])
    call_id: str = "call-1"
    snapshot: None = None
    review: Any = None
    review_answer: str | None = None

    @property
    def host(self) -> Any:
        settings = SimpleNamespace(change_readback=True)
        return SimpleNamespace(memory_settings=settings, extraction_model=self.extraction_model)

    def today(self) -> date:
        return TODAY


TURNS = [Turn("user", "3 Mill Lane")]


def test_so_far_reads_the_rules_and_keeps_an_unconfirmed_change_as_the_callers_words() -> None:
    reads = Reads()
    written = reviewed(reads).so_far(Call(MODEL), TURNS)  # type: ignore[arg-type]
    assert reads.rules == [
        dict(turns=TURNS, notes=["gate code at the side"], today=TODAY, call_id="call-1")
    ]
    assert reads.model == []  # never a model call per turn, whatever the settings
    assert [f.content for f in written] == [kept_as_said("3 Mill Lane")]


async def test_at_end_calls_the_model_the_settings_name_with_its_bounded_timeout() -> None:
    reads = Reads()
    call = Call(MODEL, review=SimpleNamespace(keys=frozenset()), review_answer="yes")
    written = await reviewed(reads).at_end(call, TURNS)  # type: ignore[arg-type]
    assert reads.rules == []
    assert reads.model == [
        dict(
            turns=TURNS,
            notes=["gate code at the side"],
            today=TODAY,
            call_id="call-1",
            base_url="http://model.test/v1",
            api_key="k",
            model="m",
            timeout_s=1.5,
        )
    ]
    # Not among the changes read back: kept as the caller's words, not as a fact.
    assert [f.content for f in written] == [kept_as_said("3 Mill Lane (the model)")]


@pytest.mark.parametrize("endpoint, with_model", [(None, True), (MODEL, False)])
async def test_at_end_reads_the_rules_without_a_configured_model_or_a_model_extractor(
    endpoint: ExtractionModel | None, with_model: bool
) -> None:
    reads = Reads()
    call = Call(endpoint)
    written = await reviewed(reads, with_model=with_model).at_end(call, TURNS)  # type: ignore[arg-type]
    assert reads.model == [] and len(reads.rules) == 1
    assert [f.content for f in written] == [kept_as_said("3 Mill Lane")]


async def test_at_end_confirms_the_change_the_caller_said_yes_to() -> None:
    said = address("3 Mill Lane")
    review = SimpleNamespace(keys=frozenset({change_key(said)}))
    call = Call(None, review=review, review_answer="yes")
    [fact] = await reviewed(Reads()).at_end(call, TURNS)  # type: ignore[arg-type]
    assert fact.content.startswith("Address: 3 Mill Lane")
    assert fact.confidence == Confidence.CONFIRMED


def test_read_back_reads_the_history_by_the_rules_in_the_lines_words() -> None:
    reads = Reads()
    history = llm.ChatContext.empty()
    history.add_message(role="assistant", content="How can I help?")
    history.add_message(role="user", content="We moved to 3 Mill Lane")
    context = SimpleNamespace(userdata=Call(MODEL), session=SimpleNamespace(history=history))
    read = reviewed(reads).read_back(context)  # type: ignore[arg-type]
    assert read == [
        ("user/address=Address: We moved to 3 Mill Lane", "your address is We moved to 3 Mill Lane")
    ]
    assert [t.role for t in reads.rules[0]["turns"]] == ["assistant", "user"]
    assert reads.model == []
