"""The customer directory on the shared Postgres (`host_customers`), for many worker hosts.
The contract is stores.directory."""

from __future__ import annotations

from contextdb_livekit.identity.models import IdentityStoreUnavailable, check_customer_id
from contextdb_livekit.identity.phone import normalise_phone
from contextdb_livekit.stores.postgres.connection import SharedDatabase, SharedStateUnavailable


class PgCustomerDirectory:
    def __init__(self, database: SharedDatabase) -> None:
        self.database = database

    async def add(self, phone: str, customer_id: str) -> None:
        number = normalise_phone(phone)
        check_customer_id(customer_id)
        try:
            async with self.database.connection() as conn:
                await conn.execute(
                    "INSERT INTO host_customers (phone, customer_id) VALUES ($1, $2)"
                    " ON CONFLICT (phone) DO UPDATE SET customer_id = excluded.customer_id",
                    number,
                    customer_id,
                )
        except SharedStateUnavailable as exc:
            raise IdentityStoreUnavailable(detail=str(exc)) from exc

    async def customer_for_phone(self, phone: str) -> str | None:
        number = normalise_phone(phone)
        try:
            async with self.database.connection() as conn:
                found = await conn.fetchval(
                    "SELECT customer_id FROM host_customers WHERE phone = $1", number
                )
        except SharedStateUnavailable as exc:
            raise IdentityStoreUnavailable(detail=str(exc)) from exc
        return None if found is None else str(found)
