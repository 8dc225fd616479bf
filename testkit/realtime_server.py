"""A loopback Realtime API server: the scripted model behind the real realtime plugin client.

Beside `testkit.openai_server` (chat completions), this speaks the subset of the OpenAI
Realtime websocket protocol that `livekit-plugins-openai`'s `RealtimeModel` uses, on
`ws://127.0.0.1:PORT/v1/realtime`, so the plugin's own client is what a test drives:

- session: `session.created` on connect; `session.update` → `session.updated`;
- input audio: `input_audio_buffer.append` (counted), `commit` → `committed`, `clear` → `cleared`;
- the conversation: `conversation.item.create` / `delete` / `truncate` answered with
  `conversation.item.added` / `deleted` / `truncated`, kept in order (`previous_item_id`);
- a caller turn (`caller_says`), as server VAD reports one: `input_audio_buffer.speech_started`,
  `speech_stopped`, `committed`, `conversation.item.added` (the caller's audio item, no words
  yet), then the response; the caller's words (`conversation.item.input_audio_transcription
  .completed`, same `item_id`) come in the scripted `TranscriptOrder`: before the response,
  after the function call, after `response.done`, or never;
- a response (after a caller turn, or on `response.create`, whose `client_event_id` it echoes):
  `response.created`, `response.output_item.added` / `conversation.item.added`, a spoken
  message (`content_part.added`, `output_audio_transcript.delta`, `output_audio.delta`, `.done`)
  or function calls (`function_call_arguments.delta` / `.done`), `response.output_item.done`,
  `response.done`.

The model is one of the scripted personas (`testkit.scripted_model.MODELS`): it "hears" the
caller's words at once, as a realtime model hears audio, whatever the transcript order. In the
conversation tests the caller's turn is scripted at the server (`caller_says`), where server VAD
would report it, and appended audio is only counted. Given `hear` (the e2e suite, through
`testkit.openai_server`), appended audio goes through a plain energy VAD instead and each
segment is heard as one of the scripted caller lines; given `speak`, replies carry real speech.

    server = LoopbackRealtime(RealtimeScript(order="after_response_done"))
    base_url = await server.start()          # RealtimeModel(base_url=base_url, api_key="x")
    await server.caller_says("yes please")   # returns once the call has settled
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import uuid
from array import array
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import WSMsgType, web

from testkit.scripted_model import CallTool, Entry, Say, next_move
from testkit.speech import _VOICE_RMS, rms

log = logging.getLogger("loopback-realtime")

TranscriptOrder = Literal["before_response", "after_function_call", "after_response_done", "never"]
TRANSCRIPT_ORDERS: tuple[TranscriptOrder, ...] = (
    "before_response",
    "after_function_call",
    "after_response_done",
    "never",
)
Move = Say | CallTool | list[CallTool]
SAMPLE_RATE = 24000
# 100 ms of silence: the spoken reply's audio (the words travel in its transcript).
SILENCE = base64.b64encode(b"\x00\x00" * (SAMPLE_RATE // 10)).decode()


@dataclass
class RealtimeScript:
    """How the scripted provider behaves: the persona, and when the caller's words arrive."""

    order: TranscriptOrder = "before_response"
    # After the anchor event of `order` (0: right after it).
    transcript_delay_s: float = 0.0
    policy: Callable[[list[Entry]], Move] = next_move
    # Before each response starts: the time a hosted model takes to begin answering.
    response_latency_s: float = 0.0


@dataclass
class ServerLog:
    """What happened on the wire, for tests and the bench."""

    responses: int = 0
    function_calls: list[str] = field(default_factory=list)
    transcripts_sent: list[str] = field(default_factory=list)
    caller_turns: int = 0
    audio_bytes_appended: int = 0
    client_events: list[str] = field(default_factory=list)
    # The server's key events in the order sent: "caller:<words>", "call:<tool>",
    # "response.done", "transcript:<words>" (so a test can check the order really was late).
    wire: list[str] = field(default_factory=list)


class EnergyVad:
    """Server VAD for the loopback: a 20 ms frame is voice above testkit.speech's RMS level; a
    turn ends after `silence_s` of quiet. Offline speech (espeak-ng) is clean enough for it."""

    def __init__(self, sample_rate: int = SAMPLE_RATE, silence_s: float = 0.6) -> None:
        self._frame_bytes = int(sample_rate * 0.02) * 2
        self._quiet_frames_to_end = int(silence_s / 0.02)
        self._pending = b""
        self._turn = bytearray()
        self._quiet = 0

    def feed(self, pcm: bytes) -> list[bytes]:
        """Audio in; the turns it completed out (each as 16-bit PCM)."""
        self._pending += pcm
        done: list[bytes] = []
        while len(self._pending) >= self._frame_bytes:
            frame = self._pending[: self._frame_bytes]
            self._pending = self._pending[self._frame_bytes :]
            if rms(array("h", frame)) > _VOICE_RMS:
                self._turn += frame
                self._quiet = 0
            elif self._turn:
                self._turn += frame
                self._quiet += 1
                if self._quiet >= self._quiet_frames_to_end:
                    done.append(bytes(self._turn))
                    self._turn = bytearray()
                    self._quiet = 0
        return done


def _id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


def _text_of(item: dict[str, Any]) -> str:
    parts = item.get("content") or []
    return " ".join(
        str(part.get("text") or part.get("transcript") or "")
        for part in parts
        if isinstance(part, dict)
    ).strip()


class LoopbackRealtime:
    """One scripted Realtime API endpoint on loopback, one client connection at a time."""

    def __init__(
        self,
        script: RealtimeScript | None = None,
        *,
        hear: Callable[[bytes, int], str] | None = None,
        speak: Callable[[str], Awaitable[bytes]] | None = None,
    ) -> None:
        self.script = script or RealtimeScript()
        # Appended audio → caller lines (None: turns come from `caller_says` only).
        self._hear = hear
        self._vad = EnergyVad() if hear is not None else None
        # Reply text → 24 kHz speech (None: 100 ms of silence per reply).
        self._speak_audio = speak
        self.log = ServerLog()
        self.instructions = ""
        self._items: list[dict[str, Any]] = []
        # What the model heard of each caller audio item (its words, transcribed or not).
        self._heard: dict[str, str] = {}
        self._open_calls: set[str] = set()
        self._ws: web.WebSocketResponse | None = None
        self._runner: web.AppRunner | None = None
        self._response_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._responding = 0
        self._last_activity = 0.0
        self._connected = asyncio.Event()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1") -> str:
        """Listen on a free loopback port; returns the base URL for `RealtimeModel`."""
        app = web.Application()
        app.add_routes(self.routes())
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        port = server.sockets[0].getsockname()[1]
        return f"http://{host}:{port}/v1"

    def routes(self) -> list[web.RouteDef]:
        """The websocket endpoint (and a debug view of the wire), to serve from any app."""
        return [
            web.get("/v1/realtime", self._handle),
            web.get("/debug/realtime", self._debug),
        ]

    async def _debug(self, _: web.Request) -> web.Response:
        return web.json_response({"wire": self.log.wire, "calls": self.log.function_calls})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- what a test drives ----------------------------------------------------------------

    async def caller_says(self, text: str, *, settle_timeout_s: float = 30.0) -> None:
        """The caller speaks `text`; returns when the call has settled after it."""
        await asyncio.wait_for(self._connected.wait(), settle_timeout_s)
        self._spawn(self._caller_turn(text))
        await self.settled(timeout_s=settle_timeout_s)

    async def settled(self, *, quiet_s: float = 0.3, timeout_s: float = 30.0) -> None:
        """Wait until no response is running, every function call has its output back, no
        scripted transcript is pending and the client has been quiet for `quiet_s`. A bound
        on waiting, never a measure of speed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            if self.quiet(quiet_s):
                return
            if loop.time() > deadline:
                raise TimeoutError(
                    f"realtime call never settled: responding={self._responding}, "
                    f"open calls={sorted(self._open_calls)}, tasks={len(self._tasks)}"
                )
            await asyncio.sleep(0.05)

    def quiet(self, quiet_s: float = 0.0) -> bool:
        """No response running, every function call answered, no scripted transcript pending,
        and nothing from either side for `quiet_s`."""
        busy = self._responding or self._open_calls or any(not t.done() for t in self._tasks)
        quiet_for = asyncio.get_running_loop().time() - self._last_activity
        return not busy and quiet_for >= quiet_s

    def entries(self) -> list[Entry]:
        """The conversation as the model sees it (the persona's input)."""
        entries = [Entry("message", role="system", text=self.instructions)]
        names: dict[str, str] = {}
        for item in self._items:
            kind = item.get("type")
            if kind == "message":
                role = item.get("role", "")
                text = self._heard.get(item["id"]) or _text_of(item)
                role = "system" if role in ("system", "developer") else role
                entries.append(Entry("message", role=role, text=text))
            elif kind == "function_call":
                names[item.get("call_id", "")] = item.get("name", "")
                entries.append(
                    Entry(
                        "call",
                        name=item.get("name", ""),
                        arguments=json.loads(item.get("arguments") or "{}"),
                    )
                )
            elif kind == "function_call_output":
                entries.append(
                    Entry(
                        "output",
                        name=names.get(item.get("call_id", ""), ""),
                        text=item.get("output", ""),
                    )
                )
        return entries

    # --- the websocket ---------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        # One call per connection: a new one starts a new conversation.
        self._ws = ws
        self._items, self._heard, self._open_calls = [], {}, set()
        self.instructions = ""
        self._vad = EnergyVad() if self._hear is not None else None
        self._connected.set()
        await self._send(
            {"type": "session.created", "session": {"id": _id("sess"), "type": "realtime"}}
        )
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            self._last_activity = asyncio.get_running_loop().time()
            try:
                await self._on_client_event(json.loads(message.data))
            except Exception:  # a test server: say what went wrong, keep serving
                log.exception("loopback realtime: bad client event")
        self._connected.clear()
        return ws

    async def _send(self, event: dict[str, Any]) -> None:
        if self._ws is None or self._ws.closed:
            return
        event.setdefault("event_id", _id("event"))
        self._last_activity = asyncio.get_running_loop().time()
        await self._ws.send_str(json.dumps(event))

    def _spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_client_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type", "")
        self.log.client_events.append(kind)
        if kind == "session.update":
            session = event.get("session") or {}
            if isinstance(session.get("instructions"), str):
                self.instructions = session["instructions"]
            await self._send({"type": "session.updated", "session": session})
        elif kind == "input_audio_buffer.append":
            pcm = base64.b64decode(event.get("audio", ""))
            self.log.audio_bytes_appended += len(pcm)
            if self._vad is not None and self._hear is not None:
                for turn in self._vad.feed(pcm):
                    words = self._hear(turn, SAMPLE_RATE)
                    seconds = len(turn) / 2 / SAMPLE_RATE
                    log.info("server VAD: %.2f s of audio heard as %r", seconds, words)
                    if words:
                        self._spawn(self._caller_turn(words))
        elif kind == "input_audio_buffer.commit":
            await self._send(
                {
                    "type": "input_audio_buffer.committed",
                    "item_id": _id("item"),
                    "previous_item_id": self._tail(),
                }
            )
        elif kind == "input_audio_buffer.clear":
            await self._send({"type": "input_audio_buffer.cleared"})
        elif kind == "conversation.item.create":
            await self._create_item(event)
        elif kind == "conversation.item.delete":
            item_id = event.get("item_id", "")
            self._items = [i for i in self._items if i.get("id") != item_id]
            await self._send({"type": "conversation.item.deleted", "item_id": item_id})
        elif kind == "conversation.item.truncate":
            await self._send(
                {
                    "type": "conversation.item.truncated",
                    "item_id": event.get("item_id"),
                    "content_index": event.get("content_index", 0),
                    "audio_end_ms": event.get("audio_end_ms", 0),
                }
            )
        elif kind == "response.create":
            response = event.get("response") or {}
            metadata = response.get("metadata") or None
            self._spawn(self._respond(metadata))
        elif kind == "response.cancel":
            pass  # responses here are emitted whole; nothing is left to cancel

    def _tail(self) -> str | None:
        return self._items[-1]["id"] if self._items else None

    async def _create_item(self, event: dict[str, Any]) -> None:
        item = dict(event["item"])
        item.setdefault("id", _id("item"))
        previous = event.get("previous_item_id")
        if previous == "root":
            position = 0
        elif previous is None:
            position = len(self._items)
        else:
            index = next((i for i, it in enumerate(self._items) if it["id"] == previous), None)
            position = len(self._items) if index is None else index + 1
        self._items.insert(position, item)
        if item.get("type") == "function_call_output":
            self._open_calls.discard(item.get("call_id", ""))
        await self._send(
            {
                "type": "conversation.item.added",
                "previous_item_id": self._items[position - 1]["id"] if position else None,
                "item": item,
            }
        )

    # --- a caller turn, as server VAD reports one -------------------------------------------

    async def _caller_turn(self, text: str) -> None:
        self.log.caller_turns += 1
        self.log.wire.append(f"caller:{text}")
        item_id = _id("item")
        previous = self._tail()
        await self._send(
            {"type": "input_audio_buffer.speech_started", "item_id": item_id, "audio_start_ms": 0}
        )
        await self._send(
            {"type": "input_audio_buffer.speech_stopped", "item_id": item_id, "audio_end_ms": 900}
        )
        await self._send(
            {
                "type": "input_audio_buffer.committed",
                "item_id": item_id,
                "previous_item_id": previous,
            }
        )
        item = {
            "id": item_id,
            "type": "message",
            "role": "user",
            "status": "completed",
            "content": [{"type": "input_audio", "transcript": None}],
        }
        self._items.append(item)
        self._heard[item_id] = text  # the model hears the audio itself
        await self._send(
            {"type": "conversation.item.added", "previous_item_id": previous, "item": item}
        )
        order = self.script.order
        if order == "before_response":
            await self._transcript(item_id, text)
        await self._respond(None, pending_transcript=(item_id, text))

    async def _transcript(self, item_id: str, text: str) -> None:
        if self.script.transcript_delay_s > 0:
            await asyncio.sleep(self.script.transcript_delay_s)
        self.log.transcripts_sent.append(text)
        self.log.wire.append(f"transcript:{text}")
        await self._send(
            {
                "type": "conversation.item.input_audio_transcription.completed",
                "item_id": item_id,
                "content_index": 0,
                "transcript": text,
                "logprobs": None,
            }
        )

    # --- a response -----------------------------------------------------------------------

    async def _respond(
        self,
        metadata: dict[str, Any] | None,
        *,
        pending_transcript: tuple[str, str] | None = None,
    ) -> None:
        async with self._response_lock:
            self._responding += 1
            try:
                await self._one_response(metadata, pending_transcript)
            finally:
                self._responding -= 1

    async def _one_response(
        self, metadata: dict[str, Any] | None, pending_transcript: tuple[str, str] | None
    ) -> None:
        order = self.script.order
        if self.script.response_latency_s > 0:
            await asyncio.sleep(self.script.response_latency_s)
        move = self.script.policy(self.entries())
        self.log.responses += 1
        response_id = _id("resp")
        response = {
            "id": response_id,
            "object": "realtime.response",
            "status": "in_progress",
            "output": [],
            "metadata": metadata,
        }
        await self._send({"type": "response.created", "response": response})
        output: list[dict[str, Any]] = []
        if isinstance(move, Say):
            output.append(await self._speak(response_id, move.text))
        else:
            calls = move if isinstance(move, list) else [move]
            for index, call in enumerate(calls):
                output.append(await self._call(response_id, index, call))
                if order == "after_function_call" and pending_transcript and index == 0:
                    # The caller's words land after the model's call (its tool already runs).
                    self._spawn(self._transcript(*pending_transcript))
                    pending_transcript = None
        usage = {"total_tokens": 0, "input_tokens": 0, "output_tokens": 0}
        done = {**response, "status": "completed", "output": output, "usage": usage}
        await self._send({"type": "response.done", "response": done})
        self.log.wire.append("response.done")
        if pending_transcript is not None and order in (
            "after_function_call",
            "after_response_done",
        ):
            self._spawn(self._transcript(*pending_transcript))

    async def _speak(self, response_id: str, text: str) -> dict[str, Any]:
        item_id = _id("item")
        where = {"response_id": response_id, "item_id": item_id, "output_index": 0}
        item = {
            "id": item_id,
            "type": "message",
            "role": "assistant",
            "status": "in_progress",
            "content": [],
        }
        previous = self._tail()
        await self._send(
            {
                "type": "response.output_item.added",
                "response_id": response_id,
                "output_index": 0,
                "item": item,
            }
        )
        await self._send(
            {"type": "conversation.item.added", "previous_item_id": previous, "item": item}
        )
        part = {"type": "audio", "transcript": ""}
        await self._send(
            {"type": "response.content_part.added", **where, "content_index": 0, "part": part}
        )
        await self._send(
            {
                "type": "response.output_audio_transcript.delta",
                **where,
                "content_index": 0,
                "delta": text,
            }
        )
        for chunk in await self._audio_chunks(text):
            await self._send(
                {"type": "response.output_audio.delta", **where, "content_index": 0, "delta": chunk}
            )
        await self._send({"type": "response.output_audio.done", **where, "content_index": 0})
        await self._send(
            {
                "type": "response.output_audio_transcript.done",
                **where,
                "content_index": 0,
                "transcript": text,
            }
        )
        done = {
            **item,
            "status": "completed",
            "content": [{"type": "output_audio", "transcript": text}],
        }
        self._items.append(done)
        await self._send(
            {
                "type": "response.output_item.done",
                "response_id": response_id,
                "output_index": 0,
                "item": done,
            }
        )
        return done

    async def _audio_chunks(self, text: str) -> list[str]:
        if self._speak_audio is None:
            return [SILENCE]
        pcm = await self._speak_audio(text)
        step = SAMPLE_RATE // 2 * 2  # half a second per delta
        return [base64.b64encode(pcm[i : i + step]).decode() for i in range(0, len(pcm), step)]

    async def _call(self, response_id: str, index: int, call: CallTool) -> dict[str, Any]:
        item_id, call_id = _id("item"), _id("call")
        arguments = json.dumps(call.arguments)
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "call_id": call_id,
            "name": call.name,
            "arguments": "",
        }
        previous = self._tail()
        await self._send(
            {
                "type": "response.output_item.added",
                "response_id": response_id,
                "output_index": index,
                "item": item,
            }
        )
        await self._send(
            {"type": "conversation.item.added", "previous_item_id": previous, "item": item}
        )
        where = {
            "response_id": response_id,
            "item_id": item_id,
            "output_index": index,
            "call_id": call_id,
        }
        await self._send(
            {"type": "response.function_call_arguments.delta", **where, "delta": arguments}
        )
        await self._send(
            {
                "type": "response.function_call_arguments.done",
                **where,
                "name": call.name,
                "arguments": arguments,
            }
        )
        done = {**item, "status": "completed", "arguments": arguments}
        self._items.append(done)
        self._open_calls.add(call_id)
        self.log.function_calls.append(call.name)
        self.log.wire.append(f"call:{call.name}")
        await self._send(
            {
                "type": "response.output_item.done",
                "response_id": response_id,
                "output_index": index,
                "item": done,
            }
        )
        return done


@contextlib.asynccontextmanager
async def loopback_realtime(script: RealtimeScript | None = None):  # type: ignore[no-untyped-def]
    """`async with loopback_realtime(script) as (server, base_url): ...`"""
    server = LoopbackRealtime(script)
    base_url = await server.start()
    try:
        yield server, base_url
    finally:
        await server.close()
