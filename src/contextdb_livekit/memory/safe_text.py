"""`neutralise`: the one place memory text is escaped.

Memory text is shown to the model inside a wrapper that says the block is data
(`memory.snapshot`), and a caller's note is screened (`memory.instructions_screen`) and
written; both go through `neutralise` first, so nothing inside the text can end or open the
wrapper or hide from the screen.
"""

from __future__ import annotations

import re
import unicodedata

# Invisible characters outside the format category (Cf is removed wholesale: zero-width
# spaces and joiners, bidi embeddings, overrides and isolates, word joiner, BOM, soft hyphen).
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"  # grapheme joiner, fillers
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
)
# Curly quotes stay quotes (a caller's "don’t" must read as "don't"); every other opening
# or closing mark — brackets of any script, angle quotes « » ‹ › — becomes a parenthesis.
_QUOTES = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
}  # fmt: skip
_ASCII_BRACKETS = {"[": "(", "{": "(", "<": "(", "]": ")", "}": ")", ">": ")"}
# Plain ASCII (almost every fact) takes a table: brackets and control characters only.
_ASCII_FOLD = str.maketrans({**_ASCII_BRACKETS, **{chr(c): " " for c in [*range(32), 127]}})
_OPENING, _CLOSING = frozenset({"Ps", "Pi"}), frozenset({"Pe", "Pf"})
_SPACE = frozenset({"Cc", "Zs", "Zl", "Zp"})
# For finding the wrapper's words only: letters that look like Latin ones.
_LOOKALIKE = str.maketrans(
    {
        **dict(zip("аеорсухіјѕԁԛԝӏ", "aeopcyxijsdqwl", strict=True)),  # Cyrillic
        **dict(zip("ɑαεικνορτυχı", "aaeikvoptuxi", strict=True)),  # Latin/Greek
        **dict(zip("01345@$", "oleasas", strict=True)),  # digits and signs
    }
)
# Anything but a letter may sit between the letters of the wrapper's words (bounded, so a
# long run of punctuation costs nothing).
_SEP = r"[^a-z]{0,32}"
_MARKER = re.compile(
    "(?:" + _SEP.join("end") + _SEP + "(?:" + _SEP.join("of") + _SEP + ")?)?"
    + _SEP.join("recalled") + _SEP + _SEP.join("data")
)  # fmt: skip
MARKER_REPLACEMENT = "(marker removed)"


def _fold_char(ch: str) -> str:
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch in _ASCII_BRACKETS:
        return _ASCII_BRACKETS[ch]
    category = unicodedata.category(ch)
    if category == "Cf" or ch in _INVISIBLE:
        return ""
    if category in _SPACE:
        return " "
    if category in _OPENING:
        return "("
    if category in _CLOSING:
        return ")"
    return ch


def _skeleton(text: str) -> str:
    """One character per character of `text`: lower case, accents and look-alikes folded."""
    if text.isascii():
        return text.lower().translate(_LOOKALIKE)
    out = []
    for ch in text:
        base = unicodedata.normalize("NFKD", ch)[:1] or ch
        lower = base.lower()
        out.append((lower if len(lower) == 1 else base).translate(_LOOKALIKE))
    return "".join(out)


def _without_markers(text: str) -> str:
    skeleton = _skeleton(text)
    spans = [m.span() for m in _MARKER.finditer(skeleton) if m.end() > m.start()]
    for start, end in reversed(spans):
        text = text[:start] + f" {MARKER_REPLACEMENT} " + text[end:]
    return text


def neutralise(text: str) -> str:
    """Memory text made safe inside the wrapper (and a caller's note before it is written).

    Unicode NFKC; invisible, control and bidi characters removed; every bracket look-alike
    a parenthesis; whitespace collapsed to one line; and no case, spacing, accent or
    look-alike variant of the wrapper's words left in it. Idempotent.
    """
    if text.isascii():
        folded = text.translate(_ASCII_FOLD)
    else:
        visible = "".join(_fold_char(ch) for ch in text)
        folded = "".join(_fold_char(ch) for ch in unicodedata.normalize("NFKC", visible))
    return " ".join(_without_markers(" ".join(folded.split())).split())
