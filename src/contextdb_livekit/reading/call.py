"""What a finished call leaves behind, read by the rules: the caller's turns and the agent's
notes → what was said, one per slot, the call's last word winning.

- Only the caller's own turns are the caller's (`by_caller`); the agent's notes are its reading.
- Within one call the last statement per slot wins ("two boilers … sorry, three"), and a
  correction takes back the slot it replaces ("Mondays are fine - sorry, I mean Tuesdays").
- Two readings of one slot in one turn with no correction or change between them ("Not
  Saturdays. I do the car boot every Saturday") keep neither: the caller's words instead.
- A turn that corrects the last one takes back the last turn's statements of the kinds it talks
  about, unless it restates them.
- A sentence that is only a doubt ("Probably.") puts the sentence before it in doubt.
- The caller's last word about a slot must be one the reader read: a later sentence that names
  the slot's day again, or another value of its kind, and types nothing for it leaves what was
  read before in doubt ("one boiler" ... "well, two now, we had another put in").
- A note never overrides what the caller said, and never states a day the caller spoke of in
  words the reader did not take as a fact ("maybe Thursday", "my mum can't do Saturdays").
- Every turn and note is neutralised first; a sentence or note that addresses call handlers or
  tries to change how calls are handled is kept only as `flagged` words; secrets never leave
  verbatim (`memory.secrets`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from contextdb_livekit.memory.instructions_screen import is_procedure_note
from contextdb_livekit.memory.models import Turn
from contextdb_livekit.memory.safe_text import neutralise
from contextdb_livekit.memory.secrets import redact_bounded
from contextdb_livekit.reading.lexicon import (
    _DAY,
    _DAY_RE,
    _HEDGE,
    _ORDINAL_WORDS,
    _ORDINALS,
    _OTHER_SUBJECT,
    _PERSON_PRONOUN,
    _PERSON_RE,
    _SOMEONE_ELSES,
    _WHERE_EACH_ONE_IS,
    DAY_KINDS,
    WEEKDAYS,
    _weekday,
    _weekdays_in,
)
from contextdb_livekit.reading.punctuation import BoundaryModel
from contextdb_livekit.reading.reader import CallReader
from contextdb_livekit.reading.sentences import _CORRECTION, _SMALL, normal
from contextdb_livekit.reading.short_answers import option_picked, yes_restated
from contextdb_livekit.reading.turn_cues import (
    corrects_last_turn,
    kinds_mentioned,
    leaves_correction_open,
    plain_words,
    read_question,
    says_change,
)
from contextdb_livekit.reading.values import _all_current, _is_old

MAX_SENTENCE_CHARS = 300
MAX_SAID = 40

# Kinds of words kept as they were said, never a statement: the caller's words the reader was
# not sure of, the agent's note it could not type, a note that tries to change call handling.
QUOTE, NOTE, FLAGGED = "quote", "note", "flagged"
WORDS = frozenset({QUOTE, NOTE, FLAGGED})

# Sentences end at . ! ? ; — clauses inside a sentence are the `CallReader`'s business.
# A caller turn speech-to-text wrote without punctuation gets its commas back first.
_BOUNDARIES = BoundaryModel.load()
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+")
# "Caller mentioned their mother only has Wednesdays free": what follows is read as said.
_CALLER_SAID = re.compile(
    r"^(?:the )?caller (?:now |also )?(?:says|said|mentioned|mentions|reports|reported|told us|"
    r"states|stated|confirmed|confirms|explained)(?: that)?\s+",
    re.IGNORECASE,
)


# A note's shorthand: days cut short ("Cannot do Mon or Wed").
_SHORT_DAY = re.compile(r"\b(Mon|Tues?|Wed(?:s|nes)?|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?")
_FULL_DAY = {
    "mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday",
    "weds": "Wednesday", "wednes": "Wednesday", "thu": "Thursday", "thur": "Thursday",
    "thurs": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday",
}  # fmt: skip


def _in_full(note: str) -> str:
    return _SHORT_DAY.sub(lambda m: _FULL_DAY[m.group(1).casefold()], note)


@dataclass(frozen=True)
class Said:
    """One thing the call left: a statement the reader was sure of, or words kept as said."""

    kind: str  # the statement's kind, or one of `WORDS`
    value: str  # a worded kind's value is the sentence itself (redacted, bounded)
    key: str | None  # the weekday, the thing counted, or the words' digest
    negative: bool
    by_caller: bool
    sentence: str = ""  # the sentence that stated it (redacted, bounded)

    @property
    def slot(self) -> tuple[str, str | None]:
        return (self.kind, self.key)


def kept_words(kind: str, text: str, *, by_caller: bool) -> Said:
    """Words kept as written (neutralised, redacted, bounded), one slot per text."""
    kept = redact_bounded(neutralise(text.strip()), MAX_SENTENCE_CHARS)
    digest = hashlib.sha256(kept.casefold().encode()).hexdigest()[:8]
    return Said(kind, kept, digest, negative=False, by_caller=by_caller)


def read_call(
    turns: Iterable[Turn],
    notes: Iterable[str],
    reader: CallReader,
    *,
    worded: frozenset[str],
    several: frozenset[str],
    adds_up: frozenset[str],
) -> list[Said]:
    """What a finished call said, one per slot, the last word winning (see the module doc).
    `worded`: kinds whose value is the caller's sentence; `several`: kinds a turn may say two
    different things of without contradicting itself ("the dog's friendly. He barks though");
    `adds_up`: kinds whose sentences add up within a call ("side gate; the dog barks").

    A caller turn without punctuation is read twice: as written, and with the commas
    `punctuation` puts back. A slot both readings state is kept only when they agree (else the
    caller's words are kept instead); one only the second reading states is added, except a day
    (measured on sets the comma table never saw, the days the second reading alone found were
    wrong about one time in ten, a few the wrong way round) but for a plain answer to a
    question about days, words the first reading doubted and anything said beside somebody
    else (`_agreed`)."""
    turns = _short_answers_restated(list(turns))
    notes = list(notes)
    as_said = [t.text for t in turns]
    as_written = _read_call(turns, as_said, notes, reader, worded, several, adds_up)
    with_commas = [_BOUNDARIES.restore(t.text) if t.role == "user" else t.text for t in turns]
    if with_commas == as_said:
        return as_written
    punctuated = _read_call(
        turns, with_commas, notes, CallReader(reader.words), worded, several, adds_up
    )
    # Each turn the commas changed, with the sign of the question about days it answers.
    answers: list[tuple[str, int]] = []
    question = ""
    for turn, restored in zip(turns, with_commas, strict=True):
        if turn.role != "user":
            question = turn.text
        elif restored != turn.text and question:
            sign = read_question(question, reader.words).base
            if sign is not None:
                answers.append((_plain(restored), sign))
    return _agreed(as_written, punctuated, worded, answers)


def _short_answers_restated(turns: list[Turn]) -> list[Turn]:
    """Each short answer that names nothing by itself as what it points at in the turn just
    before it: "Mornings or afternoons?" "The second one." reads as "afternoons"; "Is the meter
    under the stairs?" "Yep." as "the meter is under the stairs". Not a yes to a question
    about days or numbers, which the reader answers as the agent read them back."""
    restated = list(turns)
    for i in range(1, len(turns)):
        if turns[i].role != "user":
            continue
        question, answer = turns[i - 1].text, turns[i].text
        said = option_picked(question, answer)
        if said is None and not re.search(rf"{_DAY}|\d", normal(question)):
            said = yes_restated(question, answer)
        if said is not None:
            restated[i] = dataclasses.replace(turns[i], text=f"{said}.")
    return restated


_SOMEONE_ELSE = re.compile(rf"{_PERSON_RE.pattern}|{_PERSON_PRONOUN.pattern}")


def _plain(value: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", value.casefold()).split())


def _agree(said: Said, other: Said) -> bool:
    """Two readings of one slot say the same, one maybe cut shorter ("9 The Mews" and "9 The
    Mews Off High Street"; "wednesday" and "wednesday only")."""
    first, second = _plain(said.value), _plain(other.value)
    return said.negative == other.negative and (
        first.startswith(second) or second.startswith(first)
    )


# Not a plain answer: a correction ("monday no wait wednesday"), two negations, or a "no"
# answering a read-back before the days ("no its thursday thursday's my day off").
_NOT_PLAIN = re.compile(rf"\b{_CORRECTION}\b|\bnot\b.*\bnot\b|^(?:(?:um|er|oh|well|yeah) )*no\b")


def _answers_as_asked(said: Said, punctuated: list[Said], answers: list[tuple[str, int]]) -> bool:
    """A day only the second reading states, from a plain answer to a question about days,
    with every day of the sentence the way the question asks ("any days to avoid?" "fridays
    and mondays um none of them are any use"): the commas only cut the days apart. Measured
    with a comma table trained on sets 1-66 only, on sets 67-75: 18 more days found, no false
    one."""
    sentence = _plain(said.sentence)
    sign = next((s for text, s in answers if sentence and sentence in text), None)
    if sign is None or said.kind != "availability":
        return False
    if _HEDGE.search(sentence) or _NOT_PLAIN.search(sentence):
        return False
    days = [s for s in punctuated if s.kind in DAY_KINDS and _plain(s.sentence) == sentence]
    return all(s.kind == "availability" and (-1 if s.negative else 1) == sign for s in days)


def _agreed(
    as_written: list[Said],
    punctuated: list[Said],
    worded: frozenset[str],
    answers: list[tuple[str, int]],
) -> list[Said]:
    """The two readings of a call, merged: see `read_call`. `answers`: each caller turn the
    commas changed (plain words) and the sign of the question about days it answers."""
    second = {s.slot: s for s in punctuated if s.kind not in WORDS}
    merged: list[Said] = []
    for said in as_written:
        other = second.pop(said.slot, None)
        if other is None or said.kind in WORDS | worded or _agree(said, other):
            merged.append(said)
        else:
            # The commas change what the slot says: neither reading is sure.
            merged.append(kept_words(QUOTE, said.sentence or said.value, by_caller=True))
    # Not added from the second reading alone: words the first kept because it was not sure of
    # them; a day (the commas put back turn a day the wrong way round too often, see
    # `read_call`) unless it answers a question about days as asked; anything said beside
    # somebody else ("its my daughter thats on the fifth floor": a comma in the wrong place
    # makes her floor the caller's).
    doubted = [_plain(s.value) for s in as_written if s.kind == QUOTE]
    merged += [
        s
        for s in second.values()
        if (
            _answers_as_asked(s, punctuated, answers)
            or (s.kind not in DAY_KINDS and not any(_plain(s.sentence) in d for d in doubted))
        )
        and not _SOMEONE_ELSE.search(normal(s.sentence))
    ]
    return merged[-MAX_SAID:]


def _read_call(
    turns: list[Turn],
    split: list[str],
    notes: list[str],
    reader: CallReader,
    worded: frozenset[str],
    several: frozenset[str],
    adds_up: frozenset[str],
) -> list[Said]:
    """`read_call` once; `split[i]` is the text `turns[i]` is cut into sentences from."""
    by_slot: dict[tuple[str, str | None], Said] = {}
    caller_slots: set[tuple[str, str | None]] = set()

    def in_sentence(sentence: str, *, by_caller: bool, reading: CallReader) -> list[Said]:
        found: list[Said] = []
        for said in reading.read(sentence):
            if not said.sure:
                # Precision first: a reading the reader is not sure of keeps the words.
                found.append(kept_words(QUOTE, sentence, by_caller=True))
                continue
            found.append(
                Said(
                    said.kind,
                    _sentence_value(sentence) if said.kind in worded else said.value,
                    said.key,
                    said.negative,
                    by_caller,
                    redact_bounded(sentence, MAX_SENTENCE_CHARS),
                )
            )
        return found

    def keep(found: Iterable[Said], *, replaces: bool = False) -> None:
        """Each statement as the slot's last word; `replaces`: said correcting the caller's
        last turn, so nothing of the slot adds up with it."""
        for item in found:
            # A note never overrides what the caller said in the same call.
            if not item.by_caller and item.slot in caller_slots:
                continue
            if item.by_caller:
                caller_slots.add(item.slot)
            earlier = by_slot.pop(item.slot, None)  # re-insert: dict order is "last said"
            if earlier is not None and _narrows(earlier.value, item.value):
                # "My mobile." ... "Yeah, calls are fine.": the call is to the phone named.
                item = earlier
            if (
                item.kind in adds_up
                and earlier is not None
                and earlier.by_caller == item.by_caller
                and item.value not in earlier.value  # one sentence read twice adds nothing
                # "It's in the garage." ... "oh no wait, it's in the porch now": a turn that
                # opens correcting the last replaces what it corrects, it does not add to it.
                and not replaces
            ):
                merged = f"{earlier.value}; {item.value}"[:MAX_SENTENCE_CHARS]
                item = dataclasses.replace(item, value=merged)
            by_slot[item.slot] = item

    def unsure(slot: tuple[str, str | None], *words: str) -> None:
        """A slot whose reading is in doubt: no statement, the caller's words instead."""
        by_slot.pop(slot, None)
        keep(kept_words(QUOTE, w, by_caller=True) for w in words)

    # One reader for the call: a short answer is read against the agent's question, and a
    # correction takes back what the caller said just before it.
    last_turn: dict[tuple[str, str | None], tuple[Said, str]] = {}
    # Every caller sentence in order: its turn, what the reader was sure of in it; and where
    # each slot was last stated.
    heard: list[tuple[int, str, list[Said]]] = []
    stated_at: dict[tuple[str, str | None], int] = {}
    # The thing a caller sentence answered a count of ("Any towel rails?" "One in the bathroom."),
    # by its index in `heard`.
    counting: dict[int, str] = {}
    agent_words = ""  # the agent's turn just before the caller's, normalised
    for turn_index, turn in enumerate(turns):
        if turn.role != "user":
            reader.agent_said(turn.text)
            agent_words = normal(turn.text)
            continue
        reader.new_turn()
        if _BARE_DENIAL.fullmatch(plain_words(turn.text)):
            # "It's a Baxi." "So that's a Baxi?" "No, it isn't.": the value read back and
            # denied is not kept (which value is right, the caller has not said).
            for slot, (item, sentence) in last_turn.items():
                held = _values_named(item.kind, normal(item.value), reader)
                if by_slot.get(slot) is item and held & _values_named(
                    item.kind, agent_words, reader
                ):
                    unsure(slot, sentence, turn.text)
        agent_words = ""
        this_turn: dict[tuple[str, str | None], tuple[Said, str]] = {}
        # The kinds a correction left open in the sentence before may be put right by this
        # one (None: any kind; empty: no correction is open).
        pending_kinds: set[str] | None = set()
        contradicted: set[tuple[str, str | None]] = set()
        typed_here: set[str] = set()  # every kind the turn typed
        opens_correcting = bool(last_turn) and corrects_last_turn(turn.text)
        for index, sentence in enumerate(_sentences(split[turn_index])):
            if is_procedure_note(sentence):
                keep([kept_words(FLAGGED, sentence, by_caller=False)])
                continue
            found = in_sentence(sentence, by_caller=True, reading=reader)
            if (
                not found
                and heard
                and heard[-1][0] == turn_index
                and _only_a_hedge(sentence, reader)
            ):
                # "Thursdays should be alright. Probably.": the doubt is about the sentence
                # before it, in the same turn.
                _, doubted, said = heard[-1]
                for item in said:
                    if item.kind not in several and item.slot in by_slot:
                        unsure(item.slot, doubted, sentence)
            heard.append((turn_index, sentence, [f for f in found if f.kind not in WORDS]))
            if reader.asked.topic == "equipment_count" and reader.asked.unit:
                counting[len(heard) - 1] = reader.words.counted_thing(reader.asked.unit)
            stated_at.update((f.slot, len(heard) - 1) for f in found if f.kind not in WORDS)
            typed_here.update(f.kind for f in found if f.kind != QUOTE)
            # The sentence's own last word per slot (the reader settles a sentence itself).
            said_here = {f.slot: f for f in found if f.kind not in several | WORDS}
            # "Saturday's fine - oh hang on, no, it's the christening. Not Saturday.": a change
            # said in the sentence before, in the same turn, is made by this one.
            pending = pending_kinds is None or any(slot[0] in pending_kinds for slot in said_here)
            changes = bool(said_here) and (says_change(sentence) or pending)
            # "thursdays work for me, sorry, we have a dog": the note after the "sorry" is what
            # the correction was about; it leaves open nothing of another kind ("it's flat 4").
            noted = {f.kind for f in found if f.kind in worded}
            pending_kinds = (
                (noted or None) if leaves_correction_open(sentence, reader.words) else set()
            )
            for slot, item in said_here.items():
                earlier = this_turn.get(slot)
                values = {f.value for f in found if f.slot == slot}
                if changes:
                    contradicted.discard(slot)
                elif (
                    slot in contradicted
                    or len(values) > 1
                    or (
                        earlier
                        and earlier[0].value != item.value
                        and not _narrows(earlier[0].value, item.value)
                        and not _narrows(item.value, earlier[0].value)
                    )
                ):
                    # "Not Saturdays. I do the car boot every Saturday", "second floor, well,
                    # first really": two readings of one slot in one turn; neither is kept.
                    contradicted.add(slot)
                    unsure(slot, *([earlier[1]] if earlier else []), sentence)
                this_turn[slot] = (item, sentence)
            keep(
                (f for f in found if f.slot not in contradicted),
                replaces=opens_correcting and index == 0,
            )
            for item in found:
                if item.kind in worded:
                    # Not contradicted within a turn (two notes add up), but a correcting turn
                    # next takes them back like any other ("Oh no, wait, he's away that week").
                    this_turn.setdefault(item.slot, (item, sentence))
            for kind, key in reader.take_retracted():
                for slot, item in list(by_slot.items()):
                    if (item.kind, item.key) == (kind, key) and item.by_caller:
                        del by_slot[slot]
        if opens_correcting:
            # "Let me recount... it's nine": a turn that corrects the last one takes back the
            # last turn's statements of any kind it talks about (or of every kind, when it
            # types nothing), unless it restates them.
            restated = {slot[0] for slot in this_turn}
            talked_about = kinds_mentioned(turn.text, reader.words) if typed_here else None
            for slot, (item, sentence) in last_turn.items():
                if item.kind in restated or slot in this_turn:
                    continue
                talked = talked_about is None or item.kind in talked_about
                if talked and by_slot.get(slot) is item:
                    unsure(slot, sentence, turn.text)
        for slot, sentence in _working_week_beside_days_free(this_turn):
            if by_slot.get(slot) is this_turn[slot][0]:
                unsure(slot, sentence)
        if this_turn:
            last_turn = this_turn
    for slot, item in list(by_slot.items()):
        at = stated_at.get(slot)
        if at is None:
            continue
        stated_in, stated, _ = heard[at]
        for at_now, (turn_index, sentence, typed) in enumerate(heard):
            # Within a turn two readings of a slot are settled above; a reason given after it
            # ("Not Sundays. I do the market every Sunday") is no word against it.
            # "Ten. Well, ten and the little one in the loo, so eleven really": a number said
            # after the count, in the same turn, that the reader typed nothing from.
            later = turn_index > stated_in or (
                at_now > at and item.kind == "equipment_count" and _recounts(sentence, item)
            )
            if not later or _counts_another(item, sentence, counting.get(at_now)):
                continue
            if _names_again(sentence, item, reader, typed):
                # "We've got one boiler." ... "Well, two now, we had another put in": the
                # caller's last word about a slot is one the reader could not read, so what
                # was read before may no longer be true (a wrong fact is worse than none).
                unsure(slot, stated, sentence)
                break
    for slot, sentence in _favoured_days_undone(by_slot):
        unsure(slot, sentence)
    for slot, words_said in _one_day_only_undone(by_slot, heard, stated_at):
        unsure(slot, *words_said)
    said_days = {
        _weekday(day)
        for turn in turns
        if turn.role == "user"
        for day in _DAY_RE.findall(normal(turn.text))
    }
    for note in notes:
        sentences = [_in_full(_CALLER_SAID.sub("", s)) for s in _sentences(note)]
        if is_procedure_note(note) or any(is_procedure_note(s) for s in sentences):
            keep([kept_words(FLAGGED, note, by_caller=False)])
            continue
        # Each sentence of a note is read on its own, not as part of the conversation.
        typed = [
            f
            for sentence in sentences
            for f in in_sentence(sentence, by_caller=False, reading=CallReader(reader.words))
        ]
        # A day the caller spoke of themselves, in words the reader did not take as a fact
        # ("maybe thursday", "my mum can't do Saturdays"), is not the note's to state.
        typed = [f for f in typed if _day_of(f) not in said_days or f.slot in caller_slots]
        keep(typed or [kept_words(NOTE, note, by_caller=False)])
    return list(by_slot.values())[-MAX_SAID:]


# "I work Monday to Friday", "I'm at work all week": the working week, said as a reason.
# (`normal` has written "Monday to Friday" and "weekdays" out as the five days.)
_WORKING_WEEK = re.compile(
    r"\b(?:work|working|at work|in work)\b.{0,12}?\b(?:all week|the week|during the week|"
    r"mondays? and tuesdays? and wednesdays? and thursdays? and fridays?|"
    r"mondays? tuesdays? wednesdays? thursdays? and fridays?)\b"
)


def _working_week_beside_days_free(
    this_turn: dict[tuple[str, str | None], tuple[Said, str]],
) -> list[tuple[tuple[str, str | None], str]]:
    """The weekdays a turn said out only because the caller works them, when the same turn
    says which days are free: "I'm only free on Saturdays, I work Monday to Friday". The
    working week is the reason the free days are free, not five days the caller ruled out
    (which of them a visit could still fit is not said); the words are kept instead."""
    free = any(
        item.kind == "availability" and not item.negative and item.key in WEEKDAYS[5:]
        for item, _ in this_turn.values()
    )
    if not free:
        return []
    return [
        (slot, sentence)
        for slot, (item, sentence) in this_turn.items()
        if item.kind == "availability"
        and item.negative
        and item.key in WEEKDAYS[:5]
        and _WORKING_WEEK.search(normal(sentence))
    ]


def _favoured_days_undone(
    by_slot: dict[tuple[str, str | None], Said],
) -> list[tuple[tuple[str, str | None], str]]:
    """The caller's favoured days the call's other facts undo, each slot with its sentence:
    "Thursday only." ... "actually Friday's fine as well" (another day said to work after the
    one day); "Saturday's the only one, well, Saturday's out too" (a day both favoured and not
    working: a misreading of one of them, so neither is kept as a fact)."""
    order = list(by_slot)  # by_slot is in the order last said
    undone = []
    for slot, item in by_slot.items():
        if item.kind != "preferred_day" or not item.by_caller:
            continue
        day = _day_of(item)
        later = [by_slot[other] for other in order[order.index(slot) + 1 :]]
        if item.value.endswith(" only") and any(
            other.kind == "availability" and other.value == "available" and other.key != day
            for other in later
        ):
            undone.append((slot, item.sentence))
        against = by_slot.get(("availability", day))
        if against is not None and against.by_caller and against.value == "unavailable":
            undone += [(slot, item.sentence), (against.slot, against.sentence)]
    return undone


# A value and the ones that say it more narrowly ("phone call": "mobile" or "landline").
_NARROWER = {"phone call": frozenset({"mobile", "landline"})}


def _narrows(specific: str, general: str) -> bool:
    """`specific` says what `general` does, more narrowly: a call to the mobile is a call."""
    return specific in _NARROWER.get(general, frozenset())


def _one_day_only_undone(
    by_slot: dict[tuple[str, str | None], Said],
    heard: list[tuple[int, str, list[Said]]],
    stated_at: dict[tuple[str, str | None], int],
) -> list[tuple[tuple[str, str | None], tuple[str, str]]]:
    """The caller's "only" days another day is added to, each slot with its sentences: "Only
    Saturdays. Well, Saturdays and Sundays, really", "Fridays are the only ones - oh, and
    Saturdays". The day added is not said to be out, so "only" is in doubt."""
    undone = []
    for slot, item in by_slot.items():
        if item.kind != "preferred_day" or not item.value.endswith(" only"):
            continue
        day = _day_of(item) or ""
        for _, sentence, _ in heard[stated_at.get(slot, len(heard)) :]:
            # As said: `normal` writes "weekends" and "Monday to Friday" out as the days.
            words = sentence.lower()
            named = re.search(rf"\b{day}s?\b", words)
            words = words[named.start() if named else 0 :]
            added = {
                _weekday(m.group(1) or m.group(2) or m.group(3))
                for m in re.finditer(_days_added(day), words)
                # Not "tuesday or wednesday no sorry just tuesday": back to the one day.
                if not re.search(rf"\b(?:just|only) {day}|\b{day}s? only\b", words[m.end() :])
            } - {day}
            if any(
                (out := by_slot.get(("availability", other))) is None or out.value != "unavailable"
                for other in added
            ):
                undone.append((slot, (item.sentence, sentence)))
                break
    return undone


def _days_added(day: str) -> str:
    """Another day added to `day`: "saturdays and sundays", "oh and saturdays", "fridays too"
    (not "I work mondays and tuesdays", a list of other days)."""
    return (
        rf"\b{day}s?,? (?:and|or|plus) ({_DAY})\b|"
        rf"(?:^|[,.;:\u2013\u2014-]\s*)(?:oh,?\s+)?(?:and|also|plus)\s+({_DAY})\b|"
        rf"\b({_DAY})\s+(?:too|as well|also)\b"
    )


def _day_of(said: Said) -> str | None:
    """The weekday a statement is of: availability's key, a preferred day's value."""
    if said.kind == "preferred_day":
        return said.value.split()[0]
    return said.key


def _sentences(text: str) -> list[str]:
    flat = neutralise(text)[: MAX_SENTENCE_CHARS * 4]
    return [s.strip() for s in _SENTENCE_SPLIT.split(flat) if s and s.strip()]


def _sentence_value(sentence: str) -> str:
    """The sentence with any code replaced: the code itself is never stored."""
    redacted = redact_bounded(sentence, MAX_SENTENCE_CHARS)
    return redacted.strip().rstrip(".") or "access code on file"


# Kinds whose values are told apart by their numbers ("flat 9", "two boilers").
_NUMBERED = frozenset({"equipment_count", "address", "flat", "floor"})


def _recounts(sentence: str, item: Said) -> bool:
    """Whether a sentence counts again from the count's number to another ("Ten. Well, ten and
    the little one in the loo, so eleven really"), not a number said beside it ("Seven. One per
    flat", "Five. I rang at 5 o'clock")."""
    text = normal(sentence)
    number = item.value.split()[0]
    said_again = any(_SMALL.get(m.group(0), m.group(0)) == number for m in _NUMBER.finditer(text))
    arrives = (_SMALL.get(m.group(1), m.group(1)) for m in _ARRIVES_AT.finditer(text))
    return said_again and any(n != number for n in arrives)


def _counts_another(item: Said, sentence: str, counted: str | None) -> bool:
    """Whether a caller sentence answers a count of another thing than `item` counts, and
    names no other thing ("Nine radiators. Any towel rails?" "One in the bathroom.")."""
    if item.kind != "equipment_count" or counted is None or counted == item.key:
        return False
    return item.key is not None and not re.search(rf"\b{re.escape(item.key)}", normal(sentence))


def _names_again(sentence: str, item: Said, reader: CallReader, typed: list[Said]) -> bool:
    """Whether a caller sentence after the last one that stated `item` (so one the reader typed
    nothing of its slot from) speaks of it again: names its day, or another value of its kind."""
    text = normal(sentence)
    if _SOMEONE_ELSES.search(text) or _OTHER_SUBJECT.match(text):
        return False  # "I think my brother has a Vaillant": theirs, not a word about the caller's
    days = _weekdays_in(text)
    if item.kind == "availability":
        # "No, sorry, Friday." ... "Friday is best for me": a day favoured agrees with it working.
        favoured = any(t.kind == "preferred_day" and t.value.split()[0] == item.key for t in typed)
        return item.key in days and not (favoured and not item.negative)
    if item.kind == "preferred_day":
        return item.value.split()[0] in days
    if item.kind not in kinds_mentioned(sentence, reader.words):
        return False
    # "Seven." ... "And thermostats?" "Three, one per floor.": where each one is, no count.
    text = _WHERE_EACH_IS.sub(" ", text)
    value = normal(item.value)
    held = _values_named(item.kind, value, reader)
    if held & _values_named(item.kind, text, reader, current=False):
        # "So it's not a combi then": the value held, named as no longer so.
        return True
    named = _values_named(item.kind, text, reader)
    # "Eight radiators." ... "And thermostats?" "Two.": a number read as a count of another
    # thing is no word against this one.
    others = {t.value.split()[0] for t in typed if t.kind == item.kind and t.key != item.key}
    return bool(named - held - set(value.split()) - others)


def _values_named(kind: str, text: str, reader: CallReader, *, current: bool = True) -> set[str]:
    """The values of `kind` a normalised text names as current: numbers, makes or equipment
    types ("it used to be a back boiler" names none); with `current=False`, those it names as
    old or denied ("it used to be a back boiler", "it's not a combi")."""
    words = reader.words

    def named(pattern: re.Pattern[str]) -> list[re.Match[str]]:
        if current:
            return _all_current(pattern, text)
        return [m for m in pattern.finditer(text) if _is_old(text, m)]

    if kind == "floor":
        # "ground floor" ... "well, it's the basement technically": floors named in words.
        return {_floor_name(m.group(0)) for m in named(_FLOOR_WORD)}
    if kind in _NUMBERED:
        return {_SMALL.get(m.group(0), m.group(0)) for m in named(_NUMBER)}
    if kind == "equipment_make":
        makes = named(words.make)
        return {words.make_names.get(m.group(1), m.group(1)).casefold() for m in makes}
    if kind == words.types.kind:
        return {words.type_value(m) for m in named(words.type_mention)}
    return set()


def _only_a_hedge(sentence: str, reader: CallReader) -> bool:
    """ "Probably.", "I think so, anyway": a short sentence of doubt that names no day and no
    kind of its own, so what it doubts is what came just before."""
    text = normal(sentence)
    return (
        bool(_HEDGE.search(text))
        and len(text.split()) <= 8
        and not _DAY_RE.search(text)
        and not kinds_mentioned(sentence, reader.words)
    )


_WHERE_EACH_IS = re.compile(rf"\b{_WHERE_EACH_ONE_IS}")
# A turn that only says no to what the agent said back.
_BARE_DENIAL = re.compile(
    r"(?:(?:no|nope|nah|oh|sorry|er|um)\s+)*(?:no|nope|nah|wrong|not quite|not really)"
    r"(?:\s+(?:it is not|it is not that|that is not it|that is not right|that is wrong|"
    r"that is not what i said|sorry|wrong))*"
)
# A floor as callers name one ("the basement", "the second", "2nd").
_FLOOR_WORD = re.compile(rf"\b(?:lower ground|ground|basement|top|{_ORDINAL_WORDS})\b")


def _floor_name(word: str) -> str:
    """One name per floor: "second" and "2nd" are one."""
    if word in _ORDINALS:
        return str(_ORDINALS[word])
    if word == "lower ground":
        return "basement"
    return word.rstrip("stndrh") if word[:1].isdigit() else word


# A number as the reader's normalising leaves it: digits, or one to ten in words.
_NUMBER = re.compile(rf"\b(?:\d+|{'|'.join(_SMALL)})\b")
# "so eleven", "call it ten", "makes twelve": where a count said again arrives.
_ARRIVES_AT = re.compile(
    rf"\b(?:so|call it|make it|make that|makes|that makes)\s+(?:(?:about|like)\s+)?"
    rf"(\d+|{'|'.join(_SMALL)})\b"
)
