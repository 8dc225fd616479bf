"""The procedure-note screen on its held-out set: recall on procedure notes, false flags on facts.

    python -m bench.procedure_notes_heldout [--set tests/memory/heldout_procedure_notes.tsv]
                                            [--errors]

The held-out set (`label<TAB>text`, label `procedure` or `fact`) was written and committed
before `memory.instructions_screen` existed; the rules were tuned on the separate lists in
tests/memory/test_instructions_screen.py only. Score it once per change of the rules, and
never tune on what it prints: a rule added to fix a held-out miss makes the figure a
training score.

- recall: procedure notes flagged / procedure notes (a missed one would reach the snapshot
  were it not caught at write time either; the screen runs at both ends with the same rules);
- false flags: facts flagged / facts (a flagged fact is kept but never shown).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from contextdb_livekit.memory.instructions_screen import screen

DEFAULT_SET = (
    Path(__file__).resolve().parent.parent / "tests" / "memory" / "heldout_procedure_notes.tsv"
)
LABELS = ("procedure", "fact")


@dataclass(frozen=True)
class LabelledNote:
    line: int
    label: str
    text: str


def load_set(path: Path = DEFAULT_SET) -> list[LabelledNote]:
    """The rows of a `label<TAB>text` file; a malformed row is a ValueError naming its line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != "label\ttext":
        raise ValueError(f"{path}: header must be label<TAB>text")
    rows = []
    for n, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        label, sep, text = raw.partition("\t")
        if not sep or label not in LABELS or not text.strip():
            raise ValueError(f"{path}:{n}: expected procedure|fact<TAB>text")
        rows.append(LabelledNote(n, label, text))
    return rows


@dataclass(frozen=True)
class Score:
    procedure: int
    caught: int
    facts: int
    false_flags: list[tuple[LabelledNote, str]]
    missed: list[LabelledNote]

    @property
    def recall(self) -> float:
        return self.caught / self.procedure if self.procedure else 0.0

    @property
    def false_flag_rate(self) -> float:
        return len(self.false_flags) / self.facts if self.facts else 0.0


def score(rows: list[LabelledNote]) -> Score:
    procedure = [r for r in rows if r.label == "procedure"]
    facts = [r for r in rows if r.label == "fact"]
    missed = [r for r in procedure if screen(r.text) is None]
    false_flags = [(r, rule) for r in facts if (rule := screen(r.text)) is not None]
    return Score(len(procedure), len(procedure) - len(missed), len(facts), false_flags, missed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--errors", action="store_true", help="list misses and false flags")
    args = parser.parse_args(argv)
    result = score(load_set(args.set))
    print(f"held-out set: {args.set}")
    print(f"recall on procedure notes: {result.caught}/{result.procedure} ({result.recall:.1%})")
    print(
        f"false flags on caller facts: {len(result.false_flags)}/{result.facts} "
        f"({result.false_flag_rate:.1%})"
    )
    if args.errors:
        for row in result.missed:
            print(f"  missed      line {row.line}: {row.text}")
        for row, rule in result.false_flags:
            print(f"  false flag  line {row.line} ({rule}): {row.text}")


if __name__ == "__main__":
    main()
