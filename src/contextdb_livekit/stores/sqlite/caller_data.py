"""What the host's SQLite files hold about a caller, and forgetting it (`stores.caller_data`).

One class per file kind, each reading and changing its own file with its own short
connection (WAL: calls keep reading and writing meanwhile). A file that does not exist holds
nothing and is not created. After any change the file is scrubbed (`scrub`): SQLite keeps
deleted text in free pages and in the WAL until they are reused, so the deletes run with
`secure_delete`, then `VACUUM` rewrites the file and a `TRUNCATE` checkpoint empties the WAL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from contextdb_livekit.stores.caller_data import (
    ERASED_PREFIX,
    ErasedCount,
    HeldItem,
    RetentionPolicy,
    pseudonym,
)

log = logging.getLogger("contextdb_livekit.stores.sqlite.caller_data")

T = TypeVar("T")
_CHECKPOINT_ATTEMPTS = 100


class ScrubIncomplete(RuntimeError):
    """The WAL could not be emptied (a reader held it the whole time): rerun."""


def scrub(conn: sqlite3.Connection) -> None:
    """Leave no deleted text in the file, its free pages or its WAL.

    `VACUUM` rewrites every live page (free pages are gone, the file shrinks); the
    `TRUNCATE` checkpoint copies the WAL into the file and truncates the WAL to zero bytes,
    which it can only do when no reader still uses older frames: retried, then refused
    (`ScrubIncomplete`) rather than reported done.
    """
    conn.execute("PRAGMA secure_delete=ON")
    conn.execute("VACUUM")
    for attempt in range(_CHECKPOINT_ATTEMPTS):
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy == 0:
            return
        time.sleep(min(0.01 * (attempt + 1), 0.2))
    raise ScrubIncomplete("the WAL is in use by another connection; run erase again")


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    conn.execute("PRAGMA busy_timeout=30000")
    # Every page this connection frees or rewrites is zeroed, not just unlinked.
    conn.execute("PRAGMA secure_delete=ON")
    return conn


async def _with_file(path: Path, work: Callable[[sqlite3.Connection], T], empty: T) -> T:
    """`work` on a connection to `path` in a thread; `empty` when the file does not exist."""

    def run() -> T:
        if not path.exists():
            return empty
        conn = _open(path)
        try:
            return work(conn)
        finally:
            conn.close()

    return await asyncio.to_thread(run)


def _has_table(conn: sqlite3.Connection, table: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return row is not None


def _changed_then_scrub(conn: sqlite3.Connection, changed: int, *, always: bool = False) -> int:
    """Scrub after a change; an erasure scrubs `always`: the caller's text may sit in free
    pages or the WAL from earlier deletes (a delivered outbox row, on a SQLite built without
    secure delete) even when nothing of theirs is left to change now."""
    if changed or always:
        scrub(conn)
    return changed


def _iso(epoch: float | None) -> str | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC).isoformat()


class SqliteAttestationData:
    """`ATTESTATION_PATH`: the caller's yes, the host's question, both turns."""

    name = "attestations"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        def load(conn: sqlite3.Connection) -> list[HeldItem]:
            if not _has_table(conn, "attestations"):
                return []
            rows = conn.execute(
                "SELECT attestation_id, actor_id, channel, room_name, memory_ids, turn_id,"
                " turn_text, attested_at, question_turn_id, question_text FROM attestations"
                " WHERE customer_id = ? ORDER BY attested_at, rowid",
                (customer_id,),
            ).fetchall()
            return [
                HeldItem(
                    self.name,
                    str(self.path),
                    "attestation",
                    r[0],
                    r[7],
                    {
                        "actor_id": r[1],
                        "channel": r[2],
                        "room_name": r[3],
                        "memory_ids": json.loads(r[4]),
                        "turn_id": r[5],
                        "answer": r[6],
                        "question_turn_id": r[8],
                        "question": r[9],
                    },
                )
                for r in rows
            ]

        return await _with_file(self.path, load, [])

    async def erase(self, customer_id: str) -> ErasedCount:
        return ErasedCount(await self._strip("customer_id = ?", (customer_id,), always=True))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        def drop_words(conn: sqlite3.Connection) -> int:
            if not _has_table(conn, "attestations"):
                return 0
            changed = conn.execute(
                "UPDATE attestations SET turn_text = '', question_text = ''"
                " WHERE attested_at < ? AND (turn_text != '' OR question_text != '')",
                (policy.evidence_text_cutoff(now).isoformat(),),
            ).rowcount
            return _changed_then_scrub(conn, changed)

        words = await _with_file(self.path, drop_words, 0)
        # Past the audit period the evidence keeps what was confirmed and when, not by whom.
        return words + await self._strip(
            "attested_at < ? AND customer_id NOT LIKE ?",
            (policy.audit_cutoff(now).isoformat(), f"{ERASED_PREFIX}%"),
        )

    async def _strip(self, where: str, params: tuple[Any, ...], *, always: bool = False) -> int:
        def strip(conn: sqlite3.Connection) -> int:
            if not _has_table(conn, "attestations"):
                return 0
            changed = conn.execute(
                "UPDATE attestations SET customer_id = ? || attestation_id, actor_id = '',"
                f" room_name = '', turn_text = '', question_text = '' WHERE {where}",
                (ERASED_PREFIX, *params),
            ).rowcount
            return _changed_then_scrub(conn, changed, always=always)

        return await _with_file(self.path, strip, 0)


class SqliteDirectoryData:
    """`CUSTOMER_DIRECTORY_PATH`: the caller's phone numbers. Erased, the number calls in as
    a stranger. Kept while the customer is one (the operator's entry): no retention."""

    name = "directory"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        def load(conn: sqlite3.Connection) -> list[HeldItem]:
            if not _has_table(conn, "customers"):
                return []
            rows = conn.execute(
                "SELECT phone FROM customers WHERE customer_id = ? ORDER BY phone", (customer_id,)
            ).fetchall()
            return [
                HeldItem(self.name, str(self.path), "phone_number", r[0], None, {"phone": r[0]})
                for r in rows
            ]

        return await _with_file(self.path, load, [])

    async def erase(self, customer_id: str) -> ErasedCount:
        def delete(conn: sqlite3.Connection) -> int:
            if not _has_table(conn, "customers"):
                return 0
            changed = conn.execute(
                "DELETE FROM customers WHERE customer_id = ?", (customer_id,)
            ).rowcount
            return _changed_then_scrub(conn, changed, always=True)

        return ErasedCount(await _with_file(self.path, delete, 0))

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        return 0


def outbox_item(store: str, location: str, row: tuple[Any, ...]) -> HeldItem:
    """(key, kind, state, payload JSON, created_at epoch) → what the export shows."""
    key, kind, state, payload_text, created_at = row
    try:
        payload = json.loads(payload_text)
    except ValueError:
        payload = {"unreadable_payload": str(payload_text)[:200]}
    if kind == "remember_many":
        shown = "queued_write"
    elif state == "intent":
        shown = "action_in_progress"
    else:
        shown = "queued_receipt"
    return HeldItem(store, location, shown, key, _iso(created_at), {"state": state, **payload})


def stripped_receipt(payload: dict[str, Any]) -> dict[str, Any]:
    """A queued receipt (or intent) as it survives an erasure: what delivery and crash
    recovery need (decision, action, status, the host key), no customer id."""
    kept = {k: v for k, v in payload.items() if k != "customer_id"}
    if "customer_id" in payload:
        kept["customer_id"] = pseudonym(str(payload.get("decision_id", "")))
    return kept


class SqliteOutboxData:
    """An outbox file (`MEMORY_OUTBOX_PATH`) or the spill (`MEMORY_SPILL_PATH`): queued fact
    writes are deleted; a receipt parked dead survives under its decision's pseudonym; a
    receipt still to be delivered, or an action still running, is deferred (its decision is
    still open: both are stripped by a rerun once it is delivered)."""

    def __init__(self, path: Path, *, name: str = "outbox") -> None:
        self.path = Path(path)
        self.name = name

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        def load(conn: sqlite3.Connection) -> list[HeldItem]:
            if not _has_table(conn, "outbox"):
                return []
            rows = conn.execute(
                "SELECT idempotency_key, kind, state, payload, created_at FROM outbox"
                " WHERE user_id = ? ORDER BY created_at, idempotency_key",
                (customer_id,),
            ).fetchall()
            return [outbox_item(self.name, str(self.path), tuple(r)) for r in rows]

        return await _with_file(self.path, load, [])

    async def erase(self, customer_id: str) -> ErasedCount:
        def erase(conn: sqlite3.Connection) -> ErasedCount:
            if not _has_table(conn, "outbox"):
                return ErasedCount()
            conn.execute("BEGIN IMMEDIATE")
            try:
                changed = conn.execute(
                    "DELETE FROM outbox WHERE user_id = ? AND kind = 'remember_many'",
                    (customer_id,),
                ).rowcount
                # A receipt parked dead will never be delivered: it keeps no caller.
                rows = conn.execute(
                    "SELECT idempotency_key, payload FROM outbox WHERE user_id = ?"
                    " AND kind = 'receipt' AND state = 'dead'",
                    (customer_id,),
                ).fetchall()
                for key, payload_text in rows:
                    payload = json.loads(payload_text)
                    conn.execute(
                        "UPDATE outbox SET user_id = ?, payload = ? WHERE idempotency_key = ?",
                        (
                            pseudonym(str(payload.get("decision_id", key))),
                            json.dumps(stripped_receipt(payload)),
                            key,
                        ),
                    )
                    changed += 1
                # A receipt still to be delivered (or an action still running) needs its
                # caller to close the decision: left for a rerun once it is delivered.
                deferred = conn.execute(
                    "SELECT COUNT(*) FROM outbox WHERE user_id = ?", (customer_id,)
                ).fetchone()[0]
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            _changed_then_scrub(conn, changed, always=True)
            return ErasedCount(changed, int(deferred))

        return await _with_file(self.path, erase, ErasedCount())

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        def expire(conn: sqlite3.Connection) -> int:
            if not _has_table(conn, "outbox"):
                return 0
            # A fact write parked dead for longer than anyone would re-drive it.
            changed = conn.execute(
                "DELETE FROM outbox WHERE kind = 'remember_many' AND state = 'dead'"
                " AND created_at < ?",
                ((now - policy.parked).timestamp(),),
            ).rowcount
            return _changed_then_scrub(conn, changed)

        return await _with_file(self.path, expire, 0)


class SqliteLedgerData:
    """The local engine's decision ledger (`<engine>.ledger.sqlite3`). The engine process is
    its writer; this is used inside it (`backends.partition`) or, with no engine running, by
    the command line."""

    name = "ledger"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    async def held_about(self, customer_id: str) -> list[HeldItem]:
        def load(conn: sqlite3.Connection) -> list[HeldItem]:
            if not _has_table(conn, "decisions"):
                return []
            items: list[HeldItem] = []
            rows = conn.execute(
                "SELECT d.decision_id, d.query, d.outcome, d.memory_ids, d.created_at,"
                " r.receipt_id, r.idempotency_key, r.action_name, r.status, r.external_ref,"
                " r.error_code, r.created_at FROM decisions d LEFT JOIN receipts r"
                " ON r.decision_id = d.decision_id WHERE d.user_id = ?"
                " ORDER BY d.created_at, d.rowid",
                (customer_id,),
            ).fetchall()
            where = str(self.path)
            for r in rows:
                items.append(
                    HeldItem(
                        "decision",
                        where,
                        "decision",
                        r[0],
                        r[4],
                        {"query": r[1], "outcome": r[2], "memory_ids": json.loads(r[3])},
                    )
                )
                if r[5] is not None:
                    items.append(
                        HeldItem(
                            "receipt",
                            where,
                            "receipt",
                            r[5],
                            r[11],
                            {
                                "decision_id": r[0],
                                "idempotency_key": r[6],
                                "action_name": r[7],
                                "status": r[8],
                                "external_ref": r[9],
                                "error_code": r[10],
                            },
                        )
                    )
            for key, state, started in conn.execute(
                "SELECT idempotency_key, state, started_at FROM idempotent_writes"
                " WHERE user_id = ? ORDER BY started_at",
                (customer_id,),
            ).fetchall():
                items.append(
                    HeldItem("write_record", where, "write_record", key, started, {"state": state})
                )
            return items

        return await _with_file(self.path, load, [])

    async def erase(self, customer_id: str) -> ErasedCount:
        def erase(conn: sqlite3.Connection) -> ErasedCount:
            if not _has_table(conn, "decisions"):
                return ErasedCount()
            changed, deferred = _strip_decisions(conn, "d.user_id = ?", (customer_id,))
            changed += conn.execute(
                "UPDATE idempotent_writes SET user_id = ? || idempotency_key WHERE user_id = ?",
                (ERASED_PREFIX, customer_id),
            ).rowcount
            _changed_then_scrub(conn, changed, always=True)
            return ErasedCount(changed, deferred)

        return await _with_file(self.path, erase, ErasedCount())

    async def expire(self, policy: RetentionPolicy, now: datetime) -> int:
        def expire(conn: sqlite3.Connection) -> int:
            if not _has_table(conn, "decisions"):
                return 0
            cutoff = policy.audit_cutoff(now).isoformat()
            changed, _ = _strip_decisions(
                conn, "d.created_at < ? AND d.user_id NOT LIKE ?", (cutoff, f"{ERASED_PREFIX}%")
            )
            changed += conn.execute(
                "UPDATE idempotent_writes SET user_id = ? || idempotency_key"
                " WHERE state = 'done' AND started_at < ? AND user_id NOT LIKE ?",
                (ERASED_PREFIX, cutoff, f"{ERASED_PREFIX}%"),
            ).rowcount
            return _changed_then_scrub(conn, changed)

        return await _with_file(self.path, expire, 0)


def _strip_decisions(
    conn: sqlite3.Connection, where: str, params: tuple[Any, ...]
) -> tuple[int, int]:
    """Closed decisions matching `where` lose the customer id and the request's words; open
    ones are counted, not touched (a running call may still close them)."""
    closed = [
        row[0]
        for row in conn.execute(
            "SELECT d.decision_id FROM decisions d JOIN receipts r"
            f" ON r.decision_id = d.decision_id WHERE {where}",
            params,
        ).fetchall()
    ]
    open_count = conn.execute(
        "SELECT COUNT(*) FROM decisions d LEFT JOIN receipts r ON r.decision_id = d.decision_id"
        f" WHERE r.decision_id IS NULL AND {where}",
        params,
    ).fetchone()[0]
    for decision_id in closed:
        conn.execute(
            "UPDATE decisions SET user_id = ?, query = '' WHERE decision_id = ?",
            (pseudonym(decision_id), decision_id),
        )
    return len(closed), int(open_count)
