"""Secrets at rest: what `redact_secrets` withholds, what it leaves alone, and the scan helper."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memory.secrets import (
    ACCESS_CODE_TOKEN,
    CARD_TOKEN,
    ID_TOKEN,
    PASSWORD_TOKEN,
    contains_secret,
    luhn_valid,
    redact_secrets,
)
from tests.secret_scan import find_planted

SPOKEN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def digits_of(text: str) -> str:
    return re.sub(r"\D", "", text)


def spoken(digits: str) -> str:
    return " ".join(SPOKEN[int(d)] for d in digits)


def with_check_digit(body: str) -> str:
    for d in "0123456789":
        if luhn_valid(body + d):
            return body + d
    raise AssertionError("unreachable: one check digit always fits")


# --- payment cards -------------------------------------------------------------------------------

CARDS = [
    "4111111111111111",  # Visa
    "4012888888881881",
    "4222222222222",  # 13-digit Visa
    "5555555555554444",  # Mastercard
    "2223003122003222",  # Mastercard 2-series
    "378282246310005",  # Amex, 15
    "30569309025904",  # Diners, 14
    "6011111111111117",  # Discover
    "3530111333300000",  # JCB
    with_check_digit("620000000000000000"),  # 19 digits
]


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize(
    "template",
    [
        "my card number is {plain}",
        "it's {spaced} expiry 12/27",
        "at 10.30. {dotted}",
        "card: {dashed}.",
        "{plain}",
        "the long number on the front is {spaced} and that's a visa",
        "ok so it's {spoken} thanks",
        "um {spoken_commas}",
    ],
)
def test_cards_are_withheld(card: str, template: str) -> None:
    spaced = " ".join(card[i : i + 4] for i in range(0, len(card), 4))
    text = template.format(
        plain=card,
        spaced=spaced,
        dashed=spaced.replace(" ", "-"),
        dotted=spaced.replace(" ", "."),
        spoken=spoken(card),
        spoken_commas=", ".join(spoken(card[i : i + 4]) for i in range(0, len(card), 4)),
    )
    red = redact_secrets(text)
    assert card not in digits_of(red.text)
    assert spoken(card) not in red.text
    assert CARD_TOKEN in red.text
    assert red.kinds == ("payment_card",)


@pytest.mark.parametrize(
    "text",
    [
        "forty one eleven eleven eleven eleven eleven eleven eleven",  # read in pairs
        "four one double one, one one one one, triple one one, one one one one",
        "three seven eight two, eight two two four six, three one double oh oh five",
        "FOUR ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE ONE",
    ],
)
def test_spoken_card_variants(text: str) -> None:
    red = redact_secrets(text)
    assert red.kinds == ("payment_card",)
    assert red.text == CARD_TOKEN


def test_card_with_cvv_loses_both() -> None:
    red = redact_secrets("4111 1111 1111 1111, cvv 123, security code on the back is 456")
    assert "123" not in red.text and "456" not in red.text and "4111" not in red.text
    assert red.kinds == ("payment_card",)


def test_a_luhn_invalid_run_is_not_a_card() -> None:
    assert not luhn_valid("4111111111111112")
    assert redact_secrets("serial 4111 1111 1111 1112").kinds == ()


# --- government ids ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("my social security number is 123-45-6789", "123456789"),
        ("SSN: 123 45 6789", "123456789"),
        ("ssn is 123456789", "123456789"),
        ("it's 219-09-9999 on my card", "219099999"),
        ("my social is one two three four five six seven eight nine", "one two three four"),
        ("social security number one two three, four five, six seven eight nine", "seven eight"),
        ("national insurance number QQ 12 34 56 C", "12 34 56"),
        ("my NI number is qq123456c", "123456"),
        ("National Insurance: AB 12 34 56 D thanks", "12 34 56"),
        ("it's JG103759A", "103759"),
        ("passport number 123456789", "123456789"),
        ("my passport number is A1234567", "1234567"),
        ("passport no. 502135326, expires next year", "502135326"),
        ("my driving licence number is MORGA753116SM9IJ", "753116"),
        ("nhs number 943 476 5919", "943 476 5919"),
        ("tax id is 12-3456789", "3456789"),
        ("my social is one two three dash four five dash six seven eight nine", "six seven"),
        ("passport 123456789", "123456789"),
        ("my ni number is q q one two three four five six c thanks", "q q one two"),
    ],
)
def test_government_ids_are_withheld(text: str, secret: str) -> None:
    red = redact_secrets(text)
    assert secret.lower() not in red.text.lower()
    assert ID_TOKEN in red.text
    assert "government_id" in red.kinds


def test_an_id_value_ends_where_the_id_does() -> None:
    assert redact_secrets("passport number is A1234567 ok thanks").text == (
        f"passport number is {ID_TOKEN} ok thanks"
    )
    red = redact_secrets("my ni number is q q one two three four five six c thanks")
    assert red.text == f"my ni number is {ID_TOKEN} thanks"


def test_invalid_ssn_shapes_are_left_alone() -> None:
    for text in ["000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000"]:
        assert redact_secrets(text).kinds == (), text
    # Prefixes HMRC never issues are not National Insurance numbers.
    for text in ["GB 12 34 56 A", "BG123456B", "zz 12 34 56 c", "NT123456D"]:
        assert redact_secrets(text).kinds == (), text


# --- passwords and PINs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("my password is hunter2", "hunter2"),
        ("the password's Tr0ub4dor&3 ok", "Tr0ub4dor&3"),
        ("password: correct horse battery staple", "battery staple"),
        ("Password = s3cr3t!", "s3cr3t"),
        ("my passcode is 9911", "9911"),
        ("the pass code is four four one two", "four four one two"),
        ("the pin is 4821", "4821"),
        ("my PIN number is 0000", "0000"),
        ("pin 4821", "4821"),
        ("my pin's seven seven three one", "seven seven three one"),
        ("memorable word is rosebud", "rosebud"),
        ("the password would be bluebell99, all lower case", "bluebell99"),
        ("password hunter2", "hunter2"),
        ("the password for the wifi is bluebird7", "bluebird7"),
        ("the pin for my card is 1234", "1234"),
    ],
)
def test_passwords_are_withheld(text: str, secret: str) -> None:
    red = redact_secrets(text)
    assert secret.lower() not in red.text.lower()
    assert PASSWORD_TOKEN in red.text
    assert red.kinds == ("password",)


def test_password_value_stops_at_the_clause() -> None:
    red = redact_secrets("my password is hunter2 and the boiler is an ecoTEC 825")
    assert red.text == f"my password is {PASSWORD_TOKEN} and the boiler is an ecoTEC 825"


# --- access codes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the door code is 4821", "4821"),
        ("gate code 1234", "1234"),
        ("Gate code: 1234#", "1234"),
        ("key safe code is 7 7 3 1", "7 7 3 1"),
        ("the keysafe is 5 5 0 9", "5 5 0 9"),
        ("the key safe code, it's four eight two one", "four eight two one"),
        ("alarm code is 0 2 9 1 then press enter", "0 2 9 1"),
        ("lockbox 9876", "9876"),
        ("the lock box combination is 12 34", "12 34"),
        ("the code for the gate is 1234", "1234"),
        ("the code to get in is star 4821 hash", "4821"),
        ("4821 is the door code", "4821"),
        ("side gate code's double two three four", "double two three four"),
        ("the entry code is C4821", "4821"),
        ("building access code is 55019", "55019"),
        ("the padlock combination is 3 1 4", "3 1 4"),
        ("back door code is oh four one nine", "oh four one nine"),
        ("the code is 2580", "2580"),
        ("the gate's code is 1234", "1234"),
        ("the gate code number is 1234", "1234"),
        ("alarm 1 2 3 4", "1 2 3 4"),
    ],
)
def test_access_codes_are_kept_only_as_on_file(text: str, secret: str) -> None:
    red = redact_secrets(text)
    assert secret.lower() not in red.text.lower()
    assert ACCESS_CODE_TOKEN in red.text
    assert red.kinds == ("access_code",)


def test_overlapping_finds_are_withheld_as_one() -> None:
    # The password's six words end inside the card; the card run goes on past them.
    red = redact_secrets("password: a b c d e 4111 1111 1111 1111")
    assert "1111" not in red.text and "4111" not in red.text
    assert red.kinds == ("payment_card",)


def test_kinds_are_listed_once_each_in_a_fixed_order() -> None:
    red = redact_secrets(
        "gate code 1234, pin 9999, ssn 123-45-6789, card 4111 1111 1111 1111, gate code 5555"
    )
    assert red.kinds == ("payment_card", "government_id", "password", "access_code")
    assert not re.search(r"1234|9999|6789|4111|5555", red.text)


# --- ordinary content stays --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Can you come on 2026-12-10 at 10:30?",
        "a quarter past ten on the 11th, or 10.30 on Friday",
        "Booking reference BK-1234; the old one was BK-5678-2231",
        "Call me on 07700 900123 or 020 7946 0958",
        "my mobile is +44 7700 900123",
        "US number +1 (555) 010-0199",
        "call me on +86 138 0013 8000",
        "or +86 138 0013 0009",  # 13 Luhn-valid digits, but written as an international phone
        "reading 0000 0000 0000 0000 on the meter",  # Luhn-valid, but 0 starts no card
        "I live at 12 Elm Road, flat 3, SW1A 1AA",
        "It's a Vaillant ecoTEC 825 and an ecoTEC plus 838",
        "We've got three boilers and 2 radiators",
        "the boiler shows error code F28",
        "fault code is 1234 on the display",
        "my postcode is SW1A 1AA and the zip code is 90210",
        "door number is 12",
        "the key safe is by the back door",
        "the gate code is the same as last time",
        "my password expired last week",
        "password reset please",
        "the alarm is on a timer, set for 7",
        "it's 10.30 on the 11th.",
        "I forgot my PIN",
        "pin the note on the fridge",
        "my passport is in the drawer",
        "serial number 2241-0039-88",
        "order 20261210 confirmed",
        "van registration AB12 CDE",
        "invoice total 1,234.56",
        "one two three, can you hear me",
        "the dress code is smart casual",
        "press 1 then 2 for the engineer",
        "oh no, oh well",
        "my account number is 12345678",
    ],
)
def test_ordinary_content_is_not_redacted(text: str) -> None:
    red = redact_secrets(text)
    assert red == type(red)(text, ())
    assert not contains_secret(text)


def test_the_reply_corpus_holds_no_secrets() -> None:
    # 436 ordinary caller replies (days, dates, fillers, addresses): none may be touched.
    from bench.reply_classifier import load_corpus

    touched = [r.text for r in load_corpus() if redact_secrets(r.text).kinds]
    assert touched == []


def test_a_realistic_call_note_keeps_its_content_and_loses_its_secrets() -> None:
    note = (
        "Sam at 12 Elm Road (SW1A 1AA), ecoTEC 825 showing fault code F28 since 2026-12-01. "
        "Visit Thursday 10 December at 10:30, booking BK-1234, call 07700 900123. "
        "Key safe code is 4 8 2 1, dog in the garden. Paid by card 5555 5555 5555 4444."
    )
    red = redact_secrets(note)
    assert red.kinds == ("payment_card", "access_code")
    for kept in [
        "12 Elm Road",
        "SW1A 1AA",
        "ecoTEC 825",
        "F28",
        "2026-12-01",
        "10:30",
        "BK-1234",
        "07700 900123",
        "dog in the garden",
    ]:
        assert kept in red.text
    assert "4 8 2 1" not in red.text and "4444" not in red.text


def test_bad_input() -> None:
    with pytest.raises(TypeError):
        redact_secrets(b"4111111111111111")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="longer than"):
        redact_secrets("x" * 100_001)
    assert redact_secrets("") == type(redact_secrets(""))("", ())


# --- properties ----------------------------------------------------------------------------------

_NOISE = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:!?-()'#/"),
    max_size=60,
)


@st.composite
def luhn_cards(draw: st.DrawFn) -> str:
    length = draw(st.integers(min_value=13, max_value=19))
    first = draw(st.sampled_from("123456789"))
    body = draw(st.text(alphabet="0123456789", min_size=length - 2, max_size=length - 2))
    return with_check_digit(first + body)


def render(card: str, style: str) -> str:
    groups = [card[i : i + 4] for i in range(0, len(card), 4)]
    return {
        "plain": card,
        "spaced": " ".join(groups),
        "dashed": "-".join(groups),
        "spoken": spoken(card),
    }[style]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    card=luhn_cards(),
    style=st.sampled_from(["plain", "spaced", "dashed", "spoken"]),
    before=_NOISE,
    after=_NOISE,
)
def test_a_luhn_valid_card_anywhere_in_text_never_survives(
    card: str, style: str, before: str, after: str
) -> None:
    text = f"{before} {render(card, style)} {after}"
    red = redact_secrets(text)
    assert card not in digits_of(red.text)
    if style == "spoken":
        assert spoken(card) not in red.text
    assert "payment_card" in red.kinds


@settings(max_examples=200, deadline=None)
@given(
    code=st.text(alphabet="0123456789", min_size=3, max_size=8),
    label=st.sampled_from(
        [
            "door code is",
            "the gate code's",
            "key safe code:",
            "alarm code",
            "lockbox",
            "the code for the side gate is",
            "the entry code is",
        ]
    ),
    style=st.sampled_from(["plain", "spoken"]),
    tail=_NOISE,
)
def test_a_labelled_access_code_never_survives(
    code: str, label: str, style: str, tail: str
) -> None:
    value = code if style == "plain" else spoken(code)
    red = redact_secrets(f"{label} {value}. {tail}")
    assert value not in red.text.split(".")[0]
    assert red.text.startswith(f"{label} {ACCESS_CODE_TOKEN}")
    assert "access_code" in red.kinds


@settings(max_examples=200, deadline=None)
@given(
    password=st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789!@$%&*_"),
        min_size=6,
        max_size=16,
    ),
    lead=st.sampled_from(["my password is", "password:", "the passcode is", "Password ="]),
)
def test_a_stated_password_never_survives(password: str, lead: str) -> None:
    assume(password.lower() not in f"{lead} {PASSWORD_TOKEN} thanks".lower())
    red = redact_secrets(f"{lead} {password} thanks")
    assert password not in red.text
    assert red.kinds == ("password",)


@settings(max_examples=200, deadline=None)
@given(
    area=st.integers(min_value=1, max_value=899).filter(lambda a: a != 666),
    group=st.integers(min_value=1, max_value=99),
    serial=st.integers(min_value=1, max_value=9999),
    sep=st.sampled_from(["-", " "]),
    before=_NOISE,
)
def test_a_formatted_ssn_never_survives(
    area: int, group: int, serial: int, sep: str, before: str
) -> None:
    ssn = f"{area:03d}{sep}{group:02d}{sep}{serial:04d}"
    red = redact_secrets(f"{before} {ssn} ok")
    assert ssn not in red.text


# --- the at-rest scan helper --------------------------------------------------------------------

SECRET = "4111 1111 1111 1111"


def make_db(path: Path, *, wal: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY, content TEXT, pii_annotations TEXT)"
    )
    conn.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, payload BLOB)")
    conn.execute("INSERT INTO memories (content, pii_annotations) VALUES ('boiler noise', '[]')")
    conn.commit()
    return conn


def test_scan_finds_a_secret_in_an_annotation_column_and_a_log(tmp_path: Path) -> None:
    db = tmp_path / "engine" / "memory.sqlite3"
    db.parent.mkdir()
    conn = make_db(db)
    annotation = json.dumps([{"kind": "card", "value": SECRET}])
    conn.execute(
        "INSERT INTO memories (content, pii_annotations) VALUES (?, ?)",
        (f"card {CARD_TOKEN}", annotation),
    )
    conn.commit()
    conn.close()
    log = tmp_path / "logs" / "worker.log"
    log.parent.mkdir()
    log.write_text(f"INFO caller said my card is {SECRET}\n", encoding="utf-8")

    hits = find_planted(SECRET, [tmp_path])
    assert any("column pii_annotations" in h for h in hits), hits
    assert any(str(log) in h and "raw bytes" in h for h in hits), hits


def test_scan_reads_blobs_json_escapes_and_bare_digits(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    conn = make_db(db)
    conn.execute("INSERT INTO blobs (payload) VALUES (?)", (SECRET.encode("utf-16-le"),))
    # JSON text with every character escaped, as some writers store non-ASCII-safe payloads.
    escaped = '{"v": "' + "".join(f"\\u{ord(c):04x}" for c in "4111111111111111") + '"}'
    assert json.loads(escaped) == {"v": "4111111111111111"}
    conn.execute("INSERT INTO memories (content, pii_annotations) VALUES ('x', ?)", (escaped,))
    conn.commit()
    conn.close()
    hits = find_planted(SECRET, [tmp_path])
    assert any("table blobs column payload" in h for h in hits), hits
    assert any("column pii_annotations" in h for h in hits), hits


def test_scan_sees_rows_still_in_the_wal(tmp_path: Path) -> None:
    db = tmp_path / "wal.sqlite3"
    conn = make_db(db, wal=True)
    conn.execute("INSERT INTO memories (content, pii_annotations) VALUES (?, '[]')", ("hunter2",))
    conn.commit()  # left in memory.sqlite3-wal: the connection stays open, no checkpoint
    try:
        assert (tmp_path / "wal.sqlite3-wal").stat().st_size > 0
        hits = find_planted("hunter2", [tmp_path])
        assert any("wal.sqlite3-wal: raw bytes" in h for h in hits), hits
        assert any("table memories column content" in h for h in hits), hits
    finally:
        conn.close()


def test_scan_sees_deleted_rows_in_raw_pages(tmp_path: Path) -> None:
    db = tmp_path / "deleted.sqlite3"
    conn = make_db(db)
    conn.execute("PRAGMA secure_delete=OFF")
    conn.execute("INSERT INTO memories (content, pii_annotations) VALUES ('door code 4821xyz', '')")
    conn.commit()
    conn.execute("DELETE FROM memories WHERE content LIKE 'door%'")
    conn.commit()
    conn.close()
    hits = find_planted("door code 4821xyz", [tmp_path])
    assert hits and all("raw bytes" in h for h in hits), hits


def test_scan_of_a_clean_tree_finds_nothing(tmp_path: Path) -> None:
    conn = make_db(tmp_path / "clean.sqlite3")
    conn.execute(
        "INSERT INTO memories (content, pii_annotations) VALUES (?, '[]')",
        (redact_secrets(f"my card is {SECRET}").text,),
    )
    conn.commit()
    conn.close()
    (tmp_path / "app.log").write_text("INFO gate code on file\n", encoding="utf-8")
    assert find_planted(SECRET, [tmp_path]) == []
    assert find_planted("hunter2", [tmp_path]) == []


def test_scan_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        find_planted(SECRET, [tmp_path / "missing"])
    with pytest.raises(ValueError):
        find_planted("", [tmp_path])
    (tmp_path / "broken.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(RuntimeError, match="cannot read SQLite"):
        find_planted(SECRET, [tmp_path])


def test_bounded_redaction_takes_any_length_and_never_keeps_half_a_secret():
    from memory.secrets import redact_bounded

    card = "4111 1111 1111 1111"
    for offset in range(0, 60, 3):
        text = "x" * (500 - offset) + " " + card + " " + "y " * 200_000
        kept = redact_bounded(text, 500)
        assert len(kept) <= 500
        # Redacted whole before the cut: not even the first digits of the card are kept.
        assert not any(ch.isdigit() for ch in kept), kept[-40:]
