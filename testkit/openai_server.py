"""A scripted OpenAI-compatible server for the e2e suite (loopback only).

    python -m testkit.openai_server --port PORT

POST /v1/chat/completions streams the scripted model's next move (text or a tool call) as
chat-completion chunks; POST /v1/audio/speech answers short silence as raw PCM, so the real
OpenAI plugin drives a whole call with no network and no keys.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

from aiohttp import web

from scenarios.scripted_model import CallTool, Entry, next_move

SILENCE_PCM = bytes(24000 * 2 // 5)  # 0.2 s of 24 kHz 16-bit mono


def entries_from_openai(messages: list[dict[str, Any]]) -> list[Entry]:
    call_names: dict[str, str] = {}
    entries: list[Entry] = []
    for message in messages:
        role = message.get("role")
        content = message.get("content")
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        if role in ("system", "developer"):
            entries.append(Entry("message", role="system", text=content or ""))
        elif role == "user":
            entries.append(Entry("message", role="user", text=content or ""))
        elif role == "assistant":
            if content:
                entries.append(Entry("message", role="assistant", text=content))
            for call in message.get("tool_calls") or []:
                function = call["function"]
                call_names[call["id"]] = function["name"]
                entries.append(
                    Entry(
                        "call",
                        name=function["name"],
                        arguments=json.loads(function.get("arguments") or "{}"),
                    )
                )
        elif role == "tool":
            name = call_names.get(message.get("tool_call_id", ""), "")
            entries.append(Entry("output", name=name, text=content or ""))
    return entries


def _chunk(completion_id: str, delta: dict[str, Any], finish: str | None) -> bytes:
    body = {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n".encode()


async def chat_completions(request: web.Request) -> web.StreamResponse:
    body = await request.json()
    move = next_move(entries_from_openai(body.get("messages", [])))
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    completion_id = f"chatcmpl-{uuid.uuid4().hex[:12]}"
    if isinstance(move, CallTool):
        call = {
            "index": 0,
            "id": f"call_{uuid.uuid4().hex[:12]}",
            "type": "function",
            "function": {"name": move.name, "arguments": json.dumps(move.arguments)},
        }
        await response.write(
            _chunk(completion_id, {"role": "assistant", "tool_calls": [call]}, "tool_calls")
        )
    else:
        await response.write(
            _chunk(completion_id, {"role": "assistant", "content": move.text}, None)
        )
        await response.write(_chunk(completion_id, {}, "stop"))
    await response.write(b"data: [DONE]\n\n")
    await response.write_eof()
    return response


async def speech(_: web.Request) -> web.Response:
    return web.Response(body=SILENCE_PCM, content_type="audio/pcm")


def build_app() -> web.Application:
    app = web.Application()
    app.add_routes(
        [
            web.post("/v1/chat/completions", chat_completions),
            web.post("/v1/audio/speech", speech),
            web.get("/health", lambda _: web.Response(text="ok")),
        ]
    )
    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    web.run_app(build_app(), host="127.0.0.1", port=args.port, print=None)
