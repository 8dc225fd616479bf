"""Typed input is read with a bound (worker.typed_input): a stream that never closes is never
held whole, and what was kept still reaches the call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from livekit import rtc

from contextdb_livekit.worker.typed_input import TypedInput, read_bounded
from tests.worker.test_room_guard import FakeParticipant, setup


class EndlessStream:
    """A text stream reader whose sender never closes it: it yields `chunk` for as long as
    it is read, and counts what was taken from it."""

    def __init__(self, chunk: str, *, chunks: int | None = None) -> None:
        self.chunk = chunk
        self.remaining = chunks
        self.read = 0
        self.closed = False
        self.info = None

    def __aiter__(self) -> AsyncIterator[str]:
        return self

    async def __anext__(self) -> str:
        if self.closed or self.remaining == 0:
            raise StopAsyncIteration
        if self.remaining is not None:
            self.remaining -= 1
        self.read += 1
        await asyncio.sleep(0)
        return self.chunk

    def close(self) -> None:
        self.closed = True


async def test_a_stream_that_never_closes_is_read_only_up_to_the_bound():
    stream = EndlessStream("x" * 1000)
    bounded = await asyncio.wait_for(read_bounded(stream, 16_000), 10)
    assert not bounded.complete
    assert len(bounded.text.encode()) == 16_000
    assert stream.read == 17  # stopped at the first chunk past the bound


async def test_a_short_stream_is_read_whole():
    stream = EndlessStream("hello ", chunks=3)
    bounded = await read_bounded(stream, 16_000)
    assert bounded == type(bounded)("hello hello hello ", complete=True)


async def test_the_bound_is_in_bytes_and_never_splits_a_character():
    stream = EndlessStream("é" * 10)  # 20 bytes a chunk
    bounded = await read_bounded(stream, 25)
    assert bounded.text == "é" * 12 and not bounded.complete  # 24 bytes; half of one dropped


class Room:
    def __init__(self, *participants: FakeParticipant) -> None:
        self.remote_participants = {p.identity: p for p in participants}
        self.handlers: dict[str, object] = {}

    def register_text_stream_handler(self, topic: str, handler: object) -> None:
        self.handlers[topic] = handler

    def unregister_text_stream_handler(self, topic: str) -> None:
        self.handlers.pop(topic, None)


async def settled(typed: TypedInput) -> None:
    while typed._tasks:
        await asyncio.gather(*typed._tasks)


async def test_a_never_closed_message_reaches_the_call_cut_and_is_closed(tmp_path, local_engine):
    *_, session, linked, guard = setup(tmp_path, local_engine, None)
    room = Room(linked)
    delivered: list[str] = []

    async def on_text(_session, event) -> None:  # type: ignore[no-untyped-def]
        delivered.append(event.text)

    typed = TypedInput(room, session, guard, on_text, max_bytes=4000).attach()  # type: ignore[arg-type]
    assert room.handlers["lk.chat"] == typed.on_stream
    endless = EndlessStream("can you come thursday " * 10)
    typed.on_stream(endless, linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    [text] = delivered
    assert text.startswith("can you come thursday") and len(text.encode()) <= 4000
    assert endless.closed and endless.read < 30  # the rest is never read
    # The caller's next message still gets through.
    typed.on_stream(EndlessStream("which days are open?", chunks=1), linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    assert delivered[-1] == "which days are open?"


async def test_streams_from_others_or_beyond_the_open_limit_are_closed_unread(
    tmp_path, local_engine
):
    *_, session, linked, guard = setup(tmp_path, local_engine, None)
    stranger = FakeParticipant("listener")
    room = Room(linked, stranger)
    delivered: list[str] = []
    release = asyncio.Event()

    async def on_text(_session, event) -> None:  # type: ignore[no-untyped-def]
        await release.wait()
        delivered.append(event.text)

    typed = TypedInput(room, session, guard, on_text, max_open=2)  # type: ignore[arg-type]
    theirs = EndlessStream("yes")
    typed.on_stream(theirs, stranger.identity)  # type: ignore[arg-type]
    assert theirs.closed and theirs.read == 0
    first, second, third = (EndlessStream("yes", chunks=1) for _ in range(3))
    for stream in (first, second, third):
        typed.on_stream(stream, linked.identity)  # type: ignore[arg-type]
    assert third.closed and third.read == 0  # two already open: the third is not read
    release.set()
    await asyncio.wait_for(settled(typed), 10)
    assert delivered == ["yes", "yes"]


async def test_an_aborted_stream_is_dropped(tmp_path, local_engine):
    *_, session, linked, guard = setup(tmp_path, local_engine, None)
    delivered: list[str] = []

    async def on_text(_session, event) -> None:  # type: ignore[no-untyped-def]
        delivered.append(event.text)

    class Aborted(EndlessStream):
        async def __anext__(self) -> str:
            raise rtc.StreamError("aborted")

    typed = TypedInput(Room(linked), session, guard, on_text)  # type: ignore[arg-type]
    stream = Aborted("x")
    typed.on_stream(stream, linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    assert delivered == [] and stream.closed


async def test_a_replacement_the_worker_has_not_heard_of_yet_is_not_the_caller(
    tmp_path, local_engine
):
    """The server hands the caller's identity to a new connection and relays its data before
    the worker hears of the join: the room still shows the caller, the message names only
    the identity. The server's answer decides, and it fails closed."""
    _, _, ctx, session, linked, guard = setup(tmp_path, local_engine, None)
    delivered: list[str] = []

    async def on_text(_session, event) -> None:  # type: ignore[no-untyped-def]
        delivered.append(event.text)

    typed = TypedInput(Room(linked), session, guard, on_text)  # type: ignore[arg-type]
    ctx.server[linked.identity] = "PA_impostor"
    typed.on_stream(EndlessStream("yes", chunks=1), linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    ctx.server[linked.identity] = RuntimeError("server unreachable")
    typed.on_stream(EndlessStream("yes", chunks=1), linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    del ctx.server[linked.identity]  # nobody holds it now
    typed.on_stream(EndlessStream("yes", chunks=1), linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    assert delivered == []
    ctx.server[linked.identity] = linked.sid  # the caller's own connection holds it again
    typed.on_stream(EndlessStream("yes please", chunks=1), linked.identity)  # type: ignore[arg-type]
    await asyncio.wait_for(settled(typed), 10)
    assert delivered == ["yes please"]
