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
  a long number is the safe failure. A card read in parts with a word or two between them
  ("4539 1488 then 0343 6467", "... and the rest is ...") is one card: runs joined only by
  such filler words are checked together. A run inside a phone number (`phone_spans`) is
  not a card. CVV/CVC values after their
  label ("CVV", "security number", "the three digits on the back") are card data too.
- government_id: US SSNs (123-45-6789 / 123 45 6789, valid area/group/serial), Canadian SINs
  typed in three groups of three (046 454 286 shape, check digit valid), UK National
  Insurance numbers (QQ 12 34 56 C), and any id-looking value (≥ 5 digits, letters allowed)
  after "social security number", "ssn", "national insurance number", "passport number",
  "driving licence number", "tax id", "nhs number", "SIN" / "social insurance number" and
  similar labels.
- password: the value after "password", "passcode", "passphrase", "pin", "memorable word" …
  followed by is/was/'s/:/= (a PIN also directly by digits): up to 6 words to the end of
  the clause for passwords, the digits for PINs.
- bank_account: IBANs (any country, typed with or without spaces, mod-97 checked, the length
  the country's registry entry gives; after an "IBAN" label any IBAN-shaped value), and the
  digits after "sort code", "account number" / "acc no" / "a/c" / "bank account", "routing
  number" / "ABA" / "BSB" labels (typed, "20-00-00", or spoken, "two oh double oh double oh");
  a customer's account with us ("customer account number 204981") is not a bank account.
- date_of_birth: a date after "date of birth", "DOB", "born (on)", "birthday", "birth date"
  ("14/03/1962", "the fourteenth of march sixty two", "June 4th 1967"); a year after "born in"
  or "year of birth".
- access_code: the digits after door/gate/entry/alarm/key safe/lockbox/keypad/padlock … code
  (or "code is …", "code for the gate is …", "4821 is the door code"), also when words sit
  between the lock and its value ("the padlock on the side gate is four four one seven hash",
  "to turn the alarm off it's nine nine one two")
  or the value comes first ("4417# opens the padlock", "hash 4 4 5 6 for the gate"), with any
  star / hash / pound around it ("… then hash"), kept only as "[access code on file]". Not a
  code there: amounts, times, sizes and ages ("£120", "18:00", "2 metres", "15 years old"),
  house and flat numbers ("330 Station Road", "flat 4417 on the side of the garage"), phone
  numbers (more than 8 digits), or a number whose words name it ("door number is 112").

Not secrets, never touched: visit dates, times, booking references ("BK-1234"), phone numbers,
addresses, house and flat numbers, model numbers ("ecoTEC 825"), counts, boiler error/fault
codes, postcodes, customer ids and uuids.
Not detected (documented limits): access codes spelled in letters only ("the code is ABCD"),
codes given with no label ("punch in 4821"), card numbers read in groups larger than two
digits as words ("four thousand one hundred ..."), IBANs spelled out letter by letter, sort
codes and account numbers with no label, dates of birth with no label ("I'm 14 03 62").

Check digits (Luhn, the IBAN's ISO 7064 mod 97-10, SIN validity) are python-stdnum's; phone
numbers in any format are phonenumbers' (`phone_spans`, read in the regions PHONE_REGIONS names);
what counts as a number in speech, and where one starts and ends, is this module's.

Logs: `SecretRedactingFilter` redacts every log record (message with its arguments, exception
and stack text, extra fields); `install_log_redaction()` puts it on every record the process
makes and on the root handlers.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import phonenumbers
from phonenumbers import Leniency, PhoneNumberMatcher, PhoneNumberType, ValidationResult
from stdnum import luhn
from stdnum.ca import sin as canadian_sin
from stdnum.iso7064 import mod_97_10

CARD_TOKEN = "[card number withheld]"
CARD_DETAILS_TOKEN = "[card details withheld]"
ID_TOKEN = "[id number withheld]"
PASSWORD_TOKEN = "[password withheld]"
ACCESS_CODE_TOKEN = "[access code on file]"
BANK_TOKEN = "[bank details withheld]"
DOB_TOKEN = "[date of birth withheld]"

KIND_ORDER = (
    "payment_card",
    "bank_account",
    "government_id",
    "date_of_birth",
    "password",
    "access_code",
)
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


def _past_spaces(text: str, pos: int) -> int:
    """The first position at or after `pos` that is not whitespace."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


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
    pos = _past_spaces(text, pos)
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
        split = False
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
                # Two pieces: a card may start at the unit ("... twenty, one 0 0 ..." heard as
                # "twenty one 0 0 ...").
                split = True
        elif word in _REPEATS:
            gap = _GAP.match(text, tok.end())
            nxt = _TOKEN.match(text, gap.end()) if gap else None
            nxt_word = nxt.group().lower() if nxt else ""
            if nxt and (nxt_word in _UNIT_WORDS or (nxt_word.isdigit() and len(nxt_word) == 1)):
                unit = nxt_word if nxt_word.isdigit() else _UNIT_WORDS[nxt_word]
                value = unit * _REPEATS[word]
                consumed_end = nxt.end()
                # One piece per digit: a card may start inside the repeat ("... double, one 0
                # 0 ..." heard as "double one 0 0 ...").
                split = True
        if value is None:
            break
        if start < 0:
            start = tok.start()
        if split:
            digits.extend(value)
        else:
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
    """ASCII digits only (stdnum would also accept other scripts' digits)."""
    return digits.isascii() and digits.isdigit() and luhn.is_valid(digits)


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


# What may sit between two parts of one card read out in parts: a few filler words, no more.
# Never across a sentence end: "door code is 400033. 0400033 ..." is two numbers.
_CARD_JOIN = re.compile(
    r"[\s,\-\u2013]*(?:(?:then|and|next|followed\s+by|um+|uh+|er+|erm|sorry|okay|ok|"
    r"right|so|the\s+rest(?:\s+is)?|rest\s+is|last\s+(?:four|digits|bit)(?:\s+(?:is|are))?|"
    r"it'?s|is|are)[\s,\-\u2013]*){0,4}",
    re.IGNORECASE,
)
# Parts of one card: at most four, together no longer than a card.
_MAX_CARD_PARTS = 4


# --- phone numbers -------------------------------------------------------------------------------

PHONE_REGIONS_ENV = "PHONE_REGIONS"
DEFAULT_PHONE_REGIONS = ("GB", "US")
_MIN_PHONE_DIGITS = 7  # fewer digits in a text: no phone number to look for
# Seven digits with at most a few separators between each two (spaces, dashes, dots,
# brackets, "+", "/"): phonenumbers' matcher finds nothing in a text without such a run
# (ids, hex, stack traces, prices), so it is not run on one — every log field passes here.
_PHONE_LIKE = re.compile(rf"(?:\d\W{{0,4}}){{{_MIN_PHONE_DIGITS - 1}}}\d")


def phone_regions() -> tuple[str, ...]:
    """The countries whose national formats are read as phone numbers: PHONE_REGIONS (ISO
    3166 codes, comma-separated), else GB and US. International numbers ("+...") are read in
    any case."""
    named = os.environ.get(PHONE_REGIONS_ENV, "").upper().replace(" ", "")
    regions = tuple(r for r in named.split(",") if r) or DEFAULT_PHONE_REGIONS
    unknown = sorted(set(regions) - phonenumbers.SUPPORTED_REGIONS)
    if unknown:
        raise ValueError(f"{PHONE_REGIONS_ENV}: not a region phonenumbers knows: {unknown}")
    return regions


def phone_spans(text: str, regions: tuple[str, ...] | None = None) -> list[tuple[int, int]]:
    """(start, end) of every phone number written in `text`, in any format: a valid number of
    one of `regions` as phonenumbers' VALID leniency finds it (the trunk prefix where the
    country writes one, not glued to letters, not a date or a time), or a number dialled in
    full, with "+" or the trunk prefix, at the full length of its country's fixed or mobile
    numbers (SIP caller ids; ranges the library does not list as valid, such as 07700 900123).
    Spans found in two regions may overlap."""
    if _PHONE_LIKE.search(text) is None:
        return []
    return list(_phone_spans(text, regions or phone_regions()))


@functools.lru_cache(maxsize=1024)
def _phone_spans(text: str, regions: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    # Cached: a call's log records repeat the same room name, identity and caller id.
    spans: set[tuple[int, int]] = set()
    for region in regions:
        spans.update((m.start, m.end) for m in PhoneNumberMatcher(text, region, Leniency.VALID))
        trunk = phonenumbers.ndd_prefix_for_region(region, True) or ""
        for m in PhoneNumberMatcher(text, region, Leniency.POSSIBLE):
            digits = "".join(c for c in m.raw_string if c.isdigit())
            national = phonenumbers.national_significant_number(m.number)
            dialled = m.raw_string.startswith("+") or (trunk and digits == trunk + national)
            possible = phonenumbers.is_possible_number_for_type_with_reason(
                m.number, PhoneNumberType.FIXED_LINE_OR_MOBILE
            )
            if dialled and possible == ValidationResult.IS_POSSIBLE:
                spans.add((m.start, m.end))
    return tuple(sorted(spans))


def _within(run: _Run, spans: list[tuple[int, int]]) -> bool:
    return any(start <= run.start and run.end <= end for start, end in spans)


def _card_spans(text: str) -> list[_Span]:
    spans: list[_Span] = []
    runs = _numeric_runs(text)
    if sum(len(run.digits) for run in runs) < 13:
        return spans  # too few digits for any card
    phones = phone_spans(text)
    for run in runs:
        if len(run.digits) < 13 or _within(run, phones):
            continue
        if _holds_card(list(run.pieces)):
            spans.append(_Span(run.start, run.end, "payment_card", CARD_TOKEN))
    # A card read in parts: consecutive runs joined only by filler words.
    for i, first in enumerate(runs):
        if _within(first, phones):
            continue
        pieces = list(first.pieces)
        for previous, nxt in itertools.pairwise(runs[i : i + _MAX_CARD_PARTS]):
            joined = _CARD_JOIN.match(text, previous.end)
            if joined is None or joined.end() != nxt.start or _within(nxt, phones):
                break
            pieces += nxt.pieces
            if _holds_card(pieces):
                spans.append(_Span(first.start, nxt.end, "payment_card", CARD_TOKEN))
                break
    return spans


# --- labelled values -----------------------------------------------------------------------------

# Between a label and its value: ":", "=", "is", "was", "would be", "'s", "it's", or a space.
_CONNECTOR = (
    r"(?:\s*(?:[:=#]|-(?=\s))\s*"
    r"|\s+(?:is|was|are|were|would\s+be|will\s+be|reads)\s*(?:[:=]\s*)?"
    r"|'s\s+|\s+it'?s\s+|\s*,\s*(?:(?:it'?s|that'?s|is)\s+)?|\s+)"
)
_ID_LABEL = re.compile(
    r"\b(?:social\s+security(?:\s+(?:number|no\.?|num))?|ssn|"
    r"my\s+social(?!\s+(?:security|insurance))|"
    r"national\s+insurance(?:\s+(?:number|no\.?|num))?|n\.?i\.?\s+number|nino|"
    r"passport(?:\s+(?:number|no\.?|num))?|"
    r"driv(?:er'?s|ing)\s+licen[cs]e(?:\s+(?:number|no\.?|num))?|licen[cs]e\s+number|"
    r"tax\s+(?:id|identification|reference)(?:\s+number)?|tin|itin|"
    r"national\s+id(?:entity)?(?:\s+card)?(?:\s+number)?|id\s+card\s+number|"
    r"identity\s+card(?:\s+number)?|nhs\s+number|medicare\s+number|"
    r"social\s+insurance(?:\s+(?:number|no\.?|num))?|sin(?:\s+(?:number|no\.?|num))?)" + _CONNECTOR,
    re.IGNORECASE,
)
_SSN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])")
# A Canadian SIN as it is written: three groups of three (check digit checked by stdnum).
_SIN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{3})\2(\d{3})(?![\d-])")
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
    r"(?<!social\s)(?:card\s+)?security\s+(?:number|digits|no\.?)|card\s+verification(?:\s+(?:code|number))?|"
    r"(?:three|3|four|4)[\s\-]+digit\s+(?:code|number)(?:\s+on\s+the\s+(?:back|card|front))?|"
    r"(?:(?:the\s+)?(?:three|3|four|4)\s+)?(?:digits|numbers)\s+on\s+the\s+back"
    r"(?:\s+of\s+(?:the|my)\s+card)?)" + _CONNECTOR,
    re.IGNORECASE,
)
_PLACE = (
    r"(?:front|back|side|main|garden|garage|building|block|flat|apartment|entry|entrance|door|"
    r"gate|alarm|security|access|intercom|buzzer|porch|shed|key\s*safe|key\s*box|lock\s*box|"
    r"padlock|keypad)"
)
_DEVICE = (
    r"(?:key\s*safe|key\s*box|lock\s*box|padlock|keypad|combination\s+lock|alarm)"
    r"(?:\s+(?:panel|system|keypad|unit))?"
)
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
# After a code: "#", "hash", "then hash", "and then press star", or one glued letter ("4821B").
_CODE_TAIL = re.compile(
    r"\s*(?:(?i:then|and|and\s+then|followed\s+by)\s+)?(?:(?i:press|hit)\s+)?"
    r"(?:[*#]+|(?i:star|hash|pound)\b)|[A-Za-z](?![A-Za-z])"
)


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
    found = _code_value_run(text, pos, min_digits=min_digits)
    return None if found is None else (found[0], found[1])


def _code_value_run(text: str, pos: int, *, min_digits: int) -> tuple[int, int, _Run] | None:
    i = _past_spaces(text, pos)
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
    tail = _CODE_TAIL.match(text, end)
    if tail:
        end = tail.end()
    return start, end, run


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
        # Not stdnum's us.ssn: it also refuses numbers that were published (219-09-9999 was
        # printed on wallet inserts), and one a caller says is theirs is still withheld.
        area, group, serial = m.group(1), m.group(3), m.group(4)
        if area in {"000", "666"} or area[0] == "9" or group == "00" or serial == "0000":
            continue
        spans.append(_Span(m.start(), m.end(), "government_id", ID_TOKEN))
    for m in _SIN.finditer(text):
        if canadian_sin.is_valid(m.group(1) + m.group(3) + m.group(4)):
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
    spans += _lock_chain_spans(text)
    for run in _numeric_runs(text):
        if len(run.digits) < 3:
            continue
        tail = _CODE_TAIL.match(text, run.end)
        after = tail.end() if tail else run.end
        if (
            len(run.digits) <= _MAX_CODE_DIGITS
            and not _is_money_or_time(text, run)
            and not _NOT_A_CODE_BEFORE.search(text[max(0, run.start - 30) : run.start])
            and (_REVERSE_ACCESS.match(text, after) or _VALUE_FIRST.match(text, after))
        ):
            start = run.start
            lead = _LEAD_AFFIX.search(text[max(0, start - 8) : start])
            if lead:
                start = max(0, start - 8) + lead.start()
            spans.append(_Span(start, after, "access_code", ACCESS_CODE_TOKEN))
    return spans


# Anything that locks: a lock, what it sits on, or the code word itself.
_LOCK = (
    r"(?:pad\s*locks?|locks?|key\s*safes?|key\s*box(?:es)?|lock\s*box(?:es)?|key\s*pads?|"
    r"alarms?|gates?|doors?|garages?|sheds?|entry|entrance|intercom|buzzer|combination|combo|"
    r"safe|porch|outhouse|bin\s+store|locker|shutters?|barrier)"
)
_MAX_CODE_DIGITS = 8  # longer runs after a lock are phone numbers, not codes
# "the padlock on the side gate is 4417": the lock, up to seven plain words, a copula, the code.
_LOCK_WORD = re.compile(rf"\b{_LOCK}\b", re.IGNORECASE)
_CHAIN_WORD = re.compile(r"\s+([A-Za-z][A-Za-z'\-]*)")
_MAX_CHAIN_WORDS = 7
_COPULA = re.compile(
    r"(?:(?:'s|\s+(?:is|was))?\s+(?:set\s+to|has|uses|takes|needs|opens\s+(?:with|on)|"
    r"works\s+(?:with|on))\s+"
    r"|,?\s+and\s+(?:it'?s|it\s+is|that'?s)\s+|\s*,\s*(?:it'?s|that'?s|it\s+is)\s+"
    r"|'s\s*|\s+(?:is|was|are|were|would\s+be|will\s+be)\s*(?:[:=]\s*)?"
    r"(?:(?:it'?s|that'?s)\s+)?|\s*[:=]\s*"
    # "to turn the alarm off it's 9912": the value after a plain "it's" / "it is".
    r"|\s+(?:it'?s|it\s+is|that'?s)\s+)",
    re.IGNORECASE,
)
_CLAUSE_WORD = re.compile(r"(?i:and|but|so|because|which|while|when|or|if|though|although)")
# Words that make the number after the lock something else: an address, a size, a model ...
_NOT_A_CODE_WORD = re.compile(
    r"(?i:number|no|num|flat|house|apartment|unit|phone|mobile|landline|model|serial|postcode|"
    r"reference|ref|booking|order|invoice|account|size|width|height|length|wide|tall|high|"
    r"long|old|age|temperature|pressure|price|cost|bill|fault|error|year|years|fitted|"
    r"installed|built|made|bought|replaced|serviced|address|road|street|post|zip|area|dress|"
    r"discount|promo|voucher|tracking|status|display|diagnostic|boiler)"
)
_UNIT_AFTER = re.compile(
    r"\s*(?:%|£|\$|(?i:percent|per\s+cent|metres?|meters?|m|cm|mm|feet|foot|ft|inch(?:es)?|"
    r"yards?|miles?|km|years?|yrs?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|"
    r"secs?|pounds|quid|euros?|dollars?|degrees?|bar|psi|kg|kilos?|litres?|liters?|am|pm|"
    r"a\.m\.|p\.m\.|o'?clock|times|people|road|rd|street|st|lane|ln|avenue|ave|close|drive|"
    r"way|court|place|crescent|terrace|gardens|grove|square|model|series|watts?|kw|volts?|"
    r"wide|high|tall|long|deep|old|on\s+the\s+left|on\s+the\s+right)\b)"
)
# "330 Station Road": a house number. Words between are names, not "on the way".
_STREET_AFTER = re.compile(
    r"(?:\s+(?!(?:on|the|in|to|at|by|for|and|then|a|an|of|or|is|it)\b)[A-Za-z]+){1,3}\s+"
    r"(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|way|court|place|crescent|terrace|"
    r"gardens|grove|square|mews|row|hill|park|walk|green|parade)\b",
    re.IGNORECASE,
)
# After the value: "opens the padlock", "for the side gate", "unlocks the key safe".
_VALUE_FIRST = re.compile(
    rf"\s+(?:opens|unlocks|disarms|deactivates|releases|works|turns\s+off|gets\s+you\s+"
    rf"(?:in(?:to)?|through)|(?:is\s+)?(?:for|on|to\s+(?:open|unlock|disarm))|is\s+what\s+"
    rf"opens)\s+(?:the\s+|my\s+|our\s+|your\s+)?(?:[A-Za-z][A-Za-z'\-]*\s+){{0,3}}?"
    rf"{_LOCK}\b",
    re.IGNORECASE,
)
# "flat 4417 on the side of the garage", "paid 450 for the gate": not codes.
_NOT_A_CODE_BEFORE = re.compile(
    r"\b(?i:flat|number|no\.?|unit|house|apartment|apt\.?|room|suite|plot|order|invoice|ref|"
    r"reference|booking|paid|pay|cost|costs|spent|charged|quoted|about|around|over|under|"
    r"nearly|almost|only|model|serial|job|policy|customer|account)\s*#?\s*$"
)
_LEAD_AFFIX = re.compile(r"(?:[*#]+|(?i:star|hash|pound))\s*$")


def _is_money_or_time(text: str, run: _Run) -> bool:
    """£200, $450, 10.30, 7:45 -- amounts and times next to a lock word are not its code."""
    before = text[max(0, run.start - 2) : run.start]
    if re.search(r"[£$€]\s*$", before):
        return True
    raw = text[run.start : run.end]
    if re.fullmatch(r"\d{1,2}[.:]\d{2}", raw) or text[run.end : run.end + 1] == ":":
        return True
    return bool(_UNIT_AFTER.match(text, run.end) or _STREET_AFTER.match(text, run.end))


def _lock_chain_spans(text: str) -> list[_Span]:
    """A lock word, then up to seven plain words of the same clause, then a copula ("is",
    ":", "has", "set to", "and it's" ...) and a code right after it."""
    spans: list[_Span] = []
    for m in _LOCK_WORD.finditer(text):
        pos = m.end()
        for _ in range(_MAX_CHAIN_WORDS + 1):
            copula = _COPULA.match(text, pos)
            found = _code_value_run(text, copula.end(), min_digits=3) if copula else None
            if found is not None:
                start, end, run = found
                if len(run.digits) <= _MAX_CODE_DIGITS and not _is_money_or_time(text, run):
                    spans.append(_Span(start, end, "access_code", ACCESS_CODE_TOKEN))
                break
            word = _CHAIN_WORD.match(text, pos)
            if word is None or _NOT_A_CODE_WORD.fullmatch(word.group(1)):
                break
            if _CLAUSE_WORD.fullmatch(word.group(1)):
                break
            pos = word.end()
    return spans


# --- bank details --------------------------------------------------------------------------------

# IBAN length by country (SWIFT IBAN registry). Other two-letter prefixes count when written in
# capitals, at any IBAN length (15-34).
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22,
    "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip
# Country code and check digits at a word start (not inside a uuid or a reference).
_IBAN_START = re.compile(r"(?<![\w\-/])([A-Za-z]{2})[ \-]?(\d{2})(?=[ \-]?[A-Za-z0-9])")
IBAN_MARK = "\0iban"  # the token of an IBAN span until redact_secrets sets BANK_TOKEN
_IBAN_GROUP = re.compile(r"[ \-]?([A-Za-z0-9]+)")


def iban_valid(compact: str) -> bool:
    """ISO 13616: country code and check digits moved to the end, ISO 7064 mod 97-10 (stdnum).
    Not stdnum's `iban.is_valid`, which also checks each country's own BBAN rules: an IBAN
    with a valid check that fails those is still somebody's bank details, and is withheld."""
    if not re.fullmatch(r"[A-Za-z]{2}\d{2}[A-Za-z0-9]{11,30}", compact):
        return False
    moved = compact[4:] + compact[:4]
    return bool(mod_97_10.is_valid("".join(str(int(c, 36)) for c in moved)))


def _iban_groups(text: str, m: re.Match[str]) -> list[tuple[str, int, bool]]:
    """(compact so far, end offset, whether the last group was all digits) after each group."""
    compact = m.group(1) + m.group(2)
    out: list[tuple[str, int, bool]] = []
    i = m.end()
    while len(compact) < 34:
        g = _IBAN_GROUP.match(text, i)
        if g is None:
            break
        group = g.group(1)
        if group.isalpha() and len(group) > 4:
            break  # a word, not a group of an IBAN
        compact += group
        i = g.end()
        out.append((compact, i, group.isdigit()))
    return out


def _iban_at(text: str, m: re.Match[str]) -> int | None:
    """The end of the valid IBAN starting at `m`, or None."""
    country = m.group(1)
    if country.upper() in _IBAN_LENGTHS:
        lengths = [_IBAN_LENGTHS[country.upper()]]
    elif country.isupper():
        lengths = list(range(34, 14, -1))
    else:
        return None
    groups = _iban_groups(text, m)
    for length in lengths:
        before = len(m.group(1) + m.group(2))
        for compact, end, digits_only in groups:
            # Groups end where the IBAN does, or the last one runs on in digits ("...43 21").
            if len(compact) == length or (before < length < len(compact) and digits_only):
                if iban_valid(compact[:length]):
                    return end
                break
            before = len(compact)
    return None


_IBAN_LABEL = re.compile(
    r"\b(?:iban|international\s+bank\s+account(?:\s+number)?)(?:\s+(?:number|no\.?))?" + _CONNECTOR,
    re.IGNORECASE,
)
_SORT_CODE_LABEL = re.compile(
    r"\b(?:bank\s+)?sort[\s\-]*code(?:\s+(?:number|no\.?))?" + _CONNECTOR, re.IGNORECASE
)
_ACCOUNT_LABEL = re.compile(
    r"\b(?<!customer\s)(?<!service\s)(?<!member\s)(?<!membership\s)(?<!loyalty\s)"
    r"(?<!gas\s)(?<!electricity\s)(?<!energy\s)(?<!your\s)(?<!online\s)(?<!email\s)"
    r"(?:(?:bank|current|checking|cheque|savings?|business|personal)\s+)?"
    r"(?:account|acc|acct|a/c)(?:\s*(?:number|no\.?|num|#))?" + _CONNECTOR,
    re.IGNORECASE,
)
_ROUTING_LABEL = re.compile(
    r"\b(?:(?:bank\s+|aba\s+)?routing(?:\s+transit)?|aba|rtn|bsb|transit|"
    r"bank\s+(?:code|branch\s+code))(?:\s+(?:number|no\.?|num|code|#))?" + _CONNECTOR,
    re.IGNORECASE,
)
_BANK_DIGITS = {"sort": 4, "account": 6, "routing": 6}


def _bank_spans(text: str) -> list[_Span]:
    spans: list[_Span] = []
    for m in _IBAN_START.finditer(text):
        end = _iban_at(text, m)
        if end is not None:
            spans.append(_Span(m.start(), end, "bank_account", IBAN_MARK))
    for m in _IBAN_LABEL.finditer(text):
        start = _IBAN_START.match(text, m.end())
        if start is None:
            continue
        # After the label even a mistyped IBAN goes: every group up to the last with a digit.
        ends = [end for compact, end, _ in _iban_groups(text, start) if compact[-1].isdigit()]
        if ends:
            spans.append(_Span(start.start(), ends[-1], "bank_account", IBAN_MARK))
    for label, kind in (
        (_SORT_CODE_LABEL, "sort"),
        (_ACCOUNT_LABEL, "account"),
        (_ROUTING_LABEL, "routing"),
    ):
        for m in label.finditer(text):
            run = _numeric_run_at(text, m.end())
            if run is not None and len(run.digits) >= _BANK_DIGITS[kind]:
                spans.append(_Span(run.start, run.end, "bank_account", BANK_TOKEN))
    return spans


# --- dates of birth ------------------------------------------------------------------------------

_UNIT_W = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_TEEN_W = r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
_TENS_W = r"(?:twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety)"
_ORD_UNIT = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
_DAY_W = (
    rf"(?:(?:twenty|thirty)[\s\-]?{_ORD_UNIT}|{_ORD_UNIT}|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|"
    rf"(?:twenty|thirty)[\s\-]?{_UNIT_W}|{_TEEN_W}|twenty|thirty|{_UNIT_W})"
)
_DAY = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?(?!\d)|{_DAY_W}\b)"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_TWO_DIGITS_W = rf"(?:{_TENS_W}(?:[\s\-]?{_UNIT_W})?|{_TEEN_W}|(?:oh|o)\s+{_UNIT_W})"
_YEAR_W = (
    rf"(?:(?:nineteen|twenty)\s+(?:hundred|{_TWO_DIGITS_W})|two\s+thousand(?:\s+and)?"
    rf"(?:\s+(?:{_TENS_W}(?:[\s\-]?{_UNIT_W})?|{_TEEN_W}|{_UNIT_W}))?|{_TWO_DIGITS_W})\b"
)
_YEAR = rf"(?:(?:19|20)\d\d(?!\d)|'?\d\d(?!\d)|{_YEAR_W})"
_DATE_FORMS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}(?:,?\s+(?:in\s+)?{_YEAR})?",
        rf"{_MONTH}\s+(?:the\s+)?{_DAY}(?:,?\s+{_YEAR})?",
        rf"{_MONTH},?\s+(?:of\s+)?{_YEAR}",
        r"\d{1,2}\s*[/.\-]\s*\d{1,2}\s*[/.\-]\s*(?:\d{4}|\d{2})(?!\d)",
        r"(?:19|20)\d\d\s*[/.\-]\s*\d{1,2}\s*[/.\-]\s*\d{1,2}(?!\d)",
        r"\d{1,2}\s+\d{1,2}\s+(?:\d{4}|\d{2})(?!\d)",
        r"\d{8}(?!\d)|\d{6}(?!\d)",
    )
]
_YEAR_ONLY = re.compile(
    rf"(?:19|20)\d\d(?!\d)|(?=nineteen|twenty|two\s+thousand){_YEAR_W}", re.IGNORECASE
)
_DOB_LABEL = re.compile(
    r"\b(?:date\s+of\s+birth|birth\s*date|birthday|d\.\s?o\.\s?b\b\.?|dob|born)"
    + _CONNECTOR
    + r"(?:(?:on|is|was)\s+)?",
    re.IGNORECASE,
)
_BIRTH_YEAR_LABEL = re.compile(
    r"\b(?:born\s+in|year\s+of\s+birth|birth\s+year)" + _CONNECTOR, re.IGNORECASE
)


def _date_value(text: str, pos: int) -> tuple[int, int] | None:
    """The longest date written at `pos` (after spaces), or None. After a birth-date label,
    4-8 digits typed or spoken in any grouping are a date too ("fourteen oh three sixty two")."""
    pos = _past_spaces(text, pos)
    ends = [m.end() for form in _DATE_FORMS if (m := form.match(text, pos))]
    run = _numeric_run_at(text, pos)
    if run is not None and run.start == pos and 4 <= len(run.digits) <= 8:
        ends.append(run.end)
    return (pos, max(ends)) if ends else None


def _dob_spans(text: str) -> list[_Span]:
    spans = _labelled(text, _DOB_LABEL, "date_of_birth", DOB_TOKEN, _date_value)

    def year_value(t: str, p: int) -> tuple[int, int] | None:
        found = _date_value(t, p)
        if found is not None:
            return found
        p = _past_spaces(t, p)
        m = _YEAR_ONLY.match(t, p)
        return (p, m.end()) if m else None

    spans += _labelled(text, _BIRTH_YEAR_LABEL, "date_of_birth", DOB_TOKEN, year_value)
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
    """`text` with every payment card, bank detail, government id, date of birth, password and
    access code replaced."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if len(text) > MAX_TEXT_CHARS:
        # Refuse rather than truncate: a cut could split a secret and let half of it through.
        raise ValueError(f"text longer than {MAX_TEXT_CHARS} characters")
    bank = _bank_spans(text)
    ibans = [b for b in bank if b.token == IBAN_MARK]
    bank = [dataclasses.replace(b, token=BANK_TOKEN) for b in bank]
    cards = [
        # An IBAN's digits may hold a Luhn-valid window: that run is the IBAN, not a card.
        _Span(c.start, c.end, "bank_account", BANK_TOKEN)
        if any(c.start < i.end and i.start < c.end for i in ibans)
        else c
        for c in _card_spans(text)
    ]
    found = [
        *cards,
        *_cvv_spans(text),
        *bank,
        *_government_id_spans(text),
        *_dob_spans(text),
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


# --- logs ----------------------------------------------------------------------------------------

# LogRecord's own attributes: anything else on a record is an `extra=` field a formatter may print.
_RECORD_ATTRS = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}
_REDACTED_MARK = "_secrets_redacted"


def _redact_for_log(text: str) -> str:
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS] + " [log text cut]"
    return redact_secrets(text).text


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return _redact_for_log(value)
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_redact_value(v) for v in value)
    return value


def redact_log_record(record: logging.LogRecord) -> None:
    """Redact `record` in place: its message with the arguments merged in, its exception and
    stack text, and every extra field. The message part is done once per record."""
    if not getattr(record, _REDACTED_MARK, False):
        if isinstance(record.msg, dict) and not record.args:
            record.msg = _redact_value(record.msg)  # a structured message keeps its shape
        else:
            try:
                message = record.getMessage()
            except Exception:  # a broken format string: keep what was given, redacted
                message = f"{record.msg!s} {record.args!r}"
            record.msg = _redact_for_log(message)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            # Formatters print exc_info afresh when it is set: keep only the redacted text.
            record.exc_text = _redact_for_log(record.exc_text)
            record.exc_info = None
        if record.stack_info:
            record.stack_info = _redact_for_log(record.stack_info)
        setattr(record, _REDACTED_MARK, True)
    for key, value in list(record.__dict__.items()):
        if key not in _RECORD_ATTRS and not key.startswith("_"):
            record.__dict__[key] = _redact_value(value)


class SecretRedactingFilter(logging.Filter):
    """A handler (or logger) filter that redacts every record passing it; it never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_log_record(record)
        return True


class _RedactingRecordFactory:
    """A log record factory that redacts every record the wrapped factory makes."""

    def __init__(self, inner: Callable[..., logging.LogRecord]) -> None:
        self._inner = inner

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self._inner(*args, **kwargs)
        redact_log_record(record)
        return record


def install_log_redaction() -> None:
    """Redact every log record this process makes, at every level, before any handler sees
    it: a record factory redacts each record as it is made (handlers added later, such as
    livekit's, included), and each root handler present gets `SecretRedactingFilter` (records
    made elsewhere and handed to it: another process's forwarded logs, extra fields).
    Safe to call more than once."""
    factory = logging.getLogRecordFactory()
    if not isinstance(factory, _RedactingRecordFactory):
        logging.setLogRecordFactory(_RedactingRecordFactory(factory))
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, SecretRedactingFilter) for f in handler.filters):
            handler.addFilter(SecretRedactingFilter())
