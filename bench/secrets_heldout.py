"""Score `contextdb_livekit.memory.secrets.redact_secrets` once on the held-out secrets set.

    python -m bench.secrets_heldout [--path tests/memory/heldout_secrets.tsv]

tests/memory/heldout_secrets.tsv (columns `label`, `text`) was written and committed before
any rule for issue 18's new kinds changed, and is never tuned on: the rules are tuned on the
cases in src/tests/memory/test_secrets.py only. A `secret:<kind>` row counts as recalled when the
redactor withholds it as the kind that label maps to (IBAN, sort code, account and routing
numbers are `bank_account`); a `clean` row is a false positive when anything in it is
withheld. Prints, per label: rows, recalled, recall; then the false-positive count. Scores
only: it never prints the rows, so reading its output cannot turn into tuning on them.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from contextdb_livekit.memory.secrets import KIND_ORDER, redact_secrets

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "tests" / "memory" / "heldout_secrets.tsv"
# Held-out label -> the redactor's kind that must be reported for the row.
EXPECTED_KIND = {
    "iban": "bank_account",
    "sort_code": "bank_account",
    "account_number": "bank_account",
    "routing_number": "bank_account",
    "access_code": "access_code",
    "date_of_birth": "date_of_birth",
    "payment_card": "payment_card",
    "government_id": "government_id",
    "password": "password",
}


@dataclass(frozen=True)
class Row:
    line: int
    label: str  # "clean" or a key of EXPECTED_KIND
    text: str


@dataclass(frozen=True)
class Score:
    rows: Counter[str]
    recalled: Counter[str]
    withheld_other_kind: Counter[str]  # secret rows withheld, but under another kind
    false_positives: int
    clean: int

    def recall(self, label: str) -> float:
        return self.recalled[label] / self.rows[label] if self.rows[label] else 0.0


def load(path: Path = DEFAULT_PATH) -> list[Row]:
    """The rows; a malformed row is a ValueError naming its line."""
    rows: list[Row] = []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        if reader.fieldnames != ["label", "text"]:
            raise ValueError(f"{path}: header must be label, text")
        for n, row in enumerate(reader, start=2):
            raw, text = row["label"], row["text"]
            if raw == "clean":
                label = "clean"
            elif raw.startswith("secret:") and raw.removeprefix("secret:") in EXPECTED_KIND:
                label = raw.removeprefix("secret:")
            else:
                raise ValueError(f"{path}:{n}: unknown label {raw!r}")
            if not (text or "").strip():
                raise ValueError(f"{path}:{n}: empty text")
            rows.append(Row(n, label, text))
    return rows


def score(rows: list[Row]) -> Score:
    counts: Counter[str] = Counter()
    recalled: Counter[str] = Counter()
    other: Counter[str] = Counter()
    false_positives = clean = 0
    for row in rows:
        kinds = redact_secrets(row.text).kinds
        if row.label == "clean":
            clean += 1
            false_positives += bool(kinds)
            continue
        counts[row.label] += 1
        if EXPECTED_KIND[row.label] in kinds:
            recalled[row.label] += 1
        elif kinds:
            other[row.label] += 1
    return Score(counts, recalled, other, false_positives, clean)


def report(result: Score) -> str:
    lines = [f"{'label':<16}{'rows':>6}{'recalled':>10}{'recall':>9}{'other kind':>12}"]
    for label in sorted(result.rows, key=list(EXPECTED_KIND).index):
        lines.append(
            f"{label:<16}{result.rows[label]:>6}{result.recalled[label]:>10}"
            f"{result.recall(label):>9.1%}{result.withheld_other_kind[label]:>12}"
        )
    total = sum(result.rows.values())
    hit = sum(result.recalled.values())
    lines.append(f"{'all secrets':<16}{total:>6}{hit:>10}{(hit / total if total else 0):>9.1%}")
    lines.append(
        f"false positives: {result.false_positives} of {result.clean} clean rows "
        f"(kinds the redactor knows: {', '.join(KIND_ORDER)})"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    args = parser.parse_args()
    print(report(score(load(args.path))))


if __name__ == "__main__":
    main()
