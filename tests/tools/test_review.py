"""`kit.review`: which caller turn answers the host's review read-back, and what it says."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from livekit.agents import llm
from livekit.agents.voice import SpeechHandle

from contextdb_livekit.kit.context import Review
from contextdb_livekit.kit.readback import ReadBack
from contextdb_livekit.kit.review import read_reply, review_sentence, settle_changes, settle_review
from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.sqlite.attestations import SqliteAttestationStore
from scenarios.text_call import web_caller

TEXT = review_sentence(["Thursdays no longer work for you", "you have 2 boilers"])


@dataclass
class _Played:
    """What `ReadBack.heard_message` reads of a speech that played to its end."""

    chat_items: list[Any] = field(default_factory=list)

    def done(self) -> bool:
        return True


def conversation(*turns: tuple[str, str]) -> tuple[llm.ChatContext, Review]:
    history = llm.ChatContext.empty()
    played = _Played()
    for role, text in turns:
        message = history.add_message(role=role, content=text)  # type: ignore[arg-type]
        if role == "assistant" and text == TEXT:
            played.chat_items.append(message)
    review = Review(ReadBack(TEXT, cast(SpeechHandle, played)), frozenset({"k"}))
    return history, review


def test_the_sentence_names_every_change_once():
    assert TEXT == (
        "Before you go, I'll note that Thursdays no longer work for you and you have 2 "
        "boilers. Is that right?"
    )
    with pytest.raises(ValueError):
        review_sentence([])


@pytest.mark.parametrize(
    ("turns", "answer"),
    [
        ((("user", "that's all"), ("assistant", TEXT), ("user", "yes, that's right")), "yes"),
        ((("assistant", TEXT), ("user", "no, that's wrong")), "no"),
        ((("assistant", TEXT), ("user", "hmm, maybe")), "unanswered"),
        ((("assistant", TEXT), ("user", "is that the boiler?")), "unanswered"),
        ((("assistant", TEXT),), "unanswered"),  # hung up
        # The model spoke first: the caller's yes answered that, not the host.
        ((("assistant", TEXT), ("assistant", "Great, thanks."), ("user", "yes")), "unanswered"),
        # Only the first turn after it answers: a later yes is to something else.
        ((("assistant", TEXT), ("user", "hang on"), ("user", "yes")), "unanswered"),
    ],
)
def test_only_the_next_caller_turn_answers(turns, answer):  # type: ignore[no-untyped-def]
    history, review = conversation(*turns)
    assert read_reply(history, review).answer == answer


def test_a_read_back_spoken_over_is_never_answered():
    history, review = conversation(("assistant", "Before you go, I'll"), ("user", "yes"))
    assert read_reply(history, review).answer == "unanswered"
    assert read_reply(history, None).answer == "unanswered"


@dataclass
class _Host:
    attestations: Any


@dataclass
class _Call:
    host: _Host
    review: Review | None
    identity: Any = field(default_factory=web_caller)
    review_answer: str | None = None


async def test_a_yes_is_kept_as_an_attestation_first(tmp_path: Path):
    history, review = conversation(("assistant", TEXT), ("user", "yes that's right"))
    store = SqliteAttestationStore(tmp_path / "attestations.sqlite3")
    call = _Call(_Host(store), review)
    assert await settle_review(call, history) == "yes"  # type: ignore[arg-type]
    [kept] = await store.for_customer(call.identity.customer_id)
    assert (kept.question_text, kept.turn_text) == (TEXT, "yes that's right")
    assert call.review_answer == "yes"


async def test_a_yes_whose_evidence_cannot_be_kept_confirms_nothing():
    class Down:
        async def record(self, **_: object) -> None:
            raise MemoryUnavailable("attestations down")

    history, review = conversation(("assistant", TEXT), ("user", "yes"))
    call = _Call(_Host(Down()), review)
    assert await settle_review(call, history) == "unanswered"  # type: ignore[arg-type]
    assert call.review_answer == "unanswered"


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        # Read back and confirmed: "k" confirmed; "other" was never read back, so unconfirmed.
        ("yes", ["note", "k!", "other?"]),
        # Read back and refused: "k" is dropped, memory keeps what it held.
        ("no", ["note", "other?"]),
        # No answer: every change is kept unconfirmed.
        ("unanswered", ["note", "k?", "other?"]),
    ],
)
def test_an_answer_settles_only_the_changes_it_was_asked_about(answer: str, kept: list[str]):
    _, review = conversation(("assistant", TEXT))  # named the change "k"
    call = _Call(_Host(None), review, review_answer=answer)
    settled = settle_changes(
        call,  # type: ignore[arg-type]
        ["note", "held", "k", "other"],
        changes=["k", "other"],
        key=str,
        held=lambda fact: fact == "held",  # already in memory: not written again
        confirmed=lambda fact: f"{fact}!",
        unconfirmed=lambda fact: f"{fact}?",
    )
    assert settled == kept
