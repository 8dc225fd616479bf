"""Secrets never reach storage: redact them from caller text before anything writes it.

    redact_secrets("card 4111 1111 1111 1111, gate code is 4821")
    -> Redaction(text="card [card number withheld], gate code is [access code on file]",
                 kinds=("payment_card", "access_code"))

What counts, case-insensitive, typed digits or spoken ASR digits ("four eight two one",
"double oh", "forty one"):

- payment_card: a run of digits (spaces, dashes or commas between groups; spoken digits too)
  holding a Luhn-valid 13–19 digit number whose first digit is not 0 (ISO/IEC 7812: 0 is not
  issued to payment cards), made of whole groups, or anywhere inside one unbroken group of 14+
  digits. The whole run is withheld, so digits typed next to the card go too: over-redacting
  a long number is the safe failure. A run written right after "+" with at
  most 15 digits is an international phone number (E.164), not a card. CVV/CVC values after
  their label are card data too.
- government_id: US SSNs (123-45-6789 / 123 45 6789, valid area/group/serial), UK National
  Insurance numbers (QQ 12 34 56 C), and any id-looking value (≥ 5 digits, letters allowed)
  after "social security number", "ssn", "national insurance number", "passport number",
  "driving licence number", "tax id", "nhs number" and similar labels.
- password: the value after "password", "passcode", "passphrase", "pin", "memorable word" …
  followed by is/was/'s/:/= (a PIN also directly by digits): up to 6 words to the end of
  the clause for passwords, the digits for PINs.
- access_code: the digits after door/gate/entry/alarm/key safe/lockbox/keypad/padlock … code
  (or "code is …", "code for the gate is …", "4821 is the door code"), kept only as
  "[access code on file]".

Not secrets, never touched: dates, times, booking references ("BK-1234"), phone numbers,
addresses, model numbers ("ecoTEC 825"), counts, boiler error/fault codes, postcodes.
Not detected (documented limits): access codes spelled in letters only ("the code is ABCD"),
codes given with no label ("punch in 4821"), card numbers read in groups larger than two
digits as words ("four thousand one hundred ...").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

CARD_TOKEN = "[card number withheld]"
CARD_DETAILS_TOKEN = "[card details withheld]"
ID_TOKEN = "[id number withheld]"
PASSWORD_TOKEN = "[password withheld]"
ACCESS_CODE_TOKEN = "[access code on file]"

KIND_ORDER = ("payment_card", "government_id", "password", "access_code")
MAX_TEXT_CHARS = 100_000


@dataclass(frozen=True)
class Redaction:
    text: str  # the text with every secret replaced
    kinds: tuple[str, ...]  # which kinds were found, in KIND_ORDER


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    kind: str
    token: str


# --- digits, typed or spoken ---------------------------------------------------------------------

_UNIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "o": "0",
    "nought": "0",
    "nil": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_TEEN_WORDS = {
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
}
_TENS_WORDS = {
    "twenty": "2",
    "thirty": "3",
    "forty": "4",
    "fourty": "4",
    "fifty": "5",
    "sixty": "6",
    "seventy": "7",
    "eighty": "8",
    "ninety": "9",
}
_REPEATS = {"double": 2, "triple": 3}
_TOKEN = re.compile(r"\d+|[A-Za-z]+")
# What may sit between two parts of one spoken or typed number.
# Spoken separators ("one two three dash four five") count as gaps when a number follows.
# A dot joins only digit to digit ("4111.1111"), so "at 10.30. Card ..." keeps its sentence end.
_GAP = re.compile(r"(?:[\s,\-\u2013]|\.(?=\d)|\b(?i:dash|hyphen|space)\b)*")
_SPACES = re.compile(r"\s*")


@dataclass(frozen=True)
class _Run:
    start: int
    end: int
    pieces: tuple[str, ...]  # the digits of each typed group or spoken word, in order

    @property
    def digits(self) -> str:
        return "".join(self.pieces)


def _numeric_run_at(text: str, pos: int) -> _Run | None:
    """The number starting at the first token at or after `pos` (after whitespace), or None."""
    pos = _SPACES.match(text, pos).end()  # type: ignore[union-attr]  # \s* always matches
    digits: list[str] = []
    start = end = -1
    repeat = 1
    i = pos
    while True:
        tok = _TOKEN.match(text, i)
        if tok is None:
            break
        word = tok.group().lower()
        value: str | None = None
        consumed_end = tok.end()
        if word.isdigit():
            value = word
        elif word in _UNIT_WORDS and not (word == "o" and not digits):
            value = _UNIT_WORDS[word]
        elif word in _TEEN_WORDS:
            value = _TEEN_WORDS[word]
        elif word in _TENS_WORDS:
            value = _TENS_WORDS[word] + "0"
            gap = _GAP.match(text, tok.end())
            nxt = _TOKEN.match(text, gap.end()) if gap else None
            if (
                nxt
                and nxt.group().lower() in _UNIT_WORDS
                and nxt.group().lower() not in {"o", "oh"}
            ):
                value = _TENS_WORDS[word] + _UNIT_WORDS[nxt.group().lower()]
                consumed_end = nxt.end()
        elif word in _REPEATS:
            gap = _GAP.match(text, tok.end())
            nxt = _TOKEN.match(text, gap.end()) if gap else None
            nxt_word = nxt.group().lower() if nxt else ""
            if nxt and (nxt_word in _UNIT_WORDS or (nxt_word.isdigit() and len(nxt_word) == 1)):
                unit = nxt_word if nxt_word.isdigit() else _UNIT_WORDS[nxt_word]
                value = unit * _REPEATS[word]
                consumed_end = nxt.end()
        if value is None:
            break
        if start < 0:
            start = tok.start()
        digits.append(value * repeat)
        end = consumed_end
        gap = _GAP.match(text, end)
        i = gap.end() if gap else end
        if i == end and i < len(text) and text[i].isalpha():
            break  # "4821abc": the number ends where the letters start
    if not digits:
        return None
    # A number that is only "oh" is an interjection, not a zero.
    if all(d == "0" for d in digits) and text[start:end].lower().strip() in {"oh", "o"}:
        return None
    return _Run(start, end, tuple(digits))


def _numeric_runs(text: str) -> list[_Run]:
    runs: list[_Run] = []
    pos = 0
    for tok in _TOKEN.finditer(text):
        if tok.start() < pos:
            continue
        run = _numeric_run_at(text, tok.start())
        if run is not None:
            runs.append(run)
            pos = run.end
    return runs


def luhn_valid(digits: str) -> bool:
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _holds_card(pieces: list[str]) -> bool:
    """Whether the digits hold a Luhn-valid card: any run of whole pieces (digit groups or
    spoken words) with 13-19 digits, or any 13-19 digit window inside one long unbroken group.
    Windows stop at the pieces otherwise, so "serial 4111 1111 1111 1112" stays a serial."""
    candidates: list[str] = []
    for i in range(len(pieces)):
        joined = ""
        for piece in pieces[i:]:
            joined += piece
            if len(joined) > 19:
                break
            if len(joined) >= 13:
                candidates.append(joined)
    for piece in pieces:
        if len(piece) > 13:
            candidates += [
                piece[i : i + n] for n in range(13, 20) for i in range(len(piece) - n + 1)
            ]
    return any(c[0] != "0" and luhn_valid(c) for c in candidates)


def _card_spans(text: str) -> list[_Span]:
    spans: list[_Span] = []
    for run in _numeric_runs(text):
        if len(run.digits) < 13:
            continue
        if run.start > 0 and text[run.start - 1] == "+" and len(run.digits) <= 15:
            continue  # +44 20 7946 0958 style: a phone number
        if _holds_card(list(run.pieces)):
            spans.append(_Span(run.start, run.end, "payment_card", CARD_TOKEN))
    return spans


# --- labelled values -----------------------------------------------------------------------------

# Between a label and its value: ":", "=", "is", "was", "would be", "'s", "it's", or a space.
_CONNECTOR = (
    r"(?:\s*(?:[:=#]|-(?=\s))\s*"
    r"|\s+(?:is|was|are|were|would\s+be|will\s+be|reads)\s*(?:[:=]\s*)?"
    r"|'s\s+|\s+it'?s\s+|\s*,\s*(?:(?:it'?s|that'?s|is)\s+)?|\s+)"
)
_ID_LABEL = re.compile(
    r"\b(?:social\s+security(?:\s+(?:number|no\.?|num))?|ssn|my\s+social|"
    r"national\s+insurance(?:\s+(?:number|no\.?|num))?|n\.?i\.?\s+number|nino|"
    r"passport(?:\s+(?:number|no\.?|num))?|"
    r"driv(?:er'?s|ing)\s+licen[cs]e(?:\s+(?:number|no\.?|num))?|licen[cs]e\s+number|"
    r"tax\s+(?:id|identification|reference)(?:\s+number)?|tin|itin|"
    r"national\s+id(?:entity)?(?:\s+card)?(?:\s+number)?|id\s+card\s+number|"
    r"identity\s+card(?:\s+number)?|nhs\s+number|medicare\s+number|"
    r"social\s+insurance\s+number|sin\s+number)" + _CONNECTOR,
    re.IGNORECASE,
)
_SSN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])")
_NINO = re.compile(
    r"\b([A-CEGHJ-PR-TW-Z])\s?([A-CEGHJ-NPR-TW-Z])\s?(\d{2})\s?(\d{2})\s?(\d{2})\s?([A-D])\b",
    re.IGNORECASE,
)
_NINO_BAD_PREFIX = {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}
_ID_PIECE = re.compile(r"[A-Za-z]{1,2}\b|[A-Za-z]{0,6}\d[\dA-Za-z]*")

# "the password for the wifi is ...", "pin to my card is ..."
_WHAT_FOR = r"(?:\s+(?:for|to|on)\s+(?:the\s+|my\s+|our\s+)?[a-z]+)?"
_PASSWORD_LABEL = re.compile(
    r"\b(?:password|passcode|pass\s+code|passphrase|pass\s+phrase|memorable\s+word|"
    r"secret\s+word|security\s+answer|login\s+password)"
    + _WHAT_FOR
    + r"(?:\s*[:=]\s*|\s+(?:is|was|would\s+be|will\s+be|reads)\s*(?:[:=]\s*)?|'s\s+|\s+it'?s\s+"
    # no connector: only when the next word looks like a password ("password hunter2")
    r"|\s+(?=\S*[\d!@#$%^&*]))",
    re.IGNORECASE,
)
_PIN_LABEL = re.compile(
    r"\bpin(?:\s+(?:number|code|no\.?))?" + _WHAT_FOR + _CONNECTOR, re.IGNORECASE
)
_CVV_LABEL = re.compile(
    r"\b(?:cvv2?|cvc2?|cv2|card\s+security\s+code|security\s+code\s+on\s+the\s+(?:back|card)|"
    r"three\s+digit\s+code(?:\s+on\s+the\s+back)?)" + _CONNECTOR,
    re.IGNORECASE,
)
_PLACE = (
    r"(?:front|back|side|main|garden|garage|building|block|flat|apartment|entry|entrance|door|"
    r"gate|alarm|security|access|intercom|buzzer|porch|shed|key\s*safe|key\s*box|lock\s*box|"
    r"padlock|keypad)"
)
_DEVICE = r"(?:key\s*safe|key\s*box|lock\s*box|padlock|keypad|combination\s+lock|alarm)"
_ACCESS_LABEL = re.compile(
    rf"\b(?:(?:{_PLACE}(?:'s)?\s+)+(?:code|pin|combination|combo|passcode)(?:\s+number)?"
    rf"|{_DEVICE}(?:\s+(?:code|pin|combination|combo|number))?)"
    r"(?:\s+(?:for|to|on)\s+(?:the\s+)?[a-z]+)?" + _CONNECTOR,
    re.IGNORECASE,
)
# "the code is 4821", "code for the gate is 1234" -- unless it is a kind of code that is not
# an access secret (a boiler fault code, a postcode, a discount code ...).
_GENERIC_CODE = re.compile(
    r"\b(?<!post\s)(?<!zip\s)(?<!area\s)(?<!error\s)(?<!fault\s)(?<!discount\s)(?<!promo\s)"
    r"(?<!voucher\s)(?<!booking\s)(?<!reference\s)(?<!confirmation\s)(?<!model\s)"
    r"(?<!product\s)(?<!country\s)(?<!dialling\s)(?<!dialing\s)(?<!sort\s)(?<!tracking\s)"
    r"(?<!qr\s)(?<!bar\s)(?<!tax\s)(?<!colour\s)(?<!color\s)(?<!dress\s)(?<!source\s)"
    r"(?<!postal\s)(?<!diagnostic\s)(?<!display\s)(?<!status\s)"
    r"(?:combination|code)(?:\s+(?:for|to|on|of)\s+(?:the\s+|my\s+|our\s+)?[a-z]+(?:\s+[a-z]+)?)?"
    r"(?:\s*[:=]\s*|\s+(?:is|was|would\s+be|will\s+be)\s*(?:[:=]\s*)?|'s\s+|\s+it'?s\s+)",
    re.IGNORECASE,
)
_REVERSE_ACCESS = re.compile(
    rf"\s+is\s+(?:the|my|our)\s+(?:{_PLACE}\s+)*(?:code|combination|pin)\b"
    rf"|\s+(?:for|on)\s+the\s+{_PLACE}\b",
    re.IGNORECASE,
)
_PASSWORD_STOP = re.compile(
    r"(?i:and|but|so|then|because|please|thanks|thank|if|which|ok|okay|when|or)$"
)
_CODE_AFFIX = re.compile(r"[*#]+|(?i:star|hash|pound)\b")


def _id_value(text: str, pos: int) -> tuple[int, int] | None:
    """An id value right after a label: letter/digit pieces holding at least 5 digits.

    Letters-only pieces ("q q", spelled prefixes) belong to the id when digits follow them; at
    the end only one single letter is kept (the NINO suffix "c"), so "A1234567 ok" keeps "ok".
    """
    pieces: list[tuple[int, int, int]] = []  # (start, end, digits in it)
    i = pos
    while True:
        gap = _GAP.match(text, i)
        j = gap.end() if gap else i
        run = _numeric_run_at(text, j)
        piece = _ID_PIECE.match(text, j)
        if run is not None and (piece is None or run.end >= piece.end()):
            pieces.append((j, run.end, len(run.digits)))
            i = run.end
        elif piece is not None:
            pieces.append((j, piece.end(), sum(c.isdigit() for c in piece.group())))
            i = piece.end()
        else:
            break
    # Letters-only pieces at the end are not the id, except one single letter right after it.
    keep = len(pieces)
    while keep > 0 and pieces[keep - 1][2] == 0:
        keep -= 1
    tail = pieces[keep] if keep < len(pieces) else None
    pieces = pieces[:keep]
    if not pieces or sum(p[2] for p in pieces) < 5:
        return None
    end = tail[1] if tail is not None and tail[1] - tail[0] == 1 else pieces[-1][1]
    return pieces[0][0], end


def _code_value(text: str, pos: int, *, min_digits: int) -> tuple[int, int] | None:
    """Digits (typed or spoken) with optional * / # / star / hash around them."""
    i = _SPACES.match(text, pos).end()  # type: ignore[union-attr]
    start = i
    affix = _CODE_AFFIX.match(text, i)
    if affix:
        i = affix.end()
    glued = re.compile(r"\s*[A-Za-z]?(?=\d)").match(text, i)  # "C4821"
    if glued:
        i = glued.end()
    run = _numeric_run_at(text, i)
    if run is None or len(run.digits) < min_digits:
        return None
    end = run.end
    tail = re.compile(r"\s*(?:[*#]+|(?i:star|hash|pound)\b)|[A-Za-z](?![A-Za-z])").match(text, end)
    if tail:
        end = tail.end()
    return start, end


def _password_value(text: str, pos: int) -> tuple[int, int] | None:
    """Up to six words to the end of the clause; the first word always goes."""
    start = end = -1
    for count, word in enumerate(re.finditer(r"\S+", text[pos:])):
        raw = word.group()
        if count and (count >= 6 or _PASSWORD_STOP.match(raw.strip(".,;!?\"'"))):
            break
        if count == 0:
            start = pos + word.start()
        end = pos + word.end()
        if raw[-1] in ".,;!?" and len(raw) > 1:
            break  # the clause ends here
        if "\n" in text[end : end + 2]:
            break
    if end < 0:
        return None
    return start, end


_ValueAt = Callable[[str, int], "tuple[int, int] | None"]


def _labelled(
    text: str, label: re.Pattern[str], kind: str, token: str, value_at: _ValueAt
) -> list[_Span]:
    spans: list[_Span] = []
    for m in label.finditer(text):
        found = value_at(text, m.end())
        if found is not None:
            spans.append(_Span(found[0], found[1], kind, token))
    return spans


def _government_id_spans(text: str) -> list[_Span]:
    spans = _labelled(text, _ID_LABEL, "government_id", ID_TOKEN, _id_value)
    for m in _SSN.finditer(text):
        area, group, serial = m.group(1), m.group(3), m.group(4)
        if area in {"000", "666"} or area[0] == "9" or group == "00" or serial == "0000":
            continue
        spans.append(_Span(m.start(), m.end(), "government_id", ID_TOKEN))
    for m in _NINO.finditer(text):
        if (m.group(1) + m.group(2)).upper() in _NINO_BAD_PREFIX:
            continue
        spans.append(_Span(m.start(), m.end(), "government_id", ID_TOKEN))
    return spans


def _password_spans(text: str) -> list[_Span]:
    spans = _labelled(text, _PASSWORD_LABEL, "password", PASSWORD_TOKEN, _password_value)

    def pin_value(t: str, p: int) -> tuple[int, int] | None:
        return _code_value(t, p, min_digits=3)

    spans += _labelled(text, _PIN_LABEL, "password", PASSWORD_TOKEN, pin_value)
    return spans


def _cvv_spans(text: str) -> list[_Span]:
    def cvv_value(t: str, p: int) -> tuple[int, int] | None:
        return _code_value(t, p, min_digits=3)

    return _labelled(text, _CVV_LABEL, "payment_card", CARD_DETAILS_TOKEN, cvv_value)


def _access_spans(text: str) -> list[_Span]:
    def value(t: str, p: int) -> tuple[int, int] | None:
        return _code_value(t, p, min_digits=3)

    spans = _labelled(text, _ACCESS_LABEL, "access_code", ACCESS_CODE_TOKEN, value)
    spans += _labelled(text, _GENERIC_CODE, "access_code", ACCESS_CODE_TOKEN, value)
    for run in _numeric_runs(text):
        if len(run.digits) >= 3 and _REVERSE_ACCESS.match(text, run.end):
            spans.append(_Span(run.start, run.end, "access_code", ACCESS_CODE_TOKEN))
    return spans


def _merge(spans: list[_Span]) -> list[_Span]:
    """Overlapping finds become one span (union), named by the most serious kind."""
    merged: list[_Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            keep = last if KIND_ORDER.index(last.kind) <= KIND_ORDER.index(span.kind) else span
            merged[-1] = _Span(last.start, max(last.end, span.end), keep.kind, keep.token)
        else:
            merged.append(span)
    return merged


def redact_secrets(text: str) -> Redaction:
    """`text` with every payment card, government id, password and access code replaced."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if len(text) > MAX_TEXT_CHARS:
        # Refuse rather than truncate: a cut could split a secret and let half of it through.
        raise ValueError(f"text longer than {MAX_TEXT_CHARS} characters")
    found = [
        *_card_spans(text),
        *_cvv_spans(text),
        *_government_id_spans(text),
        *_password_spans(text),
        *_access_spans(text),
    ]
    spans = _merge(found)
    out: list[str] = []
    pos = 0
    for span in spans:
        out.append(text[pos : span.start])
        out.append(span.token)
        pos = span.end
    out.append(text[pos:])
    kinds = tuple(k for k in KIND_ORDER if any(s.kind == k for s in spans))
    return Redaction("".join(out), kinds)


def contains_secret(text: str) -> bool:
    return bool(redact_secrets(text).kinds)


def redact_bounded(text: str, limit: int) -> str:
    """`text` with whitespace folded, secrets redacted, cut to `limit` characters.

    Any length is accepted. The redactor sees four times more than is kept, so a secret cut
    in half at the redactor's window lies beyond what is kept, never inside it.
    """
    window = " ".join(text[: limit * 8].split())[: limit * 4]
    return redact_secrets(window).text[:limit]
