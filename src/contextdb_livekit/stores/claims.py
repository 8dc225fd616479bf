"""The claim registry: one sign-in joins once.

A claim copied out of a caller's token (or a token re-used after the call) still verifies —
its signature and room are right — so the worker records each claim id (`jti`) on first use
and refuses a second join with it. A reconnecting client needs a fresh token from the host.

What every implementation (stores.sqlite.claims, stores.postgres.claims) promises:

- `first_use(jti, expires_at)` is True exactly once per `jti` across every handle to the
  same store — concurrent calls, other job processes, other hosts on the shared database —
  and False for every later call with that `jti` while it is kept (below).
- An id is kept until `KEEP_AFTER_EXPIRY_S` past its `expires_at`, then may be forgotten:
  by then the claim no longer verifies (verification allows a few seconds of clock leeway,
  and hosts' clocks differ a little), so its id cannot join again anyway.
- A `jti` that is empty, longer than `identity.models.MAX_CLAIM_ID_CHARS` or holds control
  characters is refused with `ValueError` before any storage is touched (claim verification
  already refuses such a claim).
- A store that cannot answer raises `IdentityStoreUnavailable`: the caller stays unverified.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from contextdb_livekit.identity.models import MAX_CLAIM_ID_CHARS, is_valid_claim_id

# Far more than identity.claims' verification leeway plus the clock skew between hosts.
KEEP_AFTER_EXPIRY_S = 300.0


def check_jti(jti: str) -> str:
    if not is_valid_claim_id(jti):
        raise ValueError(
            f"a claim id is 1-{MAX_CLAIM_ID_CHARS} characters with no control characters"
        )
    return jti


def forget_before(now: float) -> float:
    """Ids whose `expires_at` is before this (epoch seconds) may be deleted."""
    return now - KEEP_AFTER_EXPIRY_S


class ClaimRegistry(Protocol):
    async def first_use(self, jti: str, expires_at: datetime) -> bool:
        """True the first time `jti` is seen; False for a replay."""
        ...
