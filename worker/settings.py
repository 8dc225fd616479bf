"""Worker settings: environment first, then `.env` and `.env.local` (python-dotenv format)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    participant_wait_s: float = Field(default=30.0, gt=0, alias="PARTICIPANT_WAIT_S")

    def missing_required(self) -> list[str]:
        """Names of the settings a worker cannot run without, in the order to fix them."""
        required = {
            "LIVEKIT_URL": self.livekit_url,
            "LIVEKIT_API_KEY": self.livekit_api_key,
            "LIVEKIT_API_SECRET": self.livekit_api_secret,
            "OPENAI_API_KEY": self.openai_api_key,
            "IDENTITY_SIGNING_SECRET": self.identity_signing_secret,
        }
        return [name for name, value in required.items() if not _present(value)]


def _present(value: str | SecretStr | None) -> bool:
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    return bool(value and value.strip())
