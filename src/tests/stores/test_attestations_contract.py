"""The attestation store contract (stores.attestations), one suite run against the SQLite
and the Postgres store: the evidence of a spoken yes is kept as said (bounded, without
secrets or control characters), for its customer only, readable from every handle."""

from __future__ import annotations

import asyncio
import re
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from contextdb_livekit.memory.errors import MemoryUnavailable
from contextdb_livekit.stores.attestations import MAX_TURN_CHARS
from testkit.host_state_handles import (
    KINDS,
    Backend,
    Handles,
    backend_for,
    open_handles,
    umask,
)

QUESTION = (
    "Shall I book Thursday 10 December? I have your IBAN as GB33 BUKB 2020 1555 5555 55, "
    "sort code 20-00-00 and the padlock on the side gate is four four one seven hash"
)
ANSWER = (
    "yes, and my account number is three one nine two six eight one nine, "
    "date of birth 14/03/1962, alarm is 1 9 8 4 then hash"
)
SECRETS = ["BUKB", "1555 5555", "20-00-00", "four four one seven", "three one nine two",
           "14/03/1962", "1 9 8 4"]  # fmt: skip
FIELDS: dict[str, Any] = {
    "customer_id": "cust-1",
    "actor_id": "web-cust-1",
    "channel": "web",
    "room_name": "call-1",
    "memory_ids": ["mem-1", "mem-2"],
    "turn_id": "t-2",
    "turn_text": "yes please",
    "question_turn_id": "t-1",
    "question_text": "Shall I book Thursday 10 December?",
}


@pytest.fixture(params=KINDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return backend_for(request)


@pytest.fixture
async def handles(backend: Backend, tmp_path: Path) -> AsyncIterator[Handles]:
    async with open_handles(backend, tmp_path) as opened:
        yield opened


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret.lower() not in text.lower(), (secret, text)


async def test_an_attestation_reads_back_equal_from_every_handle(handles: Handles) -> None:
    kept = await handles.attestations().record(**FIELDS)
    assert kept.attestation_id.startswith("att_") and kept.attested_at
    assert kept.memory_ids == ("mem-1", "mem-2")
    assert (kept.turn_text, kept.question_text) == ("yes please", FIELDS["question_text"])
    assert await handles.attestations().for_customer("cust-1") == [kept]


async def test_the_question_is_optional(handles: Handles) -> None:
    fields = {k: v for k, v in FIELDS.items() if not k.startswith("question")}
    kept = await handles.attestations().record(**{**fields, "memory_ids": []})
    assert (kept.question_turn_id, kept.question_text, kept.memory_ids) == ("", "", ())
    assert await handles.attestations().for_customer("cust-1") == [kept]


async def test_each_customer_reads_only_their_own_oldest_first(handles: Handles) -> None:
    store = handles.attestations()
    first = await store.record(**FIELDS)
    other = await store.record(**{**FIELDS, "customer_id": "cust-2", "turn_id": "t-9"})
    second = await store.record(**{**FIELDS, "turn_id": "t-4"})
    assert await store.for_customer("cust-1") == [first, second]
    assert await store.for_customer("cust-2") == [other]
    assert await store.for_customer("cust-3") == []


async def test_concurrent_records_are_all_kept(handles: Handles) -> None:
    stores = [handles.attestations() for _ in range(3)]
    kept = await asyncio.gather(
        *(stores[i % 3].record(**{**FIELDS, "turn_id": f"t-{i}"}) for i in range(12))
    )
    read = await handles.attestations().for_customer("cust-1")
    assert sorted(a.attestation_id for a in read) == sorted(a.attestation_id for a in kept)


async def test_secrets_in_question_and_answer_never_reach_storage(handles: Handles) -> None:
    kept = await handles.attestations().record(
        **{**FIELDS, "turn_text": ANSWER, "question_text": QUESTION}
    )
    assert "Thursday 10 December" in kept.question_text  # the evidence stays readable
    assert re.search(r"withheld|on file", kept.question_text)
    assert re.search(r"withheld|on file", kept.turn_text)
    stored = await handles.stored_text("attestations")
    assert "Thursday 10 December" in stored
    assert_clean(stored)
    [read] = await handles.attestations().for_customer("cust-1")
    assert read == kept


@pytest.mark.parametrize("field", ["turn_text", "question_text"])
async def test_each_text_is_redacted_on_its_own(handles: Handles, field: str) -> None:
    kept = await handles.attestations().record(**{**FIELDS, field: ANSWER})
    assert_clean(getattr(kept, field))
    assert_clean(await handles.stored_text("attestations"))


async def test_a_huge_turn_is_kept_bounded_and_redacted(handles: Handles) -> None:
    huge = "yes, gate code is 4821, " + "and so on " * 100_000  # a 1 MB turn
    kept = await handles.attestations().record(
        **{**FIELDS, "turn_text": huge, "question_text": "card 4111 1111 1111 1111?"}
    )
    [read] = await handles.attestations().for_customer("cust-1")
    assert read == kept
    assert read.turn_text.startswith("yes, gate code is")
    assert len(read.turn_text) <= MAX_TURN_CHARS and "4821" not in read.turn_text
    assert "4111" not in read.question_text


async def test_control_characters_in_caller_text_are_dropped(handles: Handles) -> None:
    # NUL cannot be stored in Postgres text at all; no control character is evidence.
    kept = await handles.attestations().record(
        **{**FIELDS, "turn_text": "yes\x00please\x1b \x07go\x7f\x85ahead\r\nthanks",
           "question_text": "Shall\x00I\tbook?"}
    )  # fmt: skip
    assert kept.turn_text == "yes please go ahead thanks"
    assert kept.question_text == "Shall I book?"
    [read] = await handles.attestations().for_customer("cust-1")
    assert read == kept


async def test_a_store_that_cannot_keep_evidence_fails_closed(handles: Handles) -> None:
    down = handles.down("attestations").attestations()
    with pytest.raises(MemoryUnavailable) as raised:
        await down.record(**FIELDS)
    assert raised.value.code == "attestations_unavailable"
    with pytest.raises(MemoryUnavailable):
        await down.for_customer("cust-1")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_the_sqlite_attestation_file_is_owner_only(handles: Handles) -> None:
    with umask(0o000):
        await handles.attestations().record(**FIELDS)
    path = handles.path("attestations")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
