"""The reply classifier: corpus targets, per-category spot checks, and properties."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.reply_classifier import KINDS, load_corpus, score
from tools import replies
from tools.replies import ReplyReading, classify_reply

THU = date(2026, 12, 10)  # "a service visit on Thursday 10 December?"
CORPUS = load_corpus()
YES_ROWS = [r for r in CORPUS if r.kind == "yes"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def kind(text: str, offered: date | None = THU, today: date | None = None) -> str:
    return classify_reply(text, offered=offered, today=today).kind


# --- corpus -------------------------------------------------------------------------------------


def test_corpus_is_big_and_covers_every_kind() -> None:
    assert len(CORPUS) >= 180
    per_kind = {k: sum(r.kind == k for r in CORPUS) for k in KINDS}
    assert min(per_kind.values()) >= 30, per_kind
    assert len({(r.text, r.offered) for r in CORPUS}) == len(CORPUS), "duplicate rows"


def test_corpus_gives_no_false_yes() -> None:
    result = score(CORPUS)
    assert [(r.line, r.text, reading.reason) for r, reading in result.false_yes] == []


def test_corpus_yes_recall_at_least_95_percent() -> None:
    result = score(CORPUS)
    missed = [(r.text, reading.reason) for r, reading in result.errors if r.kind == "yes"]
    assert result.yes_recall >= 0.95, missed


def test_corpus_new_requests_name_the_labelled_day() -> None:
    rows = [r for r in CORPUS if r.kind == "new_request"]
    readings = [(r, classify_reply(r.text, offered=r.offered)) for r in rows]
    wrong = [(r.text, x) for r, x in readings if (x.kind, x.day) != ("new_request", r.day)]
    assert len(wrong) <= len(rows) * 0.05, wrong


def test_corpus_overall_agreement() -> None:
    result = score(CORPUS)
    assert result.accuracy >= 0.95, [(r.text, x.kind, x.reason) for r, x in result.errors]


def test_corpus_loader_rejects_malformed_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.tsv"
    bad.write_text("text\toffered\texpected\tday\nyes\t2026-12-10\tmaybe\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown kind"):
        load_corpus(bad)
    bad.write_text("text\toffered\texpected\tday\nyes friday\t2026-12-10\tnew_request\t\n")
    with pytest.raises(ValueError, match="exactly for new_request"):
        load_corpus(bad)
    bad.write_text("text\toffered\texpected\tday\nyes\tthursday\tyes\t\n")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        load_corpus(bad)


# --- spot checks by category ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "uh huh",
        "mm-hmm",
        "absolutely",
        "no problem",
        "fine",
        "go for it",
        "yes please",
        "yeah that's fine",
        "sounds good",
        "please do",
        "book it",
        "that works",
        "um yeah",
        "uh yes",
        "yes yes",
        "yeah thats fine",  # ASR: no apostrophe, no punctuation
        "YES THAT'S FINE",
        "yes thursday is great",
        "yes the 10th",
        "yes 10 december",
        "yes december the 10th 2026",
        "yes 2026-12-10",
        "thursday\u2019s fine",  # curly apostrophe
    ],
)
def test_real_yeses(text: str) -> None:
    assert kind(text) == "yes", classify_reply(text, offered=THU)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("yes, friday", "friday"),
        ("perfect, can we make it friday instead", "friday"),
        ("actually the 11th", "2026-12-11"),
        ("yes the 12th", "2026-12-12"),
        ("december 11", "2026-12-11"),
        ("11 december", "2026-12-11"),
        ("the eleventh of december", "2026-12-11"),
        ("yes 2026-12-11", "2026-12-11"),
        ("no, friday", "friday"),
        ("not thursday, friday", "friday"),
        ("friday not thursday", "friday"),
        ("thursday doesn't work but friday does", "friday"),
        ("tomorrow instead", "tomorrow"),
        ("today if you can", "today"),
        ("s\u00ed, el viernes", "friday"),
        ("oui vendredi", "friday"),
        ("ja, Freitag", "friday"),
        ("no worries, friday then", "friday"),  # "no worries" does not negate friday
        ("not a problem, saturday works", "saturday"),
    ],
)
def test_new_requests(text: str, day: str) -> None:
    assert classify_reply(text, offered=THU) == ReplyReading(
        "new_request", day, classify_reply(text, offered=THU).reason
    )


@pytest.mark.parametrize(
    "text",
    [
        "no",
        "nope",
        "not thursday",
        "don't",
        "actually no",
        "that won't work",
        "absolutely not",
        "of course not",
        "i don't think so",
        "uh-uh",
        "thursday's no good",
        "not the 10th",
        "nein",
        "non merci",
        "i can't do thursday or friday",  # both days negated: no new request
        "i'm not free thursday",
        "yeah no, not thursday",  # a yes word, but the offered day is refused
        "okay, not thursday though",
    ],
)
def test_refusals(text: str) -> None:
    assert kind(text) == "no", classify_reply(text, offered=THU)


@pytest.mark.parametrize(
    "text",
    [
        "right?",
        "ok hold on",
        "sure, let me check my calendar first",
        "is that in the morning?",
        "is that in the morning",  # ASR dropped the "?"
        "i guess maybe",
        "yes but what time",
        "yes wait",  # barge-in
        "yes i-",  # cut off
        "yes and",
        "yes still at elm road",  # a yes to a different question
        "yes that's me",
        "yes i do",
        "yes in the morning please",
        "i'm good",
        "yeah no",
        "thursday",  # repeats the day, agrees to nothing
        "thank you",
        "",
        "   ...  ",
        "wait a second",  # "second" is not the 2nd
    ],
)
def test_not_a_clean_answer(text: str) -> None:
    assert kind(text) == "other", classify_reply(text, offered=THU)


# --- day resolution ------------------------------------------------------------------------------


def test_today_and_tomorrow_resolve_only_with_today() -> None:
    # Offered tomorrow: "tomorrow" is that day when we know today, else a request to check.
    assert kind("yes tomorrow", offered=THU, today=date(2026, 12, 9)) == "yes"
    assert classify_reply("yes tomorrow", offered=THU).day == "tomorrow"
    assert kind("yes today", offered=THU, today=THU) == "yes"
    assert classify_reply("yes today", offered=THU, today=date(2026, 12, 9)).day == "today"
    after = classify_reply("the day after tomorrow", offered=THU, today=date(2026, 12, 3))
    assert after == ReplyReading("new_request", "2026-12-05", after.reason)
    assert kind("the day after tomorrow", offered=THU) == "other"  # unresolvable


def test_dates_resolve_to_the_nearest_and_never_the_past() -> None:
    day = classify_reply("january 5th", offered=THU).day
    assert day == "2027-01-05"  # next January, not last
    assert classify_reply("the 8th", offered=THU).day == "2026-12-08"
    assert classify_reply("the 3rd", offered=THU, today=date(2026, 12, 5)).day == "2027-01-03"
    assert classify_reply("the 31st", offered=date(2026, 11, 10)).day == "2026-10-31"
    offered_jan = date(2027, 1, 5)
    assert kind("yes the fifth", offered=offered_jan) == "yes"
    assert kind("yes 5 january 2027", offered=offered_jan) == "yes"
    assert classify_reply("yes 5 january 2028", offered=offered_jan).day == "2028-01-05"


def test_impossible_dates_are_not_yes() -> None:
    assert kind("yes 2026-02-30") == "other"
    assert kind("yes february 30") == "other"
    assert kind("yes the 10th", offered=None) == "other"  # no month to resolve it in


def test_without_an_offer_any_named_day_is_a_request() -> None:
    assert kind("yes", offered=None) == "yes"
    assert classify_reply("yes thursday", offered=None).day == "thursday"


def test_bad_input() -> None:
    with pytest.raises(TypeError):
        classify_reply(None)  # type: ignore[arg-type]
    assert kind("yes " * 400) == "yes"
    # Far longer than any answer: not read at all, rather than cut before a "friday".
    assert kind("yes " * 600 + "friday") == "other"


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(row=st.sampled_from(YES_ROWS), weekday=st.sampled_from(WEEKDAYS), front=st.booleans())
def test_a_different_weekday_never_leaves_a_yes(row, weekday: str, front: bool) -> None:  # type: ignore[no-untyped-def]
    assume(WEEKDAYS.index(weekday) != row.offered.weekday())
    text = f"{weekday}, {row.text}" if front else f"{row.text}, {weekday}"
    assert classify_reply(text, offered=row.offered) == ReplyReading(
        "new_request", weekday, classify_reply(text, offered=row.offered).reason
    )


@settings(max_examples=400, deadline=None)
@given(row=st.sampled_from(CORPUS), neg=st.sampled_from(["not", "no"]), data=st.data())
def test_adding_not_or_no_never_makes_a_yes(row, neg: str, data) -> None:  # type: ignore[no-untyped-def]
    words = row.text.split()
    at = data.draw(st.integers(min_value=0, max_value=len(words)))
    text = " ".join([*words[:at], neg, *words[at:]])
    assert kind(text, offered=row.offered) != "yes", text


_VOCAB = {w for key in replies._LEXICON for w in key} | {*replies._WEEKDAYS, *replies._MONTHS}


@settings(max_examples=300, deadline=None)
@given(row=st.sampled_from(YES_ROWS), word=st.from_regex(r"[a-z]{3,9}", fullmatch=True))
def test_unrelated_content_after_a_yes_is_not_a_yes(row, word: str) -> None:  # type: ignore[no-untyped-def]
    # "yes still at elm road": a yes followed by something the vocabulary doesn't know.
    tokens = replies._tokens(replies._normalize(word))  # "uuh" normalises to the filler "uh"
    assume(not any(t in _VOCAB for t in tokens))
    assume(not replies._day_number(tokens, 0, ordinal_only=False))
    assert kind(f"{row.text} {word}", offered=row.offered) != "yes"


@settings(max_examples=200, deadline=None)
@given(row=st.sampled_from(YES_ROWS), upper=st.booleans())
def test_asr_style_yes_stays_yes(row, upper: bool) -> None:  # type: ignore[no-untyped-def]
    asr = re.sub(r"[,.!]", "", row.text).lower()
    assert kind(asr.upper() if upper else asr, offered=row.offered) == "yes"


@settings(max_examples=200, deadline=None)
@given(row=st.sampled_from(YES_ROWS))
def test_a_yes_turned_question_is_not_a_yes(row) -> None:  # type: ignore[no-untyped-def]
    assert kind(row.text + "?", offered=row.offered) == "other"


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200), offered=st.none() | st.dates(), today=st.none() | st.dates())
def test_any_text_gives_a_well_formed_reading(text: str, offered, today) -> None:  # type: ignore[no-untyped-def]
    reading = classify_reply(text, offered=offered, today=today)
    assert reading.kind in KINDS
    assert (reading.day is not None) == (reading.kind == "new_request")
    assert reading.reason


def test_a_negation_inserted_anywhere_in_any_corpus_reply_is_never_a_yes() -> None:
    # The exhaustive form of the property above: every reply, every position, four negators.
    hits = []
    for row in CORPUS:
        words = row.text.split()
        for neg in ("not", "no", "never", "don't"):
            for at in range(len(words) + 1):
                text = " ".join([*words[:at], neg, *words[at:]])
                if kind(text, offered=row.offered) == "yes":
                    hits.append(text)
    assert hits == []


def test_a_different_weekday_inserted_anywhere_in_a_yes_is_never_a_yes() -> None:
    hits = []
    for row in YES_ROWS:
        words = row.text.split()
        for weekday in WEEKDAYS:
            if WEEKDAYS.index(weekday) == row.offered.weekday():
                continue
            for at in range(len(words) + 1):
                text = " ".join([*words[:at], weekday, *words[at:]])
                if kind(text, offered=row.offered) == "yes":
                    hits.append(text)
    assert hits == []
