"""Learn the clause-boundary table the reader uses for unpunctuated caller turns.

    python -m bench.punctuation_table            # rebuild src/.../reading/punctuation.tsv
    python -m bench.punctuation_table --check    # train without the last sets; print how well
                                                 # it puts back their punctuation

Training text: the caller turns written with punctuation ("written" style) in the scorecard's
sets that are spent (read while tuning): `tuning` and `independent` to `independentLAST_SPENT`.
Sets after that are held out: never read here, so a scorecard on them stays honest. Each gap
between two words is labelled a boundary when the writer put a comma, full stop, question mark,
semicolon, colon or dash there; the model is a logistic regression over the words either side
(`contextdb_livekit.reading.punctuation.gap_features`), trained by seeded stochastic gradient
descent, so the same sets give the same table. Weights under `PRUNE` are dropped.
"""

from __future__ import annotations

import argparse
import math
import random
import re
from pathlib import Path

from bench.extraction import load
from contextdb_livekit.reading.punctuation import TABLE, BoundaryModel, gap_features, word_class

LAST_SPENT = 73  # held-out sets after this one are unread: never train on them
CHECK_HELD_BACK = 7  # --check: the last spent sets, kept out of training and scored
PRUNE = 0.6
EPOCHS = 8
SEED = 1
OUT = Path(__file__).resolve().parents[1] / "src" / "contextdb_livekit" / "reading" / TABLE
_TOKEN = re.compile(r"[a-z0-9']+|[.,!?;:\u2014\u2013-]+")


def spent_sets(last: int = LAST_SPENT) -> list[str]:
    return ["tuning", "independent"] + [f"independent{n}" for n in range(2, last + 1)]


def labelled(text: str) -> tuple[list[str], list[bool]]:
    """The words of a punctuated turn and, per word, whether a boundary follows it."""
    words: list[str] = []
    after: list[bool] = []
    # "a no-go", "twenty-two": a hyphen inside a word is no boundary.
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text.casefold().replace("\u2019", "'"))
    for token in _TOKEN.findall(text):
        if token[0].isalnum() or token[0] == "'":
            words.append(token)
            after.append(False)
        elif words:
            after[-1] = True
    return words, after


def caller_turns(sets: list[str]) -> list[str]:
    return [
        turn.text
        for name in sets
        for item in load(name)
        if item.style == "written"
        for turn in item.turns
        if turn.role == "user"
    ]


def train(texts: list[str]) -> dict[str, float]:
    examples: list[tuple[list[str], float]] = []
    for text in texts:
        words, after = labelled(text)
        classes = [word_class(w) for w in words]
        examples += [(gap_features(classes, i), float(after[i])) for i in range(len(words) - 1)]
    weights: dict[str, float] = {}
    rate, decay = 0.3, 1e-5
    shuffle = random.Random(SEED).shuffle
    for _ in range(EPOCHS):
        shuffle(examples)
        for features, label in examples:
            score = max(-30.0, min(30.0, sum(weights.get(f, 0.0) for f in features)))
            error = 1 / (1 + math.exp(-score)) - label
            for f in features:
                w = weights.get(f, 0.0)
                weights[f] = w - rate * (error + decay * w)
        rate *= 0.7
    return {f: round(w, 2) for f, w in weights.items() if abs(w) >= PRUNE or f == ""}


def table_text(weights: dict[str, float]) -> str:
    header = (
        f"# Clause boundaries: feature<TAB>weight. Built by bench/punctuation_table.py from the\n"
        f"# written caller turns of sets tuning..independent{LAST_SPENT}; do not edit by hand.\n"
    )
    return header + "".join(f"{f}\t{w}\n" for f, w in sorted(weights.items()))


def check() -> None:
    sets = spent_sets()
    trained = BoundaryModel(train(caller_turns(sets[:-CHECK_HELD_BACK])))
    found = missed = extra = 0
    for text in caller_turns(sets[-CHECK_HELD_BACK:]):
        words, after = labelled(text)
        guessed = set(trained.boundaries(words))
        for i in range(len(words) - 1):
            found += after[i] and i in guessed
            missed += after[i] and i not in guessed
            extra += not after[i] and i in guessed
    print(f"trained without {', '.join(sets[-CHECK_HELD_BACK:])}; on their written caller turns:")
    precision, recall = 100 * found / (found + extra), 100 * found / (found + missed)
    print(f"boundaries put back: precision {precision:.1f} %, recall {recall:.1f} % "
          f"({found + missed} boundaries)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    if parser.parse_args().check:
        check()
        return
    weights = train(caller_turns(spent_sets()))
    OUT.write_text(table_text(weights), encoding="utf-8")
    print(f"{OUT.name}: {len(weights)} weights from sets tuning..independent{LAST_SPENT}")


if __name__ == "__main__":
    main()
