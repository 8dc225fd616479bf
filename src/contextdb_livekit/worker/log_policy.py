"""What the worker's logs may carry: operations, never a caller's data.

- Third-party loggers that print what passes through them at DEBUG (aiosqlite: every SQL
  statement with its parameters; asyncpg; httpx/httpcore: URLs and headers; openai: request
  bodies; pycontextdb; LiveKit's FFI) are held at WARNING. `livekit.agents` and the LiveKit
  plugins are held at INFO (the worker's lifecycle lines: "registered worker", job start and
  end); their DEBUG lines carry transcripts and chat items. `LOG_THIRD_PARTY_DEBUG=1` lifts
  the levels for a debugging session, explicitly; the filter below stays on even then.
- `CallerDataFilter` withholds every `extra=` field LiveKit marks as personal data
  (`lk.pii.*`: user input, transcripts, chat text, tool arguments and output) at any level,
  on the LiveKit loggers themselves and on every root handler of the process, and masks
  phone numbers in any format (`memory.secrets.phone_spans`: "+1 555 010 0123", "020 7946
  0018", "(415) 555-0132"; national formats of the PHONE_REGIONS countries, GB and US unless
  set) in the message and in every other string field.

Secrets inside messages are memory.secrets' job (its redaction runs on every record); the
worker's own log lines name a caller only by `CallerIdentity.log_id` (a hash).
"""

from __future__ import annotations

import logging
import os

from livekit.agents import Plugin

from contextdb_livekit.memory.secrets import phone_spans

OPT_IN_ENV = "LOG_THIRD_PARTY_DEBUG"
AT_WARNING = (
    "aiosqlite",
    "asyncpg",
    "httpx",
    "httpcore",
    "openai",
    "contextdb",
    "contextdb_cloud_client",
    "livekit",
    "websockets",
    "aiohttp",
    "urllib3",
    "hpack",
    "watchfiles",
)
AT_INFO = ("livekit.agents", "livekit.plugins")
WITHHELD = "[caller data withheld]"


# Phone numbers in any format (memory.secrets.phone_spans): a SIP participant's identity
# ("sip_+15550100123"), the rooms SIP dispatch rules name after the caller
# ("call-_+15550100123_x"), a number said in a national format ("020 7946 0018").
PHONE_MASK = "[phone]"


def is_caller_data_field(key: str) -> bool:
    return "pii" in key.split(".")


def mask_phones(text: str) -> str:
    out: list[str] = []
    pos = 0
    for start, end in phone_spans(text):
        if start >= pos:  # spans found in two regions may overlap: one mask for both
            out += [text[pos:start], PHONE_MASK]
        pos = max(pos, end)
    return "".join(out) + text[pos:]


class CallerDataFilter(logging.Filter):
    """Withholds LiveKit's personal-data `extra=` fields and masks phone numbers in the
    message and in every other string field (participant identities, room names); never
    drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the formatter's to report
            message = None
        if message is not None and (masked := mask_phones(message)) != message:
            record.msg, record.args = masked, None
        for key, value in list(record.__dict__.items()):
            if is_caller_data_field(key):
                record.__dict__[key] = WITHHELD
            elif key not in _RECORD_ATTRS and isinstance(value, str):
                record.__dict__[key] = mask_phones(value)
        return True


_RECORD_ATTRS = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
}


def apply_log_policy(*, opt_in: bool | None = None) -> None:
    """Levels (inherited by job processes, which copy the worker's logger levels) and the
    filter. Call once in the worker process, before LiveKit sets up its logging."""
    if opt_in is None:
        opt_in = os.environ.get(OPT_IN_ENV, "").strip().lower() in ("1", "true", "yes")
    if not opt_in:
        for name in AT_WARNING:
            logging.getLogger(name).setLevel(logging.WARNING)
        for name in (*AT_INFO, *_plugin_loggers()):
            logging.getLogger(name).setLevel(logging.INFO)
    install_caller_data_filter()


def install_caller_data_filter() -> None:
    """On the LiveKit loggers and on every root handler present now; safe to call again (job
    processes call it once their log forwarder is in place)."""
    targets: list[logging.Filterer] = [
        logging.getLogger(name) for name in (*AT_INFO, *_plugin_loggers())
    ]
    targets.extend(logging.getLogger().handlers)
    for target in targets:
        if not any(isinstance(f, CallerDataFilter) for f in target.filters):
            target.addFilter(CallerDataFilter())


def _plugin_loggers() -> list[str]:
    return [p.logger.name for p in Plugin.registered_plugins if p.logger is not None]
