"""Worker settings: environment first, then `.env` and `.env.local` (python-dotenv format)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from contextdb_livekit.identity.claims import MIN_SECRET_BYTES
from contextdb_livekit.kit.caller_turns import DEFAULT_TRANSCRIPT_WAIT_S
from contextdb_livekit.worker.ring import DEFAULT_RING_TIMEOUT_S

GENERATE_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(48))"'
# Values that mean "nobody set this": the .env.example template and the usual stand-ins. A
# copied template must not run with a secret anyone can read (and so sign claims with).
TEMPLATE_IDENTITY_SECRET = "change-me-to-a-long-random-secret-of-32-bytes-or-more"
_PLACEHOLDER_MARKERS = (
    "change-me",
    "changeme",
    "change_me",
    "replace-me",
    "replaceme",
    "placeholder",
    "your-secret",
    "your_secret",
    "example",
    "<secret>",
)


class WorkerSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"), extra="ignore", populate_by_name=True
    )

    livekit_url: str | None = Field(default=None, alias="LIVEKIT_URL")
    livekit_api_key: str | None = Field(default=None, alias="LIVEKIT_API_KEY")
    livekit_api_secret: SecretStr | None = Field(default=None, alias="LIVEKIT_API_SECRET")
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")

    agent_name: str = Field(default="scheduling-agent", alias="AGENT_NAME")
    identity_signing_secret: SecretStr | None = Field(default=None, alias="IDENTITY_SIGNING_SECRET")
    llm_model: str = Field(default="gpt-4.1-mini", alias="OPENAI_LLM_MODEL")
    stt_model: str = Field(default="gpt-4o-mini-transcribe", alias="OPENAI_STT_MODEL")
    tts_model: str = Field(default="gpt-4o-mini-tts", alias="OPENAI_TTS_MODEL")
    tts_voice: str = Field(default="ash", alias="OPENAI_TTS_VOICE")
    use_realtime_model: bool = Field(default=False, alias="USE_REALTIME_MODEL")
    realtime_model: str = Field(default="gpt-realtime", alias="OPENAI_REALTIME_MODEL")
    # With a realtime model: how long the confirmation waits for the caller's answer to be
    # transcribed when the model called it first (then the host asks again).
    realtime_transcript_wait_s: float = Field(
        default=DEFAULT_TRANSCRIPT_WAIT_S, gt=0, le=30, alias="REALTIME_TRANSCRIPT_WAIT_S"
    )

    sip_caller_id_may_book: bool = Field(default=False, alias="SIP_CALLER_ID_MAY_BOOK")
    customer_directory_path: Path = Field(
        default=Path(".data/customers.sqlite3"), alias="CUSTOMER_DIRECTORY_PATH"
    )
    attestation_path: Path = Field(
        default=Path(".data/attestations.sqlite3"), alias="ATTESTATION_PATH"
    )
    # Ids of identity claims already used to join (one sign-in joins once).
    claim_registry_path: Path = Field(
        default=Path(".data/claims.sqlite3"), alias="CLAIM_REGISTRY_PATH"
    )
    # LiveKit's defaults when unset: 0 warm processes in dev, one per core in production;
    # health/HTTP port random in dev, 8081 in production.
    num_idle_processes: int | None = Field(default=None, ge=0, alias="WORKER_NUM_IDLE_PROCESSES")
    http_port: int | None = Field(default=None, ge=0, le=65535, alias="WORKER_HTTP_PORT")
    # Capacity counted in calls, not in host CPU. LiveKit's default load is the whole host's
    # CPU, so a host busy with other work (a shared node, a CI runner) is refused calls by the
    # server ("no workers with sufficient capacity") even when this worker is idle. Set, the
    # worker reports active calls / WORKER_MAX_CALLS and takes calls until it has that many.
    max_calls: int | None = Field(default=None, ge=1, alias="WORKER_MAX_CALLS")
    participant_wait_s: float = Field(default=30.0, gt=0, alias="PARTICIPANT_WAIT_S")
    # A phone caller's line may ring this long unanswered; then the call ends and its
    # recalled memory is revoked (worker.ring). Bounded so a ring never holds memory long.
    ring_timeout_s: float = Field(
        default=DEFAULT_RING_TIMEOUT_S, gt=0, le=300, alias="RING_TIMEOUT_S"
    )
    # Prometheus: LiveKit's worker metrics and memory's series on :PORT/metrics; the job
    # processes report through files in the directory (multiprocess mode). Unset: off.
    prometheus_port: int | None = Field(
        default=None, ge=0, le=65535, alias="WORKER_PROMETHEUS_PORT"
    )
    prometheus_dir: Path | None = Field(default=None, alias="WORKER_PROMETHEUS_DIR")

    @property
    def metrics_dir(self) -> Path:
        """Where the job processes' metric files go. LiveKit deletes every file in it when
        the worker starts: never a directory that holds data (`worker.startup`)."""
        return self.prometheus_dir or Path(".data") / "prometheus"

    # "vad": Silero VAD ends the turn after the endpointing delay; works with any LiveKit
    # server, offline. "stt": the STT's end of utterance. "auto": livekit-agents picks, which in
    # 1.8 means its LiveKit Cloud turn detector (off, with warnings, on a self-hosted server).
    turn_detection: Literal["vad", "stt", "auto"] = Field(default="vad", alias="TURN_DETECTION")

    def missing_required(self) -> list[str]:
        """Names of the settings a worker cannot run without, in the order to fix them."""
        required = {
            "LIVEKIT_URL": self.livekit_url,
            "LIVEKIT_API_KEY": self.livekit_api_key,
            "LIVEKIT_API_SECRET": self.livekit_api_secret,
            "OPENAI_API_KEY": self.openai_api_key,
            "IDENTITY_SIGNING_SECRET": self.identity_signing_secret,
        }
        missing = [name for name, value in required.items() if not _present(value)]
        # A template or placeholder secret counts as not set, so any check built on this
        # list refuses it; problems() says why and how to make one.
        if "IDENTITY_SIGNING_SECRET" not in missing and self.identity_secret_problem():
            missing.append("IDENTITY_SIGNING_SECRET")
        return missing

    def identity_secret_problem(self) -> str | None:
        """Why IDENTITY_SIGNING_SECRET cannot be used, or None (also None when it is unset:
        missing_required() names that)."""
        if not _present(self.identity_signing_secret):
            return None
        assert self.identity_signing_secret is not None
        secret = self.identity_signing_secret.get_secret_value().strip()
        if is_placeholder_secret(secret):
            return (
                "IDENTITY_SIGNING_SECRET is the .env.example template or a placeholder; anyone "
                f"who reads it can sign caller claims. Generate one with: {GENERATE_SECRET}"
            )
        if len(secret.encode()) < MIN_SECRET_BYTES:
            return (
                f"IDENTITY_SIGNING_SECRET is shorter than {MIN_SECRET_BYTES} bytes. "
                f"Generate one with: {GENERATE_SECRET}"
            )
        return None

    def problems(self) -> list[str]:
        """Every configuration problem as one message each, in the order to fix them."""
        messages = [
            f"{name} is not set"
            for name in self.missing_required()
            if name != "IDENTITY_SIGNING_SECRET" or not _present(self.identity_signing_secret)
        ]
        if secret := self.identity_secret_problem():
            messages.append(secret)
        return messages


def is_placeholder_secret(secret: str) -> bool:
    lowered = secret.strip().lower()
    if lowered == TEMPLATE_IDENTITY_SECRET or len(set(lowered)) <= 2:
        return True  # the template itself, or "xxxx…" / "0000…" / "abab…"
    return any(marker in lowered for marker in _PLACEHOLDER_MARKERS)


def _present(value: str | SecretStr | None) -> bool:
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    return bool(value and value.strip())
