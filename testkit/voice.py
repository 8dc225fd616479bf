"""A caller that speaks: publishes a microphone track of espeak-ng speech and listens to the
agent's audio track, timing end of caller speech → first voiced agent frame."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import time
from dataclasses import dataclass, field

import numpy as np
from livekit import rtc

from testkit.harness import Caller, LiveKit, Worker, join_as_caller
from testkit.speech import render_pcm

SAMPLE_RATE = 48000
FRAME_S = 0.02  # 20 ms frames, what WebRTC's Opus packs
FRAME_SAMPLES = int(SAMPLE_RATE * FRAME_S)
# An agent frame with RMS above this carries voice (espeak-ng speech is ~-12 dBFS; decoded
# silence is ~0).
AGENT_VOICE_RMS = 300.0
_SPEECH_CACHE: dict[str, np.ndarray] = {}


def spoken(line: str) -> np.ndarray:
    """The line's samples at 48 kHz, trimmed to the voice (so the last sample sent is the end
    of speech), rendered once per process."""
    if line not in _SPEECH_CACHE:
        samples = np.frombuffer(render_pcm(line, SAMPLE_RATE), dtype=np.int16)
        frames = samples[: len(samples) // FRAME_SAMPLES * FRAME_SAMPLES].reshape(-1, FRAME_SAMPLES)
        loud = np.flatnonzero(np.sqrt((frames.astype(np.float64) ** 2).mean(axis=1)) > 500)
        _SPEECH_CACHE[line] = frames[loud[0] : loud[-1] + 1].reshape(-1).copy()
    return _SPEECH_CACHE[line]


@dataclass
class VoiceCaller:
    text: Caller  # the agent's words arrive on lk.transcription, as for a text caller
    source: rtc.AudioSource
    agent_voiced_at: list[float] = field(default_factory=list)  # monotonic, per voiced frame
    _speech: asyncio.Queue[tuple[np.ndarray, asyncio.Future[float]]] = field(
        default_factory=asyncio.Queue
    )
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _agent_track: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def room(self) -> rtc.Room:
        return self.text.room

    async def say(self, line: str) -> float:
        """Speak one line; returns the monotonic time its last voiced sample was sent."""
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        await self._speech.put((spoken(line), done))
        return await done

    def start_saying(self, line: str) -> asyncio.Future[float]:
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._speech.put_nowait((spoken(line), done))
        return done

    async def agent_voice_after(self, since: float, timeout_s: float = 20) -> float:
        """The first voiced agent frame received after `since` (monotonic)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            # Appended in time order, so the first frame after `since` is a bisection away.
            index = bisect.bisect_right(self.agent_voiced_at, since)
            if index < len(self.agent_voiced_at):
                return self.agent_voiced_at[index]
            await asyncio.sleep(0.005)
        raise TimeoutError(f"no agent voice within {timeout_s} s")

    async def agent_quiet(self, for_s: float = 0.8, timeout_s: float = 30) -> float:
        """Waits until the agent has been silent for `for_s`; returns when its voice stopped."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            last = self.agent_voiced_at[-1] if self.agent_voiced_at else 0.0
            if time.monotonic() - last >= for_s:
                return last
            await asyncio.sleep(0.02)
        raise TimeoutError(f"agent still speaking after {timeout_s} s")

    def agent_speaking(self, within_s: float = 0.2) -> bool:
        return bool(self.agent_voiced_at) and time.monotonic() - self.agent_voiced_at[-1] < within_s

    async def wait_agent_track(self, timeout_s: float = 30) -> None:
        await asyncio.wait_for(self._agent_track.wait(), timeout_s)

    async def _pump(self) -> None:
        # Real-time 20 ms frames, silence between lines: the agent's VAD needs the silence
        # after speech to see the speech end, as from a real microphone.
        silence = np.zeros(FRAME_SAMPLES, dtype=np.int16)
        current: np.ndarray | None = None
        done: asyncio.Future[float] | None = None
        offset = 0
        next_at = time.monotonic()
        while True:
            if current is None and not self._speech.empty():
                current, done = self._speech.get_nowait()
                offset = 0
            if current is not None:
                chunk = current[offset : offset + FRAME_SAMPLES]
                offset += FRAME_SAMPLES
                if len(chunk) < FRAME_SAMPLES:
                    chunk = np.concatenate([chunk, silence[: FRAME_SAMPLES - len(chunk)]])
            else:
                chunk = silence
            frame = rtc.AudioFrame(chunk.tobytes(), SAMPLE_RATE, 1, FRAME_SAMPLES)
            await self.source.capture_frame(frame)
            if current is not None and offset >= len(current):
                assert done is not None
                if not done.done():
                    done.set_result(time.monotonic())
                current, done = None, None
            next_at += FRAME_S
            lag = time.monotonic() - next_at
            if lag > 0.1:
                # Behind (a busy machine): carry on from now rather than burst frames to catch
                # up, which would shorten the silence the agent's VAD needs between lines.
                next_at = time.monotonic()
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    async def _listen(self, track: rtc.Track) -> None:
        stream = rtc.AudioStream(
            track, sample_rate=SAMPLE_RATE, num_channels=1, frame_size_ms=int(FRAME_S * 1000)
        )
        self._agent_track.set()
        async for event in stream:
            samples = np.frombuffer(event.frame.data, dtype=np.int16).astype(np.float64)
            if samples.size and np.sqrt((samples**2).mean()) > AGENT_VOICE_RMS:
                self.agent_voiced_at.append(time.monotonic())

    async def hang_up(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.text.hang_up()
        await self.source.aclose()


async def join_as_voice_caller(
    livekit: LiveKit, worker: Worker, customer_id: str, **kwargs: str
) -> VoiceCaller:
    text = await join_as_caller(livekit, worker, customer_id, **kwargs)
    source = rtc.AudioSource(SAMPLE_RATE, 1, queue_size_ms=50)
    caller = VoiceCaller(text, source)
    loop = asyncio.get_running_loop()

    def listen(track: rtc.Track, participant: rtc.RemoteParticipant) -> None:
        if track.kind == rtc.TrackKind.KIND_AUDIO and participant.identity.startswith("agent"):
            caller._tasks.append(loop.create_task(caller._listen(track)))

    text.room.on(
        "track_subscribed",
        lambda track, _publication, participant: listen(track, participant),
    )
    for participant in text.room.remote_participants.values():
        for publication in participant.track_publications.values():
            if publication.track is not None:
                listen(publication.track, participant)
    track = rtc.LocalAudioTrack.create_audio_track("microphone", source)
    await text.room.local_participant.publish_track(
        track, rtc.TrackPublishOptions(source=rtc.TrackSource.SOURCE_MICROPHONE)
    )
    caller._tasks.append(loop.create_task(caller._pump()))
    return caller
