"""The reply classifier: corpus targets, per-category spot checks, and properties."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.reply_classifier import KINDS, load_corpus, score
from contextdb_livekit.kit import day_mentions, replies
from testkit.visit_replies import ActionWords, ReplyReading, classify_reply
from tools.booking import BOOKING_WORDS
from tools.cancellation import CANCELLING_WORDS
from tools.visit_day import VISIT_DAY

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
    wrong = [(r.text, x) for r, x in readings if (x.kind, x.target) != ("new_request", r.day)]
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
    assert classify_reply("yes tomorrow", offered=THU).target == "tomorrow"
    assert kind("yes today", offered=THU, today=THU) == "yes"
    assert classify_reply("yes today", offered=THU, today=date(2026, 12, 9)).target == "today"
    after = classify_reply("the day after tomorrow", offered=THU, today=date(2026, 12, 3))
    assert after == ReplyReading("new_request", "2026-12-05", after.reason)
    assert kind("the day after tomorrow", offered=THU) == "other"  # unresolvable


def test_dates_resolve_to_the_nearest_and_never_the_past() -> None:
    day = classify_reply("january 5th", offered=THU).target
    assert day == "2027-01-05"  # next January, not last
    assert classify_reply("the 8th", offered=THU).target == "2026-12-08"
    assert classify_reply("the 3rd", offered=THU, today=date(2026, 12, 5)).target == "2027-01-03"
    assert classify_reply("the 31st", offered=date(2026, 11, 10)).target == "2026-10-31"
    offered_jan = date(2027, 1, 5)
    assert kind("yes the fifth", offered=offered_jan) == "yes"
    assert kind("yes 5 january 2027", offered=offered_jan) == "yes"
    assert classify_reply("yes 5 january 2028", offered=offered_jan).target == "2028-01-05"


def test_impossible_dates_are_not_yes() -> None:
    assert kind("yes 2026-02-30") == "other"
    assert kind("yes february 30") == "other"
    assert kind("yes the 10th", offered=None) == "other"  # no month to resolve it in


def test_without_an_offer_any_named_day_is_a_request() -> None:
    assert kind("yes", offered=None) == "yes"
    assert classify_reply("yes thursday", offered=None).target == "thursday"


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


_VOCAB = {w for key in replies._LEXICON for w in key} | {
    *day_mentions._WEEKDAYS,
    *day_mentions._MONTHS,
}


@settings(max_examples=300, deadline=None)
@given(row=st.sampled_from(YES_ROWS), word=st.from_regex(r"[a-z]{3,9}", fullmatch=True))
def test_unrelated_content_after_a_yes_is_not_a_yes(row, word: str) -> None:  # type: ignore[no-untyped-def]
    # "yes still at elm road": a yes followed by something the vocabulary doesn't know.
    # "uuh" normalises to the filler "uh"
    tokens = replies._tokens(replies._normalize(word, VISIT_DAY))
    assume(not any(t in _VOCAB for t in tokens))
    assume(not day_mentions._day_number(tokens, 0, ordinal_only=False))
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
    assert (reading.target is not None) == (reading.kind == "new_request")
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


# --- per action: the read-back's own words (ActionWords) ----------------------------------------
#
# tests/tools/reply_corpus_actions.tsv: action (book|cancel), label, day (new_request only),
# reply. Every row answers "Just to confirm: shall I book a service visit on Thursday 10
# December?" or "... shall I cancel the service visit on Thursday 10 December?". Same labelling
# policy as reply_corpus.tsv; all sentences are the project's own (a tuning set).

ACTION_CORPUS = Path(__file__).with_name("reply_corpus_actions.tsv")
ACTIONS = {"book": BOOKING_WORDS, "cancel": CANCELLING_WORDS}
OTHER_ACTION = {"book": "cancel", "cancel": "book"}


@dataclass(frozen=True)
class ActionReply:
    line: int
    action: str
    kind: str
    day: str | None
    text: str


def load_action_corpus(path: Path = ACTION_CORPUS) -> list[ActionReply]:
    rows: list[ActionReply] = []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        if reader.fieldnames != ["action", "label", "day", "reply"]:
            raise ValueError(f"{path}: header must be action, label, day, reply")
        for n, row in enumerate(reader, start=2):
            day = row["day"] or None
            if row["action"] not in ACTIONS:
                raise ValueError(f"{path}:{n}: unknown action {row['action']!r}")
            if row["label"] not in KINDS:
                raise ValueError(f"{path}:{n}: unknown kind {row['label']!r}")
            if (row["label"] == "new_request") != (day is not None):
                raise ValueError(f"{path}:{n}: a day is given exactly for new_request rows")
            if not (row["reply"] or "").strip():
                raise ValueError(f"{path}:{n}: empty reply")
            rows.append(ActionReply(n, row["action"], row["label"], day, row["reply"]))
    return rows


ACTION_ROWS = load_action_corpus()
ACTION_YES_ROWS = [r for r in ACTION_ROWS if r.kind == "yes"]


def read(text: str, action: str, offered: date | None = THU) -> ReplyReading:
    return classify_reply(text, offered=offered, action=ACTIONS[action])


def cell(row: ActionReply) -> str:
    """What the reader said, where a new_request naming the wrong day counts as 'other'."""
    reading = read(row.text, row.action)
    if reading.kind == "new_request" and row.kind == "new_request" and reading.target != row.day:
        return "other"
    return reading.kind


# The labelled yeses the reader reads as yes: what the properties below start from.
ACTION_READ_YES = [r for r in ACTION_YES_ROWS if cell(r) == "yes"]


def test_action_corpus_has_80_rows_per_action_and_every_kind() -> None:
    for action in ACTIONS:
        rows = [r for r in ACTION_ROWS if r.action == action]
        assert len(rows) >= 80, action
        per_kind = {k: sum(r.kind == k for r in rows) for k in KINDS}
        assert min(per_kind.values()) >= 8, (action, per_kind)
    assert len({(r.action, r.text) for r in ACTION_ROWS}) == len(ACTION_ROWS), "duplicate rows"


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_action_corpus_gives_no_false_yes(action: str) -> None:
    rows = [r for r in ACTION_ROWS if r.action == action and r.kind != "yes"]
    false_yes = [(r.line, r.text, read(r.text, action).reason) for r in rows if cell(r) == "yes"]
    assert false_yes == []


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_action_corpus_yes_recall_at_least_95_percent(action: str) -> None:
    rows = [r for r in ACTION_YES_ROWS if r.action == action]
    missed = [(r.text, read(r.text, action).reason) for r in rows if cell(r) != "yes"]
    assert len(missed) <= len(rows) * 0.05, missed


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_action_corpus_overall_agreement(action: str) -> None:
    rows = [r for r in ACTION_ROWS if r.action == action]
    wrong = [(r.text, r.kind, read(r.text, action)) for r in rows if cell(r) != r.kind]
    assert len(wrong) <= len(rows) * 0.07, wrong


def test_action_corpus_new_requests_name_the_labelled_day() -> None:
    rows = [r for r in ACTION_ROWS if r.kind == "new_request"]
    wrong = [(r.text, read(r.text, r.action)) for r in rows if cell(r) != "new_request"]
    assert wrong == []


def test_action_corpus_loader_rejects_malformed_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.tsv"
    bad.write_text("action\tlabel\tday\treply\nmove\tyes\t\tyes\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown action"):
        load_action_corpus(bad)
    bad.write_text("action\tlabel\tday\treply\ncancel\tmaybe\t\tyes\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown kind"):
        load_action_corpus(bad)
    bad.write_text("action\tlabel\tday\treply\ncancel\tyes\tfriday\tyes\n", encoding="utf-8")
    with pytest.raises(ValueError, match="exactly for new_request"):
        load_action_corpus(bad)
    bad.write_text("reply\taction\nyes\tcancel\n", encoding="utf-8")
    with pytest.raises(ValueError, match="header"):
        load_action_corpus(bad)


def test_the_booking_words_keep_the_original_corpus_reading() -> None:
    # BOOKING_WORDS only add to the vocabulary the original (booking) corpus was read with.
    readings = [
        (r, classify_reply(r.text, offered=r.offered, action=ACTIONS["book"])) for r in CORPUS
    ]
    assert [(r.text, x.reason) for r, x in readings if x.kind == "yes" and r.kind != "yes"] == []
    hits = sum(x.kind == "yes" for r, x in readings if r.kind == "yes")
    assert hits >= len(YES_ROWS) * 0.95


# Spot checks of the modelling, per action: each list names what it exercises.


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("cancel", "cancel"),  # the action's own verb, alone
        ("cancel", "yes, cancel the appointment please"),
        ("cancel", "yeah, ditch the booking"),  # "it" in a declared phrase is any object
        ("cancel", "no longer needed"),  # a negative way of agreeing
        ("cancel", "we do not need it anymore"),  # contraction spelled out
        ("cancel", "nah, don't need it any more"),  # "nah" agreeing with a negative
        ("cancel", "could you cancel that for me"),  # a request frame
        ("cancel", "you can cancel it"),  # a permission frame
        ("cancel", "no worries, scrap it"),  # "no" as politeness
        ("cancel", "we'd like it canceled"),  # American spelling
        ("book", "righto"),
        ("book", "lovely jubbly"),
        ("book", "that'll work"),
        ("book", "that would be a real help"),
        ("book", "could you pencil us in"),
        ("book", "no bother, put us down"),
        ("book", "yes please, if you don't mind"),
    ],
)
def test_action_yeses(action: str, text: str) -> None:
    assert read(text, action).kind == "yes", read(text, action)


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("cancel", "don't cancel it"),  # a negated action
        ("cancel", "no, do not cancel the visit"),
        ("cancel", "i wouldn't scrap it"),
        ("cancel", "i don't want to cancel"),  # the negation reaches over "want to"
        ("cancel", "keep it"),  # the action's own refusal
        ("cancel", "yes keep it"),  # a refusal outweighs a yes word
        ("cancel", "we still need the engineer"),
        ("cancel", "yes... actually, no"),  # a change of mind at the end
        ("cancel", "cancel it. hang on, no"),
        ("cancel", "it's not sorted"),  # a negated reason to cancel
        ("cancel", "we don't need it cancelling"),  # a negative agreement negates what follows
        ("cancel", "hang on, no"),  # a change of mind with no yes before it
        ("cancel", "cancel it, no, wait"),  # the marker after the no
        ("cancel", "scratch that"),  # the idiom stays generic: "scratch it" is declared, not this
        ("cancel", "no, keep friday's"),  # keeping another day is no request to cancel it
        ("book", "on second thoughts, no"),
        ("book", "cancel that"),  # "cancel" keeps its generic meaning on a booking read-back
        ("book", "scratch that"),
        ("book", "no don't book it"),
        ("book", "don't put me down"),
        ("book", "don't do that"),  # a negated imperative
        ("book", "yes, sorry, i mean no"),
        ("book", "nah, i'm alright thanks"),
    ],
)
def test_action_refusals(action: str, text: str) -> None:
    assert read(text, action).kind == "no", read(text, action)


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("cancel", "cancel it if they can't come before noon"),  # a conditional
        ("cancel", "yes, if it's before noon"),
        ("cancel", "book it"),  # the other action's words name nothing here
        ("cancel", "put me down"),
        ("cancel", "yeah see you then"),  # agrees to a visit that would be cancelled
        ("cancel", "i'm not sure if we need it"),  # a refusal inside a supposition
        ("cancel", "cancel it?"),
        ("cancel", "can i cancel it"),
        ("cancel", "no, cancel it"),  # both a no and a yes
        ("cancel", "don't keep it"),  # a negated refusal: not read as a yes
        ("book", "scrap the old one"),
        ("book", "yeah, i'm free but not before ten"),
        ("book", "i'm alright"),  # British "no thanks"
        ("book", "cheers"),
        ("book", "can you book it for my mum"),
    ],
)
def test_action_not_a_clean_answer(action: str, text: str) -> None:
    assert read(text, action).kind == "other", read(text, action)


def test_a_yes_to_one_action_that_names_it_is_not_a_yes_to_the_other() -> None:
    # "scrap it" agrees to cancelling; to a booking read-back it must not read as yes.
    hits = []
    for row in ACTION_YES_ROWS:
        if read(row.text, row.action).reason != "names the action":
            continue
        other = read(row.text, OTHER_ACTION[row.action])
        if other.kind == "yes":
            hits.append((row.action, row.text, other.reason))
    assert hits == []


def test_undeclared_words_read_the_original_booking_read_back() -> None:
    assert classify_reply("book it", offered=THU).kind == "yes"
    assert classify_reply("scrap it", offered=THU).kind == "no"
    assert classify_reply("yes cancel it", offered=THU).kind == "no"
    assert classify_reply("book it", offered=THU, action=ActionWords()).kind == "yes"
    assert ACTIONS["book"] != ActionWords() and ACTIONS["cancel"] != ActionWords()


def test_action_words_are_checked() -> None:
    with pytest.raises(TypeError):
        ActionWords(agree="cancel it")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="both agree and refuse"):
        ActionWords(agree=("keep it",), refuse=("keep   it",))
    with pytest.raises(ValueError, match="not a phrase"):
        ActionWords(agree=("cancel, please",))
    with pytest.raises(TypeError):
        classify_reply("yes", offered=THU, action=("cancel",))  # type: ignore[arg-type]
    assert ActionWords(agree=["scrap it"]).agree == ("scrap it",)  # type: ignore[arg-type]


def _concord_insertion(action: str, neg: str, words: list[str], at: int) -> bool:
    """A bare "no" put in front of a negative way of agreeing ("no, we don't need it") agrees,
    as does one put next to such a "no" ("no no longer needed")."""
    if neg != "no":
        return False
    vocab = replies._vocabulary(ACTIONS[action])
    starts = [at, at - 1] if at and words[at - 1].strip(",.").lower() == "no" else [at]
    for start in starts:
        tokens = [
            t for t in replies._tokens(replies._normalize(" ".join(words[start:]), VISIT_DAY))
        ]
        tokens = [t for t in tokens if t != "|"]
        if any(tuple(tokens[k : k + len(p)]) == p for p in vocab.negative_forms for k in range(3)):
            return True
    return False


def test_a_negation_inserted_anywhere_in_an_action_yes_is_never_a_yes() -> None:
    hits = []
    for row in ACTION_YES_ROWS:
        words = row.text.split()
        for neg in ("not", "no", "never", "don't"):
            for at in range(len(words) + 1):
                text = " ".join([*words[:at], neg, *words[at:]])
                if read(text, row.action).kind == "yes" and not _concord_insertion(
                    row.action, neg, words, at
                ):
                    hits.append((row.action, text))
    assert hits == []


def test_a_different_weekday_inserted_anywhere_in_an_action_yes_is_never_a_yes() -> None:
    hits = []
    for row in ACTION_YES_ROWS:
        words = row.text.split()
        for weekday in WEEKDAYS:
            if WEEKDAYS.index(weekday) == THU.weekday():
                continue
            for at in range(len(words) + 1):
                text = " ".join([*words[:at], weekday, *words[at:]])
                if read(text, row.action).kind == "yes":
                    hits.append((row.action, text))
    assert hits == []


def test_a_change_of_mind_after_any_action_yes_is_a_no() -> None:
    hits = []
    for row in ACTION_READ_YES:
        for turn in ("actually no", "wait, no", "sorry, no, don't", "on second thoughts, no"):
            text = f"{row.text}... {turn}"
            if read(text, row.action).kind != "no":
                hits.append((row.action, text, read(text, row.action).reason))
    assert hits == []


def test_a_condition_after_any_action_yes_is_not_a_yes() -> None:
    hits = []
    for row in ACTION_YES_ROWS:
        for cond in ("if it's before noon", "unless it snows", "as long as they ring first"):
            text = f"{row.text} {cond}"
            if read(text, row.action).kind == "yes":
                hits.append((row.action, text))
    assert hits == []


_ACTION_VOCAB = (
    {w for key in replies._vocabulary(ACTIONS["cancel"]).lexicon for w in key}
    | {w for key in replies._vocabulary(ACTIONS["book"]).lexicon for w in key}
    | _VOCAB
)


@settings(max_examples=300, deadline=None)
@given(row=st.sampled_from(ACTION_YES_ROWS), word=st.from_regex(r"[a-z]{3,9}", fullmatch=True))
def test_unrelated_content_after_an_action_yes_is_not_a_yes(row, word: str) -> None:  # type: ignore[no-untyped-def]
    tokens = replies._tokens(replies._normalize(word, VISIT_DAY))
    assume(not any(t in _ACTION_VOCAB for t in tokens))
    assume(not day_mentions._day_number(tokens, 0, ordinal_only=False))
    assert read(f"{row.text} {word}", row.action).kind != "yes"


@settings(max_examples=200, deadline=None)
@given(row=st.sampled_from(ACTION_READ_YES), upper=st.booleans())
def test_asr_style_action_yes_stays_yes_and_a_question_is_not(row, upper: bool) -> None:  # type: ignore[no-untyped-def]
    asr = re.sub(r"[,.!]", "", row.text).lower()
    assert read(asr.upper() if upper else asr, row.action).kind == "yes"
    assert read(row.text + "?", row.action).kind == "other"
