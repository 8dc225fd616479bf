"""The worker's log policy: third-party loggers cannot print caller data at DEBUG, LiveKit's
personal-data fields are withheld at every level, phone numbers are masked."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from contextdb_livekit.worker import log_policy
from contextdb_livekit.worker.log_policy import (
    AT_INFO,
    AT_WARNING,
    PHONE_MASK,
    WITHHELD,
    CallerDataFilter,
    apply_log_policy,
    mask_phones,
)


@pytest.fixture
def saved_levels() -> Iterator[None]:
    names = [*AT_WARNING, *AT_INFO, "livekit.plugins.openai", "livekit.plugins.silero"]
    before = {name: logging.getLogger(name).level for name in names}
    filters = {name: list(logging.getLogger(name).filters) for name in names}
    root_filters = [list(h.filters) for h in logging.getLogger().handlers]
    try:
        yield
    finally:
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)
            logging.getLogger(name).filters[:] = filters[name]
        for handler, kept in zip(logging.getLogger().handlers, root_filters, strict=False):
            handler.filters[:] = kept


class Everything(logging.Formatter):
    """The message and every field of the record, as a JSON formatter would print them."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.getMessage()} {record.__dict__!r}"


def capture(name: str, level: int = logging.DEBUG) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(Everything())
    handler.addFilter(CallerDataFilter())
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(level)
    return logger, stream


def test_third_party_debug_loggers_are_held_at_warning(saved_levels):
    logging.getLogger().setLevel(logging.DEBUG)
    apply_log_policy(opt_in=False)
    for name in ("aiosqlite", "asyncpg", "livekit", "httpx", "openai", "contextdb"):
        assert not logging.getLogger(name).isEnabledFor(logging.INFO), name
    for name in ("livekit.agents", "livekit.plugins.openai"):
        logger = logging.getLogger(name)
        assert logger.isEnabledFor(logging.INFO) and not logger.isEnabledFor(logging.DEBUG)
    # A child of a quiet logger is quiet too (aiosqlite.core logs every statement).
    assert not logging.getLogger("aiosqlite.core").isEnabledFor(logging.DEBUG)


def test_an_explicit_opt_in_lifts_the_levels_but_not_the_filter(saved_levels):
    for name in AT_WARNING:
        logging.getLogger(name).setLevel(logging.NOTSET)
    apply_log_policy(opt_in=True)
    assert logging.getLogger("aiosqlite").level == logging.NOTSET
    assert any(isinstance(f, CallerDataFilter) for f in logging.getLogger("livekit.agents").filters)


def test_livekit_personal_data_fields_are_withheld_at_every_level(saved_levels):
    logger, stream = capture("test.livekit.like")
    for level in (logging.DEBUG, logging.INFO, logging.WARNING):
        logger.log(
            level,
            "conversation_item_added",
            extra={"role": "user", "lk.pii.text": "my card is 4111", "lk.pii.user_input": "yes"},
        )
    out = stream.getvalue()
    assert "my card is 4111" not in out and "'yes'" not in out
    assert out.count(WITHHELD) == 6 and "'role': 'user'" in out


def test_phone_numbers_are_masked_in_messages_and_fields(saved_levels):
    logger, stream = capture("test.phone")
    logger.info("caller %s joined room %s", "sip_+15550170478", "call-_+15550170478_ab")
    logger.info("closing", extra={"participant": "sip_+447700900123", "duration_ms": 1234567890})
    out = stream.getvalue()
    assert "15550170478" not in out and "447700900123" not in out
    assert f"sip_{PHONE_MASK}" in out and f"call-_{PHONE_MASK}_ab" in out
    assert "1234567890" in out  # plain numbers (ids, timings) are left alone


def test_the_filter_guards_every_root_handler_whoever_logs(saved_levels):
    """Issue 31 (a mutation that survived): the filter on the root handlers is what guards
    records from loggers the policy does not name (the worker's own, any library's), which
    reach the output only through those handlers."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(Everything())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        apply_log_policy(opt_in=True)  # levels lifted: the filter alone stands
        assert any(isinstance(f, CallerDataFilter) for f in handler.filters)
        logger = logging.getLogger("some_library.unlisted")
        logger.setLevel(logging.DEBUG)
        logger.warning("dialled sip_+15550100123", extra={"lk.pii.transcript": "my card is 4111"})
    finally:
        root.removeHandler(handler)
    out = stream.getvalue()
    assert "+15550100123" not in out and "4111" not in out
    assert PHONE_MASK in out and WITHHELD in out


# Issue 29: phone numbers in any format, found by phonenumbers (memory.secrets.phone_spans).
NATIONAL_PHONES = [
    "020 7946 0018",
    "(415) 555-0132",
    "07700 900123",
    "07700900123",
    "020.7946.0018",
    "415.555.0132",
    "415 555 0132",
    "0161 496 0000",
    "+44 20 7946 0018",  # spaced: the old "+" and digits rule missed it
    "0044 20 7946 0018",
    "1-800-555-0199",
]
# Ids a log line carries: none of them may be masked. None shares digits with a phone above.
IDS = [
    "550e8400-e29b-41d4-a716-446655440000",
    "12345678-1234-1234-1234-123456789012",
    "AJ_8kZ2n3Xq9Lm",
    "job 2291873",
    "2026-12-10",
    "2026-12-10T10:30:15Z",
    "10/12/2026",
    "10:30:15.250",
    "12.50",
    "£1,234.56",
    "room-20261210-4821",
    "call-_7d3f9a21_x",
    "1234567890 ms",
    "ts 1733312345.123",
    "pid 123456",
    "port 8081",
    "order 20261210",
    "BK-5678-2231",
]


@pytest.mark.parametrize("phone", NATIONAL_PHONES)
def test_phone_numbers_in_any_format_are_masked(saved_levels, phone):
    logger, stream = capture("test.phone.national")
    logger.info("caller said %s", f"ring me on {phone} please")
    logger.info("note", extra={"said": f"my number is {phone}."})
    out = stream.getvalue()
    # Whole number masked: nothing of it left between the words around it.
    assert phone not in out, out
    assert f"ring me on {PHONE_MASK} please" in out and f"my number is {PHONE_MASK}." in out


def test_ids_dates_times_and_amounts_are_left(saved_levels):
    logger, stream = capture("test.phone.ids")
    line = " | ".join(IDS)
    logger.info("job %s", line)
    logger.info("ids", extra={"ids": line})
    out = stream.getvalue()
    assert PHONE_MASK not in out, out
    assert f"job {line}" in out and f"'ids': '{line}'" in out


def test_ids_next_to_a_phone_number_are_kept(saved_levels):
    logger, stream = capture("test.phone.mixed")
    logger.info("room room-20261210-4821 job AJ_8kZ2n3Xq9Lm dialled 07700 900123 at 10:30:15")
    out = stream.getvalue()
    assert "room-20261210-4821" in out and "AJ_8kZ2n3Xq9Lm" in out and "10:30:15" in out
    assert "900123" not in out and f"dialled {PHONE_MASK} at" in out


def test_national_formats_follow_phone_regions(monkeypatch):
    monkeypatch.setenv("PHONE_REGIONS", "us")
    assert mask_phones("uk 07700 900123, us (415) 555-0132") == f"uk 07700 900123, us {PHONE_MASK}"
    assert mask_phones("sip_+447700900123") == f"sip_{PHONE_MASK}"  # international: any region
    monkeypatch.setenv("PHONE_REGIONS", "GB")
    assert mask_phones("uk 07700 900123") == f"uk {PHONE_MASK}"
    monkeypatch.setenv("PHONE_REGIONS", "GB,XX")
    with pytest.raises(ValueError, match="PHONE_REGIONS"):
        mask_phones("07700 900123")


def test_overlapping_finds_get_one_mask(monkeypatch):
    monkeypatch.setattr(log_policy, "phone_spans", lambda text: [(5, 18), (6, 10), (15, 21)])
    assert mask_phones("call 0123456789012345 now") == f"call {PHONE_MASK} now"
