"""Confusion matrix of `testkit.visit_replies.classify_reply` over the labelled reply corpus.

    python -m bench.reply_classifier [--corpus tests/tools/reply_corpus.tsv] [--errors]

Rows are the labels, columns what the classifier said. A new_request counts as right only
when it also names the labelled day. Prints the false-yes count (anything labelled non-yes
read as yes: the number that must stay 0) and the recall of labelled yeses.

Labelling policy of the corpus: `yes` only for a clean agreement to the read-back; a yes with
content beyond the visit ("yes still at elm road", "yes in the morning please") is `other`,
a yes naming another day is `new_request`. All sentences are the project's own.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import get_args

from testkit.visit_replies import ReplyKind, ReplyReading, classify_reply

KINDS: tuple[str, ...] = get_args(ReplyKind)
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "tools" / "reply_corpus.tsv"


@dataclass(frozen=True)
class LabelledReply:
    line: int
    text: str
    offered: date
    kind: str
    day: str | None


def load_corpus(path: Path = DEFAULT_CORPUS) -> list[LabelledReply]:
    """The corpus rows; a malformed row is a ValueError naming its line."""
    rows: list[LabelledReply] = []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        if reader.fieldnames != ["text", "offered", "expected", "day"]:
            raise ValueError(f"{path}: header must be text, offered, expected, day")
        for n, row in enumerate(reader, start=2):
            kind = row["expected"]
            day = row["day"] or None
            if kind not in KINDS:
                raise ValueError(f"{path}:{n}: unknown kind {kind!r}")
            if (kind == "new_request") != (day is not None):
                raise ValueError(f"{path}:{n}: a day is given exactly for new_request rows")
            if not row["text"].strip():
                raise ValueError(f"{path}:{n}: empty text")
            try:
                offered = date.fromisoformat(row["offered"])
            except (TypeError, ValueError):
                raise ValueError(f"{path}:{n}: offered must be YYYY-MM-DD") from None
            rows.append(LabelledReply(n, row["text"], offered, kind, day))
    return rows


def predicted_cell(row: LabelledReply, reading: ReplyReading) -> str:
    """The column a reading falls in; a new_request naming the wrong day is 'other'."""
    if reading.kind == "new_request" and row.kind == "new_request" and reading.target != row.day:
        return "other"
    return reading.kind


@dataclass(frozen=True)
class Score:
    matrix: Counter[tuple[str, str]]
    false_yes: list[tuple[LabelledReply, ReplyReading]]
    errors: list[tuple[LabelledReply, ReplyReading]]
    total: int

    @property
    def yes_labelled(self) -> int:
        return sum(v for (label, _), v in self.matrix.items() if label == "yes")

    @property
    def yes_recall(self) -> float:
        return self.matrix[("yes", "yes")] / self.yes_labelled if self.yes_labelled else 0.0

    @property
    def accuracy(self) -> float:
        return sum(self.matrix[(k, k)] for k in KINDS) / self.total if self.total else 0.0


def score(rows: list[LabelledReply]) -> Score:
    matrix: Counter[tuple[str, str]] = Counter()
    false_yes: list[tuple[LabelledReply, ReplyReading]] = []
    errors: list[tuple[LabelledReply, ReplyReading]] = []
    for row in rows:
        reading = classify_reply(row.text, offered=row.offered)
        cell = predicted_cell(row, reading)
        matrix[(row.kind, cell)] += 1
        if cell == "yes" and row.kind != "yes":
            false_yes.append((row, reading))
        if cell != row.kind:
            errors.append((row, reading))
    return Score(matrix, false_yes, errors, len(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--errors", action="store_true", help="list every misread reply")
    args = parser.parse_args()
    result = score(load_corpus(args.corpus))
    width = 12
    print(f"{len(KINDS)}x{len(KINDS)} confusion matrix over {result.total} replies")
    print("label \\ read".ljust(width) + "".join(k.rjust(width) for k in KINDS))
    for label in KINDS:
        cells = "".join(str(result.matrix[(label, k)]).rjust(width) for k in KINDS)
        print(label.ljust(width) + cells)
    print(f"false yes: {len(result.false_yes)}")
    yes_hit = result.matrix[("yes", "yes")]
    print(f"yes recall: {yes_hit}/{result.yes_labelled} = {result.yes_recall:.3f}")
    print(f"agreement with labels: {result.accuracy:.3f}")
    for row, reading in result.false_yes:
        print(f"FALSE YES line {row.line}: {row.text!r} ({reading.reason})")
    if args.errors:
        for row, reading in result.errors:
            print(
                f"line {row.line}: {row.text!r} labelled {row.kind}/{row.day} "
                f"read {reading.kind}/{reading.target} ({reading.reason})"
            )


if __name__ == "__main__":
    main()
