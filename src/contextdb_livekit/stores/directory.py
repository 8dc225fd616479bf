"""The customer directory: a SIP caller's number → the customer id it belongs to.

The default stores are a SQLite file and a Postgres table; a fork with a CRM replaces them
with a client for it that keeps the same promises. What every implementation
(stores.sqlite.directory, stores.postgres.directory) promises:

- Numbers are compared as `identity.normalise_phone` writes them, so `+1 (555) 010-0123` and
  `+15550100123` are one entry; text that is not an international number of a real length
  for its country (phonenumbers' E.164) raises `ValueError` in `add` and in
  `customer_for_phone`.
- `add(phone, customer_id)` makes that number answer with that customer id from every handle
  to the same store, replacing an earlier entry for the number; a customer id outside the
  ContextDB user_id alphabet raises `ValueError` and nothing is kept.
- `customer_for_phone` returns None for a number not in the directory.
- A store that cannot answer raises `IdentityStoreUnavailable`: the caller stays unverified.
"""

from __future__ import annotations

from typing import Protocol


class CustomerDirectory(Protocol):
    async def customer_for_phone(self, phone: str) -> str | None:
        """The customer id this number belongs to, or None."""
        ...

    async def add(self, phone: str, customer_id: str) -> None:
        """Make `phone` belong to `customer_id` (an operator's or a test's step)."""
        ...
