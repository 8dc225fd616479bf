"""Issue 32's done-when on every backend: export returns every item planted for caller A
and none of B's; after erase, no file under the data directory (SQLite main files, WAL and
free pages, read as raw bytes and through SQL) and no Postgres table holds any of A's
planted strings, B is untouched, and A's next call is a stranger's."""

from __future__ import annotations

import json

import pytest
from livekit.agents import AgentSession

from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.worker.call import Call
from line import LINE
from testkit.scripted_llm import ScriptedLLM
from testkit.secret_scan import find_planted
from tests.caller_data.conftest import (
    A_PHONE,
    A_PLANTED,
    B_PLANTED,
    Line,
    Planted,
    plant,
    run_call,
)
from tests.caller_data.scan import postgres_hits


def found_anywhere(line: Line, needles: tuple[str, ...]) -> dict[str, list[str]]:
    return {n: find_planted(n, [line.workdir]) for n in needles}


async def found_in_postgres(line: Line, needles: tuple[str, ...]) -> dict[str, list[str]]:
    if line.database is None:
        return {n: [] for n in needles}
    return {n: await postgres_hits(line.database, n) for n in needles}


async def test_export_lists_every_planted_item_of_one_caller_only(line: Line) -> None:
    planted: Planted = await plant(line)
    exported = await export_caller(line.stores(), planted.a.customer_id)
    assert exported.unavailable == {}
    text = json.dumps(exported.as_json())
    for needle in A_PLANTED:
        assert needle.lower() in text.lower(), needle
    for needle in B_PLANTED:
        assert needle.lower() not in text.lower(), needle
    kinds = {(item.store, item.kind) for item in exported.items}
    assert {
        ("memory", "memory"),
        ("decision", "decision"),
        ("receipt", "receipt"),
        ("outbox", "queued_write"),
        ("spill", "queued_write"),
        ("attestations", "attestation"),
        ("directory", "phone_number"),
    } <= kinds
    assert all(item.at for item in exported.items if item.kind != "phone_number")
    memories = [item for item in exported.items if item.kind == "memory"]
    assert all(m.data["source"] and m.data["memory_type"] for m in memories)
    assert "user/address" in {m.data["slot"] for m in memories}


async def test_erase_leaves_no_planted_string_and_b_untouched(line: Line) -> None:
    planted = await plant(line)
    b_before = await export_caller(line.stores(), planted.b.customer_id)
    # Before: every string is really there, in a file or a table (the scans can fail).
    files, tables = found_anywhere(line, A_PLANTED), await found_in_postgres(line, A_PLANTED)
    assert all(files[n] or tables[n] for n in A_PLANTED), (files, tables)
    report = await erase_caller(line.stores(), planted.a.customer_id)
    assert report.failed == {} and report.complete, report.as_json()
    assert found_anywhere(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    assert await found_in_postgres(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    # The customer id itself is gone from the host's own stores (pycontextdb's append-only
    # audit chain keeps it with memory ids, as its proof of erasure).
    after = await export_caller(line.stores(), planted.a.customer_id)
    assert after.items == []
    # B: every item still there, field for field.
    b_after = await export_caller(line.stores(), planted.b.customer_id)
    assert b_after.items == b_before.items
    b_files, b_tables = found_anywhere(line, B_PLANTED), await found_in_postgres(line, B_PLANTED)
    assert all(b_files[n] or b_tables[n] for n in B_PLANTED)
    # A's phone now calls in as a stranger, and a call as A recalls nothing.
    assert await line.directory.customer_for_phone(A_PHONE) is None
    again = await erase_caller(line.stores(), planted.a.customer_id)
    assert sum(again.changed.values()) == 0


async def test_the_next_call_greets_an_erased_caller_as_a_stranger(line: Line) -> None:
    planted = await plant(line)
    await erase_caller(line.stores(), planted.a.customer_id)
    call = Call.open(line.host(), LINE, identity=planted.a, auth_error=None, call_id="again")
    session = AgentSession[CallContext](userdata=call.context, llm=ScriptedLLM())
    try:
        await call.start(session)
        assert call.context.snapshot is not None and call.context.snapshot.available
        assert call.context.snapshot.memories == []
        for needle in A_PLANTED:
            assert needle.lower() not in call.agent.instructions.lower()
    finally:
        await session.aclose()
    recalled = await line.backend.recall(planted.a.customer_id, "address access", top_k=20)
    assert recalled.memories == []


@pytest.mark.parametrize(
    "crash_after", ["erasures", "outbox", "spill", "memory", "attestations", "directory"]
)
async def test_a_crash_after_any_step_then_a_rerun_ends_the_same(
    line: Line, crash_after: str
) -> None:
    planted = await plant(line)
    b_before = await export_caller(line.stores(), planted.b.customer_id)

    class Crash(Exception):
        pass

    async def crash(step: str) -> None:
        if step == crash_after:
            raise Crash(step)

    with pytest.raises(Crash):
        await erase_caller(line.stores(), planted.a.customer_id, after_step=crash)
    report = await erase_caller(line.stores(), planted.a.customer_id)
    assert report.complete, report.as_json()
    assert found_anywhere(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    assert await found_in_postgres(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    assert (await export_caller(line.stores(), planted.a.customer_id)).items == []
    assert (await export_caller(line.stores(), planted.b.customer_id)).items == b_before.items


class BrokenStore:
    """A store that does not answer (a database down): its erase fails every time."""

    name = "broken"

    async def held_about(self, customer_id: str) -> list:  # type: ignore[type-arg]
        raise ConnectionError("down")

    async def erase(self, customer_id: str) -> object:
        raise ConnectionError("down")

    async def expire(self, policy: object, now: object) -> int:
        raise ConnectionError("down")


@pytest.mark.parametrize("line", ["sqlite"], indirect=True)
async def test_a_store_that_fails_does_not_stop_the_others(line: Line) -> None:
    planted = await plant(line)
    stores = [BrokenStore(), *line.stores()]
    report = await erase_caller(stores, planted.a.customer_id)  # type: ignore[arg-type]  # the broken stand-in
    assert not report.complete and list(report.failed) == ["broken"]
    assert found_anywhere(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    exported = await export_caller(stores, planted.a.customer_id)  # type: ignore[arg-type]  # as above
    assert exported.items == [] and list(exported.unavailable) == ["broken"]


@pytest.mark.parametrize("line", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("fails", ["after_forget_user", "in_the_ledger"])
async def test_a_crash_inside_the_memory_step_then_a_rerun_ends_the_same(
    line: Line, fails: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from contextdb_livekit.backends import partition

    planted = await plant(line)
    b_before = await export_caller(line.stores(), planted.b.customer_id)
    memory = next(s for s in line.stores() if s.name == "memory")
    assert isinstance(memory, partition.EnginePartition)
    ledger_type = type(memory.ledger)
    real_scrub, real_ledger_erase = partition.scrub_engine_file, ledger_type.erase

    class Crash(Exception):
        pass

    async def crash(*args: object, **kwargs: object) -> None:
        raise Crash(fails)

    if fails == "after_forget_user":
        monkeypatch.setattr(partition, "scrub_engine_file", crash)
    else:
        monkeypatch.setattr(ledger_type, "erase", crash)
    first = await erase_caller(line.stores(), planted.a.customer_id)
    assert list(first.failed) == ["memory"] and not first.complete
    monkeypatch.setattr(partition, "scrub_engine_file", real_scrub)
    monkeypatch.setattr(ledger_type, "erase", real_ledger_erase)
    again = await erase_caller(line.stores(), planted.a.customer_id)
    assert again.complete, again.as_json()
    assert found_anywhere(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    assert await found_in_postgres(line, A_PLANTED) == {n: [] for n in A_PLANTED}
    assert (await export_caller(line.stores(), planted.a.customer_id)).items == []
    assert (await export_caller(line.stores(), planted.b.customer_id)).items == b_before.items


async def test_a_caller_who_comes_back_after_an_erasure_can_be_erased_again(line: Line) -> None:
    planted = await plant(line)
    await erase_caller(line.stores(), planted.a.customer_id)
    await run_call(line.host(), planted.a, ("my address is 7 Wrenthorpe Road",))
    assert (
        "wrenthorpe"
        in json.dumps((await export_caller(line.stores(), planted.a.customer_id)).as_json()).lower()
    )
    report = await erase_caller(line.stores(), planted.a.customer_id)
    assert report.complete and report.changed["memory"] > 0
    assert found_anywhere(line, ("Wrenthorpe",)) == {"Wrenthorpe": []}
    assert await found_in_postgres(line, ("Wrenthorpe",)) == {"Wrenthorpe": []}
