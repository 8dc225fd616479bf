"""`RetentionSchedule.from_settings`: a line's retention as the drain applies it, from its
settings (the policy of them, their interval) over the configured caller-data stores."""

from __future__ import annotations

from datetime import timedelta

import pytest

from contextdb_livekit.api import FactRetentionSettings, RetentionPolicy
from contextdb_livekit.caller_data.stores import open_caller_data
from contextdb_livekit.hosting import RetentionSchedule


def policy_of(settings: FactRetentionSettings) -> RetentionPolicy:
    period = settings.period
    return RetentionPolicy(
        slots=(),
        facts_default=period("other_facts_days"),
        audit=period("audit_days"),
        parked=period("parked_days"),
        evidence_text=period("evidence_text_days"),
    )


def settings(**env: object) -> FactRetentionSettings:
    return FactRetentionSettings(_env_file=None, **env)  # type: ignore[call-arg]


def test_the_schedule_is_the_lines_policy_of_its_settings_every_retention_interval() -> None:
    schedule = RetentionSchedule.from_settings(
        policy_of, lambda: settings(RETENTION_INTERVAL_S=90, RETENTION_AUDIT_DAYS=12)
    )
    assert schedule.interval == timedelta(seconds=90)
    assert schedule.policy.audit == timedelta(days=12)
    assert schedule.open_stores is open_caller_data
    assert schedule.last is None  # the first drain pass applies it at once


def test_settings_that_do_not_validate_fail_when_the_schedule_is_made() -> None:
    with pytest.raises(ValueError):
        RetentionSchedule.from_settings(policy_of, lambda: settings(RETENTION_INTERVAL_S=0))
