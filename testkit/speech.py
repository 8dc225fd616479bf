"""Offline speech for the voice tests: espeak-ng renders it, sox converts it.

The scripted OpenAI server needs to "transcribe" caller audio with no model: callers only say
lines from CALLER_LINES, whose spoken lengths differ by at least half a second, so the voiced
length of what arrived (after Opus, resampling and VAD segmentation) picks the line. Audio
with less than MIN_SPEECH_S voiced is not speech and transcribes to nothing.
"""

from __future__ import annotations

import asyncio
import io
import math
import shutil
import subprocess
import wave
from array import array
from dataclasses import dataclass

# Each line's scripted move is in testkit/scripted_model.py.
CALLER_LINES: tuple[str, ...] = (
    "Yes please",  # ~0.9 s: the spoken yes
    "What are the open days",  # ~1.4 s: list_open_days
    "I would like to book a visit on thursday",  # ~2.4 s: book_visit(thursday)
)
MIN_SPEECH_S = 0.3
# Farther than this from every line's length: something else was said (or cut in two).
MAX_MISMATCH_S = 0.35
_FRAME_S = 0.02
# 16-bit RMS above this is voice: espeak-ng speaks at ~-12 dBFS, Opus noise stays far below.
_VOICE_RMS = 500


def _pipeline(sample_rate: int) -> list[str]:
    return [
        "sh",
        "-c",
        # $1 is the text, never parsed by the shell.
        'espeak-ng --stdout -- "$1" | sox -q -t wav - -r "$2" -c 1 -b 16 -e signed-integer '
        "-t raw -",
        "speech",
    ]


def require_tools() -> None:
    missing = [tool for tool in ("espeak-ng", "sox") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(
            f"{' and '.join(missing)} not found: `apt-get install espeak-ng sox` (.ci/run does)"
        )


def render_pcm(text: str, sample_rate: int) -> bytes:
    """Mono signed 16-bit little-endian PCM of `text` spoken at `sample_rate`."""
    require_tools()
    done = subprocess.run(
        [*_pipeline(sample_rate), text, str(sample_rate)], capture_output=True, check=True
    )
    return done.stdout


async def render_pcm_async(text: str, sample_rate: int) -> bytes:
    proc = await asyncio.create_subprocess_exec(
        *_pipeline(sample_rate),
        text,
        str(sample_rate),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"espeak-ng/sox failed: {err.decode(errors='replace')}")
    return out


def rms(samples: array) -> float:  # type: ignore[type-arg]
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples))


def voiced_seconds(pcm: bytes, sample_rate: int) -> float:
    """First to last voiced 20 ms frame: the spoken length, without the silence around it."""
    samples = array("h", pcm[: len(pcm) // 2 * 2])
    step = max(1, int(sample_rate * _FRAME_S))
    voiced = [i for i in range(0, len(samples), step) if rms(samples[i : i + step]) > _VOICE_RMS]
    if not voiced:
        return 0.0
    return (voiced[-1] - voiced[0] + step) / sample_rate


def wav_pcm(data: bytes) -> tuple[bytes, int, float]:
    """(mono PCM, sample rate, total seconds) of a 16-bit WAV file's bytes."""
    with wave.open(io.BytesIO(data)) as wav:
        if wav.getsampwidth() != 2:
            raise ValueError(f"expected 16-bit audio, got {wav.getsampwidth() * 8}-bit")
        rate, channels, frames = wav.getframerate(), wav.getnchannels(), wav.getnframes()
        pcm = wav.readframes(frames)
    if channels > 1:
        pcm = array("h", pcm)[::channels].tobytes()
    return pcm, rate, frames / rate


def pcm_to_wav(pcm: bytes, sample_rate: int) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(sample_rate)
        wav.writeframes(pcm)
    return out.getvalue()


@dataclass(frozen=True)
class Heard:
    total_s: float
    voiced_s: float
    text: str  # "" when it was not speech or not one of the lines


class LineMatcher:
    """Maps received audio to the caller line of the nearest spoken length."""

    def __init__(self, lines: tuple[str, ...] = CALLER_LINES, sample_rate: int = 16000) -> None:
        self.lengths = {
            line: voiced_seconds(render_pcm(line, sample_rate), sample_rate) for line in lines
        }

    def hear(self, pcm: bytes, sample_rate: int) -> Heard:
        total = len(pcm) / 2 / sample_rate
        voiced = voiced_seconds(pcm, sample_rate)
        if voiced < MIN_SPEECH_S:
            return Heard(total, voiced, "")
        line, length = min(self.lengths.items(), key=lambda item: abs(item[1] - voiced))
        return Heard(total, voiced, line if abs(length - voiced) <= MAX_MISMATCH_S else "")
