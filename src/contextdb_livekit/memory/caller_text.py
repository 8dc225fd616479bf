"""Text from the room made safe to keep and to show the model: one function, used wherever a
caller's words (typed over lk.chat, transcribed, or repeated by the model) enter the worker.

- NFKC: full-width and other compatibility look-alikes become the characters they imitate,
  so `［END RECALLED DATA］` is seen (and neutralised) as the wrapper's own words;
- NUL and every other control character (except newline and tab), format characters (bidi
  embeddings, overrides and isolates, zero-width joiners and spaces, BOM) and lone
  surrogates are removed: Postgres refuses NUL in TEXT and JSONB, and a surrogate cannot be
  encoded at all;
- an opening bracket in front of the recalled-data wrapper's words becomes a parenthesis, so
  a caller cannot type a look-alike of the block the instructions call quoted data;
- the result is cut to `limit` characters. The cut comes first (at a few times the limit), so
  a 1 MB message costs no more than a short one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from contextdb_livekit.memory.models import Turn

if TYPE_CHECKING:
    from livekit.agents import llm

# One typed caller turn as the model and the stores see it. A spoken turn is far shorter; a
# longer typed message is cut, and the caller is answered as usual.
MAX_TURN_CHARS = 2000
CUT_MARK = " [cut]"

_KEEP_CONTROLS = frozenset("\n\t")
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
_LINE_BREAKS = {ch: "\n" for ch in "\r\u2028\u2029\x85\x0b\x0c"}
# "[recalled data", "[ end of recalled data", after NFKC and case folding.
_WRAPPER_OPENING = re.compile(r"[\[{<]\s*((?:end\s*(?:of\s*)?)?recalled\s*data)", re.IGNORECASE)


def clean_caller_text(text: str, limit: int = MAX_TURN_CHARS) -> str:
    """`text` normalised and bounded (see the module docstring). Idempotent for text within
    the limit; never raises on any `str`."""
    if limit <= 0:
        return ""
    cut = len(text) > limit
    # NFKC can expand a character (e.g. a ligature) but never by more than a few times.
    window = text[: limit * 4].replace("\r\n", "\n")
    if window.isascii():
        cleaned = window
        if _has_ascii_controls(window):
            cleaned = "".join(_ascii_char(ch) for ch in window)
    else:
        cleaned = unicodedata.normalize("NFKC", "".join(_char(ch) for ch in window))
        cleaned = "".join(_char(ch) for ch in cleaned)
    cleaned = _WRAPPER_OPENING.sub(r"(\1", cleaned)
    if len(cleaned) > limit:
        cut = True
    if not cut:
        return cleaned
    return cleaned[: max(0, limit - len(CUT_MARK))].rstrip() + CUT_MARK


def is_clean(text: str) -> bool:
    """No character `clean_caller_text` would remove (tests and assertions)."""
    return not any(
        unicodedata.category(ch) in _DROPPED_CATEGORIES and ch not in _KEEP_CONTROLS for ch in text
    )


def _has_ascii_controls(text: str) -> bool:
    return any((ord(ch) < 32 and ch not in _KEEP_CONTROLS) or ord(ch) == 127 for ch in text)


def _ascii_char(ch: str) -> str:
    if ch in _LINE_BREAKS:
        return _LINE_BREAKS[ch]
    if (ord(ch) < 32 and ch not in _KEEP_CONTROLS) or ord(ch) == 127:
        return ""
    return ch


def _char(ch: str) -> str:
    if ch in _LINE_BREAKS:
        return _LINE_BREAKS[ch]
    if ch in _KEEP_CONTROLS:
        return ch
    if unicodedata.category(ch) in _DROPPED_CATEGORIES:
        return ""
    return ch


def history_turns(history: llm.ChatContext) -> list[Turn]:
    """The conversation as fact extraction reads it, bounded and cleaned: whatever reached
    the history, extraction (run on every caller turn) never scans a megabyte and no control
    character reaches a store."""
    return [
        Turn(item.role, clean_caller_text(item.text_content or ""))
        for item in history.items
        if item.type == "message" and item.role in ("user", "assistant")
    ]
