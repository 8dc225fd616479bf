"""python -m contextdb_livekit.caller_data export|erase CUSTOMER_ID

Uses the worker's settings (environment, `.env`): the same stores the calls use.
`export` prints JSON (or writes it to `--out`); `erase` prints what it changed as JSON and
exits 0 when complete, 3 when something was deferred or failed (run it again; it resumes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

from contextdb_livekit.caller_data.erase import erase_caller
from contextdb_livekit.caller_data.export import export_caller
from contextdb_livekit.caller_data.stores import open_caller_data
from contextdb_livekit.identity.models import check_customer_id
from contextdb_livekit.stores.private_files import private_file

INCOMPLETE = 3


async def _run(args: argparse.Namespace) -> int:
    opened = await open_caller_data()
    try:
        if args.command == "export":
            exported = await export_caller(opened.stores, args.customer_id)
            text = json.dumps(exported.as_json(), indent=2, default=str)
            if args.out is not None:
                # The export is personal data: owner-only, like every file the worker keeps.
                private_file(args.out)
                args.out.write_text(text + "\n")
            else:
                print(text)
            return 0 if not exported.unavailable else INCOMPLETE
        report = await erase_caller(opened.stores, args.customer_id)
        print(json.dumps(report.as_json(), indent=2))
        return 0 if report.complete else INCOMPLETE
    finally:
        await opened.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m contextdb_livekit.caller_data", description=__doc__.splitlines()[0]
    )
    parser.add_argument("command", choices=("export", "erase"))
    parser.add_argument("customer_id")
    parser.add_argument("--out", type=Path, default=None, help="export: write JSON here")
    args = parser.parse_args(argv)
    try:
        check_customer_id(args.customer_id)
    except ValueError as exc:
        parser.error(str(exc))
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    return asyncio.run(_run(args))


if __name__ == "__main__":
    sys.exit(main())
