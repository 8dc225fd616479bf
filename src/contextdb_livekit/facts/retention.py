"""How long a line keeps what it holds about a caller: a setting per category of caller fact
(each kind names its setting in the line's table, `KindSpec.keep`), plus the periods every line
has. Shorter is the safe side; every period is a setting, applied by the drain on its schedule
(`caller_data.retention`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from contextdb_livekit.facts.kinds import FactKinds, K
from contextdb_livekit.kit.request_slots import REQUEST_ENTITY
from contextdb_livekit.stores.caller_data import RetentionPolicy, SlotRetention


class FactRetentionSettings(BaseSettings):
    """The periods every line has; a line's subclass adds one `<category>_days` per category
    its kinds name (`RETENTION_<CATEGORY>_DAYS`)."""

    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"), extra="ignore", populate_by_name=True
    )

    # The caller's own unconfirmed words, the model's notes, flagged notes.
    caller_words_days: int = Field(default=90, ge=1, alias="RETENTION_CALLER_WORDS_DAYS")
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

    def period(self, name: str) -> timedelta:
        """The period a setting names (`ValueError` for one the settings do not have)."""
        days = getattr(self, name, None)
        if not isinstance(days, int):
            raise ValueError(f"no retention setting {name!r}")
        return timedelta(days=days)


def retention_of(
    kinds: FactKinds[K],
    settings: FactRetentionSettings,
    *,
    more: Iterable[tuple[str, str, str]] = (),
) -> RetentionPolicy:
    """The policy: each kind's slot kept for its setting's period, this call's requests,
    then `more` (entity, attribute prefix, setting) for slots the line writes outside its kinds."""
    rules = [SlotRetention(*spec.slot, settings.period(spec.keep)) for spec in kinds.specs.values()]
    rules.append(SlotRetention(REQUEST_ENTITY, "", settings.period("requests_days")))
    rules.extend(SlotRetention(e, a, settings.period(name)) for e, a, name in more)
    return RetentionPolicy(
        slots=tuple(rules),
        facts_default=settings.period("other_facts_days"),
        audit=settings.period("audit_days"),
        parked=settings.period("parked_days"),
        evidence_text=settings.period("evidence_text_days"),
    )
