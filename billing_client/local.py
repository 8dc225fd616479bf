"""Embedded billing system on SQLite: idempotent service credits, account holds, blocked actors.

Every credit is one `BEGIN IMMEDIATE` transaction that checks its idempotency key first (the
library's `HostSqlite`), so job processes sharing the file never apply one key twice. An actor
may credit a customer unless the actor is blocked (constructor argument or `block_actor`) or
the customer's account is on hold here (`place_hold`, e.g. unpaid): this system's own holds,
not the booking system's.
"""

from __future__ import annotations

import sqlite3
import uuid

from billing_client.base import BillingError, BillingUnavailable, Credit, CreditRefused
from contextdb_livekit.api import HostSqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS credits (
    credit_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    pence INTEGER NOT NULL CHECK (pence > 0),
    idempotency_key TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS credits_by_customer ON credits(customer_id);
"""
_CREDITS = "SELECT credit_id, customer_id, pence FROM credits"
_CREDIT_BY_KEY = f"{_CREDITS} WHERE idempotency_key = ?"


class LocalBilling(HostSqlite):
    name = "local billing"
    unavailable = BillingUnavailable
    schema = _SCHEMA

    # -- BillingClient ------------------------------------------------------------------

    async def can_credit(self, actor_id: str, customer_id: str, pence: int) -> bool:
        return await self.may_act(actor_id, customer_id)

    async def apply_credit(self, customer_id: str, pence: int, *, idempotency_key: str) -> Credit:
        if not customer_id:
            raise ValueError("customer_id is required")
        if pence <= 0:
            raise CreditRefused("a credit must be positive")
        return await self.once_per_key(
            idempotency_key,
            earlier=lambda conn: self.row_in(conn, Credit, _CREDIT_BY_KEY, idempotency_key),
            same=lambda earlier: (earlier.customer_id, earlier.pence) == (customer_id, pence),
            conflict=BillingError("idempotency key was already used for a different credit"),
            work=lambda conn: _credit_locked(conn, customer_id, pence, idempotency_key),
        )

    async def credits_for(self, customer_id: str) -> list[Credit]:
        return await self.rows(
            Credit, f"{_CREDITS} WHERE customer_id = ? ORDER BY rowid", customer_id
        )

    async def credit_for_key(self, idempotency_key: str) -> Credit | None:
        return await self.row(Credit, _CREDIT_BY_KEY, idempotency_key)


def _credit_locked(
    conn: sqlite3.Connection, customer_id: str, pence: int, idempotency_key: str
) -> Credit:
    if HostSqlite.on_hold(conn, customer_id):
        raise CreditRefused("the account is on hold")
    credit = Credit(f"cr_{uuid.uuid4().hex[:12]}", customer_id, pence)
    conn.execute(
        "INSERT INTO credits VALUES (?, ?, ?, ?)",
        (credit.credit_id, customer_id, pence, idempotency_key),
    )
    return credit
