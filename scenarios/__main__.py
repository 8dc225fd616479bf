"""Run a scripted call through the real AgentSession with the local engine; no keys needed.

    python -m scenarios                 # list scenarios
    python -m scenarios returning_caller
    python -m scenarios returning_caller --model openai   # the real model (OPENAI_API_KEY)
    python -m scenarios returning_caller --live   # via livekit-server and the real worker

Prints the transcript with every tool call, decision and receipt; exits 1 when the
scenario's expectations are not met.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import uuid
from datetime import date
from pathlib import Path
from typing import Any

from livekit.agents import AgentSession, llm

from contextdb_livekit.backends.sqlite_engine import open_engine
from contextdb_livekit.identity import CallerIdentity
from contextdb_livekit.kit.context import CallContext
from contextdb_livekit.memory.settings import MemorySettings
from contextdb_livekit.worker.call import Call
from line import LINE
from memory.extract import Turn, extract_call_facts
from scenarios.result import ScenarioResult
from testkit.line_host import local_host
from testkit.scripted_llm import ScriptedLLM

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    path = HERE / f"{name}.json"
    if not path.is_file():
        raise SystemExit(f"unknown scenario {name!r}; available: {', '.join(available())}")
    return json.loads(path.read_text())


def _model(kind: str) -> llm.LLM:
    if kind == "openai":
        from livekit.plugins import openai

        return openai.LLM()
    return ScriptedLLM()


async def run_scenario(
    spec: dict[str, Any], workdir: Path, *, model: str = "scripted"
) -> ScenarioResult:
    engine = await open_engine(workdir / "memory.sqlite3")
    who = spec["caller"]
    customer_id = f"{who['customer_id']}-{uuid.uuid4().hex[:6]}"
    identity = CallerIdentity(
        customer_id=customer_id,
        actor_id=f"actor-{customer_id}",
        channel="web" if who["assurance"] == "verified" else "sip",
        assurance=who["assurance"],
        room_name=f"playground-{uuid.uuid4().hex[:6]}",
        participant_identity=f"caller-{customer_id}",
    )
    if spec.get("history"):
        # Earlier calls, through the same extractor the end-of-call write uses.
        history = extract_call_facts(
            [Turn("user", text) for text in spec["history"]],
            [],
            today=date.today(),
            call_id=f"history-{customer_id}",
        )
        await engine.remember_many(
            customer_id,
            [fact.to_write() for fact in history],
            idempotency_key=f"history-{customer_id}",
        )
    host = local_host(workdir, engine, memory_settings=MemorySettings(_env_file=None))
    call = Call.open(host, LINE, identity=identity, auth_error=None, call_id=uuid.uuid4().hex)
    transcript: list[str] = []
    async with AgentSession[CallContext](userdata=call.context, llm=_model(model)) as session:
        await call.start(session)
        await session.generate_reply(instructions="Greet the caller.")
        transcript.extend(_lines(session.history.items))
        for turn in spec["turns"]:
            transcript.append(f"caller: {turn}")
            result = await session.run(user_input=turn)
            transcript.extend(_lines([event.item for event in result.events]))
        await call.finish(session.history)
    trail = await engine.decision_trail(customer_id)
    for record in trail:
        transcript.append(
            f"  decision {record.decision_id[:8]} {record.outcome:<7} receipt {record.status}"
            f" {record.policy_alignment or ''} {record.error_code or ''}".rstrip()
        )
    booked = bool(await host.line.calendar.bookings_for(customer_id))
    await engine.close()
    return ScenarioResult(transcript, [[d.outcome, d.status] for d in trail], booked)


def _lines(items: list[Any]) -> list[str]:
    lines = []
    for item in items:
        if item.type == "message" and item.role == "assistant":
            lines.append(f"agent:  {item.text_content}")
        elif item.type == "function_call":
            lines.append(f"  tool   {item.name}({item.arguments})")
        elif item.type == "function_call_output":
            lines.append(f"  -> {item.output}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run a scripted call with no keys.")
    parser.add_argument("name", nargs="?")
    parser.add_argument("--model", choices=["scripted", "openai"], default="scripted")
    parser.add_argument("--live", action="store_true", help="local livekit-server + real worker")
    args = parser.parse_args(argv)
    if not args.name:
        for name in available():
            print(f"{name:<22} {load(name).get('description', '')}")
        return 0
    spec = load(args.name)
    if args.live:
        from scenarios.live import main_live

        return main_live(spec)
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run_scenario(spec, Path(tmp), model=args.model))
    print("\n".join(result.transcript))
    failures = result.failures(spec.get("expect", {})) if args.model == "scripted" else []
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
