"""ContextDB Cloud's partition (respx): what export and erase send, and how their answers
are read. Cloud offers no per-caller listing, so the export is what recall and pending
confirmations reach, marked partial; erasure is Cloud's verified partition erasure."""

from __future__ import annotations

import json

import pytest
import respx
from contextdb_cloud_client import CloudClient

from contextdb_livekit.backends.cloud import CloudMemory
from contextdb_livekit.backends.partition import CloudPartition
from contextdb_livekit.memory.errors import MemoryUnavailable
from tests.memory.test_cloud_contract import memory_json

BASE = "https://cloud.test"
KEY = "cdb_partition_test"
ADDRESS = memory_json(
    "m-address", "Caller's address: 14 Quillfeather Lane", entity_key="user",
    attribute_key="address", user_id="cust-1",
)  # fmt: skip
NOT_THEIRS = memory_json("m-other", "Somebody else's note", user_id="cust-2")


def forget_answer(*, deleted: int = 3, verified: bool | None = True) -> dict[str, object]:
    return {
        "mode": "partition",
        "deleted": deleted,
        "verified": verified,
        "request_id": "req-1",
        "memory_version": 7,
        "primary_wal_lsn": None,
    }


@pytest.fixture
def partition() -> CloudPartition:
    return CloudPartition(CloudMemory(CloudClient(BASE, KEY, timeout=2.0)))


@respx.mock
async def test_erase_is_clouds_verified_partition_erasure_under_a_fresh_key(
    partition: CloudPartition,
) -> None:
    route = respx.post(f"{BASE}/v1/forget").respond(200, json=forget_answer())
    erased = await partition.erase("cust-1")
    await partition.erase("cust-1")
    first, second = (call.request for call in route.calls)
    assert json.loads(first.content) == {
        "user_id": "cust-1",
        "erase_partition": True,
        "confirmation": "cust-1",
    }
    # Erasing is idempotent by itself; a later erasure (the caller came back with new data)
    # must never be answered from an earlier one's key. Keys never carry the customer id.
    key = first.headers["Idempotency-Key"]
    assert key.startswith("erase:") and "cust-1" not in key
    assert second.headers["Idempotency-Key"] != key
    assert erased.changed == 3


@respx.mock
async def test_an_unverified_erasure_is_not_reported_done(partition: CloudPartition) -> None:
    respx.post(f"{BASE}/v1/forget").respond(200, json=forget_answer(verified=False))
    with pytest.raises(MemoryUnavailable, match="did not verify"):
        await partition.erase("cust-1")


@respx.mock
async def test_cloud_down_is_a_failed_step_to_rerun(partition: CloudPartition) -> None:
    respx.post(f"{BASE}/v1/forget").respond(503, json={"code": "unavailable", "message": "x"})
    with pytest.raises(MemoryUnavailable):
        await partition.erase("cust-1")


@respx.mock
async def test_export_lists_what_recall_reaches_marked_partial(partition: CloudPartition) -> None:
    respx.get(f"{BASE}/v1/pending_confirmations").respond(200, json={"memories": []})
    recall = respx.post(f"{BASE}/v1/recall").respond(
        200, json={"context": "", "memories": [ADDRESS, NOT_THEIRS]}
    )
    items = await partition.held_about("cust-1")
    assert [item.item_id for item in items] == ["m-address"]  # once, and only the caller's
    [item] = items
    assert item.data["text"] == "Caller's address: 14 Quillfeather Lane"
    assert item.data["slot"] == "user/address" and item.data["listing"] == "partial"
    bodies = [json.loads(call.request.content) for call in recall.calls]
    assert all(body["user_id"] == "cust-1" for body in bodies)
