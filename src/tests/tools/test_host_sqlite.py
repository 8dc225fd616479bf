"""A business system's local stand-in on SQLite (`api.HostSqlite`, library `kit/host_sqlite.py`):
opened lazily and privately, transactions that roll back, every failure the system's own
`HostSystemUnavailable`, and authorization (blocked actors, account holds) that is the file's
own."""

from __future__ import annotations

import sqlite3
import stat
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from contextdb_livekit.api import HostSqlite, HostSystemUnavailable


class ThingsUnavailable(HostSystemUnavailable):
    pass


SCHEMA = "CREATE TABLE IF NOT EXISTS things (name TEXT PRIMARY KEY);"


def things(path: Path, **kwargs) -> HostSqlite:  # type: ignore[no-untyped-def]
    return HostSqlite(
        path, name="local things", unavailable=ThingsUnavailable, schema=SCHEMA, **kwargs
    )


def names(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute("SELECT name FROM things ORDER BY name")]


async def test_the_file_is_made_on_first_use_private_with_its_schema_and_seed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data" / "things.sqlite3"
    seeded: list[int] = []

    def seed(conn: sqlite3.Connection) -> None:
        seeded.append(1)
        conn.execute("INSERT OR IGNORE INTO things VALUES ('seeded')")

    db = things(path, seed=seed)
    assert not path.exists()
    assert await db.run(names) == ["seeded"]
    assert await db.run(names) == ["seeded"]
    assert seeded == [1]  # once a process
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert await db.run(lambda conn: conn.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"


async def test_a_transaction_commits_or_rolls_back_whole(tmp_path: Path) -> None:
    db = things(tmp_path / "t.sqlite3")

    def two_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO things VALUES ('a')")
        conn.execute("INSERT INTO things VALUES ('b')")
        raise RuntimeError("the check after the write failed")

    with pytest.raises(RuntimeError):
        await db.transaction(two_then_fail)
    assert await db.run(names) == []

    def two(conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO things VALUES ('a')")
        conn.execute("INSERT INTO things VALUES ('b')")
        return 2

    assert await db.transaction(two) == 2
    assert await db.run(names) == ["a", "b"]


async def test_sqlite_and_file_failures_are_the_systems_unavailable(tmp_path: Path) -> None:
    (tmp_path / "not-a-dir").write_text("")
    with pytest.raises(ThingsUnavailable, match=r"^local things failed \("):
        await things(tmp_path / "not-a-dir" / "t.sqlite3").run(names)
    db = things(tmp_path / "t.sqlite3")
    with pytest.raises(ThingsUnavailable, match="OperationalError"):
        await db.run(lambda conn: conn.execute("SELECT * FROM nowhere").fetchall())


async def test_a_write_lock_held_past_the_busy_timeout_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.sqlite3"
    db = things(path)
    await db.run(names)
    monkeypatch.setattr("contextdb_livekit.kit.host_sqlite._BUSY_TIMEOUT_S", 0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ThingsUnavailable, match="locked"):
            await db.transaction(lambda conn: conn.execute("INSERT INTO things VALUES ('x')"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_blocked_actors_and_held_accounts_may_not_act(tmp_path: Path) -> None:
    db = things(tmp_path / "t.sqlite3", blocked_actors=frozenset({"kiosk-7"}))
    assert await db.may_act("web-1", "cust-1")
    assert not await db.may_act("kiosk-7", "cust-1")
    await db.block_actor("web-1")
    assert not await db.may_act("web-1", "cust-1")
    await db.place_hold("cust-2")
    assert not await db.may_act("web-2", "cust-2")
    assert await db.may_act("web-2", "cust-1")
    assert await db.run(lambda conn: HostSqlite.on_hold(conn, "cust-2"))
    # Every instance on the file sees them.
    again = things(tmp_path / "t.sqlite3")
    assert not await again.may_act("web-1", "cust-1")
    assert not await again.may_act("web-2", "cust-2")


async def test_holds_are_the_files_own_not_another_systems(tmp_path: Path) -> None:
    one, other = things(tmp_path / "a.sqlite3"), things(tmp_path / "b.sqlite3")
    await one.place_hold("cust-1")
    await one.block_actor("web-9")
    assert not await one.may_act("web-1", "cust-1")
    assert await other.may_act("web-1", "cust-1")
    assert await other.may_act("web-9", "cust-2")


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    day: date


class LocalOrders(HostSqlite):
    # Named as class attributes, as a line's client names its system once.
    name = "local orders"
    unavailable = ThingsUnavailable
    schema = """CREATE TABLE IF NOT EXISTS orders (
        order_id TEXT PRIMARY KEY, customer_id TEXT, day TEXT, idempotency_key TEXT UNIQUE);"""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.placed: list[str] = []  # the keys this instance's work ran for

    async def order(self, customer_id: str, day: date, key: str) -> Order:
        def place(conn: sqlite3.Connection) -> Order:
            self.placed.append(key)
            order = Order(f"o-{key}", customer_id, day)
            conn.execute(
                "INSERT INTO orders VALUES (?, ?, ?, ?)",
                (order.order_id, customer_id, day.isoformat(), key),
            )
            return order

        return await self.once_per_key(
            key,
            earlier=lambda conn: self.row_in(conn, Order, ORDER_BY_KEY, key),
            same=lambda earlier: (earlier.customer_id, earlier.day) == (customer_id, day),
            conflict=ThingsUnavailable("key used for a different order"),
            work=place,
        )


ORDERS = "SELECT order_id, customer_id, day FROM orders"
ORDER_BY_KEY = f"{ORDERS} WHERE idempotency_key = ?"
DAY = date(2026, 12, 10)


async def test_a_subclass_names_its_system_and_tables_once(tmp_path: Path) -> None:
    orders = LocalOrders(tmp_path / "o.sqlite3")
    assert await orders.rows(Order, ORDERS) == []
    with pytest.raises(ThingsUnavailable, match=r"^local orders failed"):
        await orders.run(lambda conn: conn.execute("SELECT * FROM nowhere"))


async def test_once_per_key_does_the_work_once_and_replays_the_same_request(
    tmp_path: Path,
) -> None:
    orders = LocalOrders(tmp_path / "o.sqlite3")
    first = await orders.order("cust-1", DAY, "k-1")
    assert await orders.order("cust-1", DAY, "k-1") == first
    assert orders.placed == ["k-1"]
    # Another instance on the file (another job process) replays it too.
    again = LocalOrders(tmp_path / "o.sqlite3")
    assert await again.order("cust-1", DAY, "k-1") == first
    assert again.placed == []
    assert await orders.rows(Order, ORDERS) == [first]


async def test_once_per_key_refuses_a_different_request_under_a_used_key(tmp_path: Path) -> None:
    orders = LocalOrders(tmp_path / "o.sqlite3")
    await orders.order("cust-1", DAY, "k-1")
    with pytest.raises(ThingsUnavailable, match="different order"):
        await orders.order("cust-2", DAY, "k-1")
    with pytest.raises(ThingsUnavailable, match="different order"):
        await orders.order("cust-1", date(2026, 12, 11), "k-1")
    with pytest.raises(ValueError):
        await orders.order("cust-1", DAY, "")
    assert orders.placed == ["k-1"]


async def test_rows_are_read_back_as_the_dataclass_with_days_as_dates(tmp_path: Path) -> None:
    orders = LocalOrders(tmp_path / "o.sqlite3")
    placed = await orders.order("cust-1", DAY, "k-1")
    found = await orders.row(Order, ORDER_BY_KEY, "k-1")
    assert found == placed
    assert found is not None and isinstance(found.day, date)
    assert await orders.row(Order, ORDER_BY_KEY, "k-2") is None
    assert await orders.rows(Order, f"{ORDERS} WHERE customer_id = ?", "cust-1") == [placed]


async def test_once_per_key_reads_the_key_holding_the_write_lock(tmp_path: Path) -> None:
    # Another process must not slip its own write in between the key check and the work.
    path = tmp_path / "o.sqlite3"
    orders = LocalOrders(path)
    await orders.rows(Order, ORDERS)
    other_writer_locked_out: list[bool] = []

    def earlier(conn: sqlite3.Connection) -> Order | None:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            other_writer_locked_out.append(False)
        except sqlite3.OperationalError as exc:
            other_writer_locked_out.append("locked" in str(exc))
        finally:
            other.close()
        return None

    await orders.once_per_key(
        "k-1",
        earlier=earlier,
        same=lambda _: True,
        conflict=ThingsUnavailable("unused"),
        work=lambda conn: Order("o-1", "cust-1", DAY),
    )
    assert other_writer_locked_out == [True]
