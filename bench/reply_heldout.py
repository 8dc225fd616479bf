"""Score the reply reader once on the held-out replies, through the real confirm path.

    python -m bench.reply_heldout

For each row of tests/tools/heldout_replies.tsv (written before the reader changed, never
tuned on; see tests/tools/HELDOUT_README.md) a whole call runs through the real
`AgentSession`, the gated tools and the in-process engine: the caller asks to book (or, with
a visit booked, to cancel) Thursday 10 December 2026, the host reads it back, the caller
gives the held-out reply and the model calls `confirm_read_back`. What the host then did
is the reading: the action ran (yes), "said no" (no), "asked for … instead" (new_request),
anything else (other). Prints a confusion matrix per action, false yeses, and yes recall.
The calls run on 3 December 2026, the day the set was written.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import tempfile
from collections import Counter
from datetime import date
from pathlib import Path

from contextdb_livekit.backends.local_engine import LocalEngine
from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.kit.context import CallContext
from scenarios.text_call import start_text_call
from testkit.scripted_llm import ScriptedLLM
from testkit.scripted_model import CallTool

HELDOUT = Path(__file__).resolve().parent.parent / "tests" / "tools" / "heldout_replies.tsv"
TODAY = date(2026, 12, 3)
LABELS = ("yes", "no", "other", "new_request")


async def read_through_the_call(workdir: Path, engine: LocalEngine, action: str, reply: str) -> str:
    model = ScriptedLLM()
    _, session = await start_text_call(workdir, engine, model)
    try:
        await session.run(user_input="book a visit on 2026-12-10")
        if action == "cancel":
            await session.run(user_input="yes")
            await session.run(user_input="please cancel my visit on 2026-12-10")
        model.script = [CallTool("confirm_read_back", {})]
        result = await session.run(user_input=reply)
        outputs = [
            ev.item.output
            for ev in result.events
            if ev.type == "function_call_output" and ev.item.name == "confirm_read_back"
        ]
        output = outputs[0] if outputs else ""
        if output.startswith(("Booked", "Cancelled")):
            return "yes"
        if output.startswith("The caller said no"):
            return "no"
        if "asked for" in output and "instead" in output:
            return "new_request"
        return "other"
    finally:
        await session.aclose()


async def main(path: Path) -> None:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    CallContext.today = lambda self: TODAY  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        engine = await open_engine(workdir / "memory.sqlite3")
        try:
            for action in ("book", "cancel"):
                matrix: Counter[tuple[str, str]] = Counter()
                for row in (r for r in rows if r["action"] == action):
                    got = await read_through_the_call(workdir, engine, action, row["reply"])
                    matrix[(row["label"], got)] += 1
                    if got == "yes" and row["label"] != "yes":
                        print(f"  FALSE YES ({action}, {row['label']}): {row['reply']}")
                _print(action, matrix)
        finally:
            await engine.close()


def _print(action: str, matrix: Counter[tuple[str, str]]) -> None:
    total = sum(matrix.values())
    print(f"\n{action}: {total} held-out replies (rows: labelled, columns: host reading)")
    print(f"{'':>14}" + "".join(f"{label:>13}" for label in LABELS))
    for label in LABELS:
        print(f"{label:>14}" + "".join(f"{matrix[(label, got)]:>13}" for got in LABELS))
    yeses = sum(matrix[("yes", got)] for got in LABELS)
    false_yes = sum(matrix[(label, "yes")] for label in LABELS if label != "yes")
    recall = matrix[("yes", "yes")] / yeses if yeses else 0.0
    print(f"false yes: {false_yes}   yes recall: {matrix[('yes', 'yes')]}/{yeses} = {recall:.1%}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Another file of the same columns checks the pipeline without looking at the held-out.
    parser.add_argument("--file", type=Path, default=HELDOUT)
    asyncio.run(main(parser.parse_args().file))
