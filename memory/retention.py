"""How long this line keeps what it holds about a caller, by kind (README "Caller data").

Shorter is the safe side: what a visit needs soon (how to get in) goes first, what a later
visit still needs (the equipment on site) is kept longest. Every period is a setting.
The drain (`python drain.py`) applies them on its schedule
(`caller_data.retention`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import get_args

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from contextdb_livekit.api import REQUEST_ENTITY, RetentionPolicy, SlotRetention
from memory.facts import FactKind, kind_slot_prefix


class RetentionSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"), extra="ignore", populate_by_name=True
    )

    # Gate and door arrangements: a visit's worth, not a customer's lifetime.
    access_notes_days: int = Field(default=30, ge=1, alias="RETENTION_ACCESS_NOTES_DAYS")
    # The caller's own unconfirmed words, the model's notes, flagged notes.
    caller_words_days: int = Field(default=90, ge=1, alias="RETENTION_CALLER_WORDS_DAYS")
    # Which days suit, pets, who will be home: they change.
    availability_days: int = Field(default=365, ge=1, alias="RETENTION_AVAILABILITY_DAYS")
    # Address, floor, flat, parking, how to contact.
    premises_days: int = Field(default=730, ge=1, alias="RETENTION_PREMISES_DAYS")
    # Equipment make, count, boiler type, meter location: what the next service needs.
    equipment_days: int = Field(default=1095, ge=1, alias="RETENTION_EQUIPMENT_DAYS")
    # The host's records of visits booked or cancelled, service credits.
    visits_days: int = Field(default=730, ge=1, alias="RETENTION_VISITS_DAYS")
    # A request belongs to the call that made it.
    requests_days: int = Field(default=7, ge=1, alias="RETENTION_REQUESTS_DAYS")
    # Anything else held in memory.
    other_facts_days: int = Field(default=365, ge=1, alias="RETENTION_OTHER_FACTS_DAYS")
    # Attestations, decisions, receipts: kept whole this long, then without personal data.
    audit_days: int = Field(default=400, ge=1, alias="RETENTION_AUDIT_DAYS")
    # The words of an attestation (a read-back may quote any fact, an access note included).
    evidence_text_days: int = Field(default=30, ge=1, alias="RETENTION_EVIDENCE_TEXT_DAYS")
    # A fact write parked dead that nobody re-drove.
    parked_days: int = Field(default=30, ge=1, alias="RETENTION_PARKED_DAYS")
    # How often the drain applies them.
    interval_s: float = Field(default=3600.0, gt=0, alias="RETENTION_INTERVAL_S")


# Which setting each kind of caller fact follows.
KIND_PERIOD: dict[FactKind, str] = {
    "access_notes": "access_notes_days",
    "quote": "caller_words_days",
    "note": "caller_words_days",
    "flagged_note": "caller_words_days",
    "availability": "availability_days",
    "preferred_day": "availability_days",
    "pets": "availability_days",
    "who_home": "availability_days",
    "address": "premises_days",
    "floor": "premises_days",
    "flat": "premises_days",
    "parking": "premises_days",
    "contact_preference": "premises_days",
    "equipment_make": "equipment_days",
    "equipment_count": "equipment_days",
    "boiler_type": "equipment_days",
    "meter_location": "equipment_days",
    "visit_booked": "visits_days",
    "visit_cancelled": "visits_days",
}


def _days(settings: RetentionSettings, name: str) -> timedelta:
    return timedelta(days=int(getattr(settings, name)))


def retention_policy(settings: RetentionSettings | None = None) -> RetentionPolicy:
    settings = settings or RetentionSettings()
    rules = [
        SlotRetention(*kind_slot_prefix(kind), _days(settings, KIND_PERIOD[kind]))
        for kind in _all_kinds()
    ]
    rules.append(SlotRetention(REQUEST_ENTITY, "", _days(settings, "requests_days")))
    rules.append(SlotRetention("account", "credit_", _days(settings, "visits_days")))
    return RetentionPolicy(
        slots=tuple(rules),
        facts_default=_days(settings, "other_facts_days"),
        audit=_days(settings, "audit_days"),
        parked=_days(settings, "parked_days"),
        evidence_text=_days(settings, "evidence_text_days"),
    )


def _all_kinds() -> list[FactKind]:
    kinds: list[FactKind] = []
    for arg in get_args(FactKind):
        kinds.extend(get_args(arg) or (arg,))
    return kinds
