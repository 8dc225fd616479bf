"""Memory-layer configuration (environment, then `.env` / `.env.local`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_CLOUD_URL = "https://api.contextdb.ai"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"


@dataclass(frozen=True)
class ExtractionModel:
    """The model the end-of-call extraction calls (any OpenAI-compatible endpoint), as the
    line's model extractor takes it (`LineFacts.from_model`'s keywords)."""

    base_url: str
    api_key: str = field(repr=False)
    model: str
    timeout_s: float


class MemorySettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=(".env", ".env.local"), extra="ignore", populate_by_name=True
    )

    # Off: calls run without memory and every consequential action fails closed.
    enabled: bool = Field(default=True, alias="MEMORY_ENABLED")
    api_key: SecretStr | None = Field(default=None, alias="CONTEXTDB_API_KEY")
    base_url: str = Field(default=DEFAULT_CLOUD_URL, alias="CONTEXTDB_BASE_URL")
    cloud_timeout_s: float = Field(default=5.0, gt=0, alias="CONTEXTDB_TIMEOUT_S")
    local_path: Path = Field(
        default=Path(".contextdb/memory.sqlite3"), alias="CONTEXTDB_LOCAL_PATH"
    )
    # Many hosts: one Postgres for pycontextdb's store (without a Cloud key) and for the
    # host's own state (ledger, outbox, attestations, directory, used claims).
    database_url: SecretStr | None = Field(default=None, alias="DATABASE_URL")
    embedding_model: str = Field(default="mock", alias="CONTEXTDB_EMBEDDING_MODEL")
    engine_idle_exit_s: float = Field(default=900.0, gt=0, alias="CONTEXTDB_ENGINE_IDLE_EXIT_S")
    outbox_path: Path = Field(default=Path(".contextdb/outbox.sqlite3"), alias="MEMORY_OUTBOX_PATH")
    # With DATABASE_URL: where this host keeps outbox rows while the shared Postgres does
    # not answer, until they are moved into it (contextdb_livekit.delivery.spill). Unset:
    # `spill.sqlite3` in the memory data directory (MEMORY_OUTBOX_PATH's), never a path of
    # its own relative to wherever the worker was started (`_spill_in_the_data_directory`).
    spill_path: Path = Field(default=Path("spill.sqlite3"), alias="MEMORY_SPILL_PATH")
    prefetch_budget_ms: int = Field(default=300, ge=1, le=5000, alias="MEMORY_PREFETCH_BUDGET_MS")
    turn_recall_budget_ms: int = Field(
        default=120, ge=1, le=2000, alias="MEMORY_TURN_RECALL_BUDGET_MS"
    )
    gate_budget_ms: int = Field(default=1500, ge=1, le=10000, alias="MEMORY_GATE_BUDGET_MS")
    # A decision still without a receipt, and none queued in the outbox, this long is closed
    # by the sweeper (the local engine process, timing it on its own monotonic clock;
    # `drain` on the shared Postgres, on the database's clock).
    decision_sweep_after_s: float = Field(
        default=3600.0, gt=0, alias="CONTEXTDB_DECISION_SWEEP_AFTER_S"
    )
    shutdown_write_budget_ms: int = Field(
        default=3000, ge=1, le=8000, alias="MEMORY_SHUTDOWN_WRITE_BUDGET_MS"
    )
    # Before the call ends the host reads back what the call would change in memory, and
    # only a yes makes it a fact (`kit.review`); off, what the extractor reads is stored as
    # facts without the caller's confirmation.
    change_readback: bool = Field(default=True, alias="MEMORY_CHANGE_READBACK")
    # End-of-call extraction: one structured-output model call (OPENAI_* settings) that falls
    # back to the rules on any failure, or the offline rules. Unset: the model whenever an
    # LLM key is configured (`extraction_mode`), else the rules.
    extraction: Literal["rules", "llm"] | None = Field(default=None, alias="MEMORY_EXTRACTION")
    # The whole model call; capped at the write budget, so extraction + write stay well
    # inside the worker's 10 s shutdown (`extraction_model`).
    extraction_timeout_s: float = Field(
        default=3.0, gt=0, le=5, alias="MEMORY_EXTRACTION_TIMEOUT_S"
    )

    @model_validator(mode="after")
    def _spill_in_the_data_directory(self) -> MemorySettings:
        # The spill is the outbox's fallback on this host: it lives where the outbox does
        # (the data volume in the image), not in the process's working directory.
        if "spill_path" not in self.model_fields_set:
            self.spill_path = self.outbox_path.parent / "spill.sqlite3"
        return self

    @field_validator("extraction", mode="before")
    @classmethod
    def _blank_extraction_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    def extraction_mode(self, llm_key_configured: bool) -> Literal["rules", "llm"]:
        """The model with an LLM key unless MEMORY_EXTRACTION says otherwise; never the model
        without a key (there is nothing to call)."""
        if not llm_key_configured:
            return "rules"
        return self.extraction or "llm"

    def extraction_model(
        self, api_key: SecretStr | None, *, base_url: str | None, model: str
    ) -> ExtractionModel | None:
        """The end-of-call extraction's model with the worker's LLM settings; None: the
        rules (`extraction_mode`). Bounded: never longer than the write that follows it, so
        extraction + write stay well inside the worker's 10 s shutdown."""
        if api_key is None or self.extraction_mode(llm_key_configured=True) != "llm":
            return None
        return ExtractionModel(
            base_url=base_url or DEFAULT_OPENAI_BASE_URL,
            api_key=api_key.get_secret_value(),
            model=model,
            timeout_s=min(self.extraction_timeout_s, self.shutdown_write_budget_ms / 1000),
        )

    @field_validator("api_key")
    @classmethod
    def _project_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        if not value.get_secret_value().startswith("cdb_"):
            raise ValueError("CONTEXTDB_API_KEY must be a ContextDB project key starting with cdb_")
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        if not value.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must be a postgresql:// URL")
        return value

    @property
    def backend_name(self) -> str:
        if self.api_key is not None:
            return "cloud"
        return "postgres" if self.database_url is not None else "local"

    @property
    def database_dsn(self) -> str | None:
        return self.database_url.get_secret_value() if self.database_url is not None else None
