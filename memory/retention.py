"""How long this line keeps what it holds about a caller, by category (README "Caller data"):
each kind names its category in `memory.facts.KINDS`; the library builds the policy
(`contextdb_livekit.api.retention_of`) and the drain (`python drain.py`) applies it.

Shorter is the safe side: what a visit needs soon (how to get in) goes first, what a later
visit still needs (the equipment on site) is kept longest. Every period is a setting.
"""

from __future__ import annotations

from pydantic import Field

from contextdb_livekit.api import FactRetentionSettings, RetentionPolicy, retention_of
from memory.facts import KINDS


class RetentionSettings(FactRetentionSettings):
    # Gate and door arrangements: a visit's worth, not a customer's lifetime.
    access_notes_days: int = Field(default=30, ge=1, alias="RETENTION_ACCESS_NOTES_DAYS")
    # Which days suit, pets, who will be home: they change.
    availability_days: int = Field(default=365, ge=1, alias="RETENTION_AVAILABILITY_DAYS")
    # Address, floor, flat, parking, how to contact.
    premises_days: int = Field(default=730, ge=1, alias="RETENTION_PREMISES_DAYS")
    # Equipment make, count, boiler type, meter location: what the next service needs.
    equipment_days: int = Field(default=1095, ge=1, alias="RETENTION_EQUIPMENT_DAYS")
    # The host's records of visits booked or cancelled, service credits.
    visits_days: int = Field(default=730, ge=1, alias="RETENTION_VISITS_DAYS")


def retention_policy(settings: RetentionSettings | None = None) -> RetentionPolicy:
    # Service credits (`tools.service_credit`) are kept as long as the visits they are for.
    more = [("account", "credit_", "visits_days")]
    return retention_of(KINDS, settings or RetentionSettings(), more=more)
