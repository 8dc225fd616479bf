"""A scripted OpenAI-compatible server for the e2e suite (loopback only).

    python -m testkit.openai_server --port PORT [--realtime-order ORDER] [--transcript-delay-ms MS]

POST /v1/chat/completions streams the scripted model's next move (text or a tool call) as
chat-completion chunks; POST /v1/audio/transcriptions "hears" which caller line was spoken
(testkit.speech: by voiced length, nothing for non-speech); POST /v1/audio/speech speaks the
text with espeak-ng. So the real OpenAI plugins drive a whole call with no network and no keys.
GET /debug/transcriptions lists what each transcription request received.

GET /v1/realtime is the loopback Realtime API (testkit.realtime_server) for a worker with
USE_REALTIME_MODEL=true: the caller's audio is heard by an energy VAD and the same line matcher,
replies are spoken with espeak-ng, and the caller's transcript comes in `--realtime-order`
(`--transcript-delay-ms` after its anchor). GET /debug/realtime shows its events in order.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
import uuid
from typing import Any

from aiohttp import web

from testkit.realtime_server import (
    SAMPLE_RATE as REALTIME_SAMPLE_RATE,
)
from testkit.realtime_server import (
    TRANSCRIPT_ORDERS,
    LoopbackRealtime,
    RealtimeScript,
)
from testkit.scripted_model import CallTool, Entry, next_move
from testkit.speech import LineMatcher, pcm_to_wav, render_pcm_async, wav_pcm

log = logging.getLogger("scripted-openai")
TTS_SAMPLE_RATE = 24000  # what livekit-plugins-openai's TTS declares for raw PCM
MATCHER = web.AppKey("matcher", LineMatcher)
HEARD = web.AppKey("heard", list)


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


async def transcriptions(request: web.Request) -> web.Response:
    form = await request.post()
    upload = form.get("file")
    if not isinstance(upload, web.FileField):
        return web.json_response({"error": {"message": "file is required"}}, status=400)
    try:
        pcm, rate, _ = wav_pcm(upload.file.read())
    except (ValueError, EOFError) as exc:
        return web.json_response({"error": {"message": f"not a WAV file: {exc}"}}, status=400)
    heard = request.app[MATCHER].hear(pcm, rate)
    request.app[HEARD].append(
        {"total_s": heard.total_s, "voiced_s": heard.voiced_s, "text": heard.text}
    )
    log.info(
        "transcription: %.2f s of audio, %.2f s voiced -> %r",
        heard.total_s,
        heard.voiced_s,
        heard.text,
    )
    body: dict[str, Any] = {"text": heard.text}
    if form.get("response_format") == "verbose_json":
        body |= {"language": "english", "duration": heard.total_s}
    return web.json_response(body)


async def speech(request: web.Request) -> web.Response:
    body = await request.json()
    pcm = await render_pcm_async(str(body.get("input", "")), TTS_SAMPLE_RATE)
    requested = body.get("response_format", "mp3")
    if requested == "pcm":
        return web.Response(body=pcm, content_type="audio/pcm")
    # No mp3/opus/aac encoder offline: answer WAV and say so in Content-Type, which the
    # plugin decodes by (it reads the declared type, not the requested one).
    return web.Response(body=pcm_to_wav(pcm, TTS_SAMPLE_RATE), content_type="audio/wav")


async def heard_log(request: web.Request) -> web.Response:
    return web.json_response(request.app[HEARD])


async def _realtime_speech(text: str) -> bytes:
    return await render_pcm_async(text, REALTIME_SAMPLE_RATE)


def build_app(realtime: RealtimeScript | None = None) -> web.Application:
    app = web.Application()
    matcher = LineMatcher()
    app[MATCHER] = matcher
    app[HEARD] = []
    loopback = LoopbackRealtime(
        realtime,
        hear=lambda pcm, rate: matcher.hear(pcm, rate).text,
        speak=_realtime_speech,
    )
    app.add_routes(loopback.routes())
    app.add_routes(
        [
            web.post("/v1/chat/completions", chat_completions),
            web.post("/v1/audio/transcriptions", transcriptions),
            web.post("/v1/audio/speech", speech),
            web.get("/debug/transcriptions", heard_log),
            web.get("/health", lambda _: web.Response(text="ok")),
        ]
    )
    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--realtime-order", choices=TRANSCRIPT_ORDERS, default="before_response")
    parser.add_argument("--transcript-delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    script = RealtimeScript(
        order=args.realtime_order, transcript_delay_s=args.transcript_delay_ms / 1000
    )
    web.run_app(build_app(script), host="127.0.0.1", port=args.port, print=None)
