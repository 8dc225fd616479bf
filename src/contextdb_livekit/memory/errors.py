"""Typed memory-layer errors shared by both backends.

The worker branches on these, never on a backend's own exception types, so the Cloud
and local engine paths stay interchangeable. Each error says what its caller should do
(`disposition`): retry later, fix configuration, or never retry.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Disposition = Literal["retry", "needs_config", "dead"]


class MemoryLayerError(Exception):
    """Base class: something the memory layer could not do."""

    code: str = "memory_error"
    default_status: int = 500
    # What a caller holding a durable copy (the outbox) should do with it.
    disposition: Disposition = "dead"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.status = status if status is not None else self.default_status


class MemoryUnavailable(MemoryLayerError):
    """Transient: network, timeout, 429, 5xx or an unreadable 2xx. Safe to retry with the same
    idempotency key; `retry_after_s` is the backend's own hint when it gave one."""

    code = "memory_unavailable"
    default_status = 503
    disposition: Disposition = "retry"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message, code=code, status=status)
        self.retry_after_s = retry_after_s


class MemoryNotFound(MemoryLayerError):
    """Unknown memory or decision, or one outside the caller's partition (indistinguishable)."""

    code = "not_found"
    default_status = 404


class MemoryConflict(MemoryLayerError):
    """A second, different terminal receipt, or an idempotency key reused with another payload."""

    code = "conflict"
    default_status = 409


class MemoryRejected(MemoryLayerError):
    """Permanent: a request the backend refuses (422 and other 4xx). Retrying cannot help."""

    code = "rejected"
    default_status = 422


class MemoryAuthError(MemoryRejected):
    """401/403: the configured key is wrong or lacks rights. The same request succeeds once
    the configuration is fixed, so durable copies wait for a new key instead of dying."""

    code = "unauthorized"
    default_status = 401
    disposition: Disposition = "needs_config"


class OutboxUnavailable(MemoryLayerError):
    """The outbox file cannot be written at all (disk full, read-only, unopenable). Callers
    deliver directly instead: the outbox is a fallback, never a gate."""

    code = "outbox_unavailable"
    default_status = 507
    disposition: Disposition = "retry"

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"outbox {path} cannot be written: {reason}")
        self.path = path
        self.reason = reason


# Codes the Cloud client (and the engine client) use for a body they could not read: a proxy
# or a half-deployed backend answered, which says nothing permanent about the request.
_UNREADABLE_CODES = frozenset({"non_json", "invalid_response"})


def error_for_status(status: int, code: str, message: str) -> MemoryLayerError:
    """One mapping from an HTTP status to the memory layer's error types."""
    if status < 400 or (code in _UNREADABLE_CODES and status not in (401, 403)):
        # A 2xx we could not read (or an HTML error page) is a transient contract break.
        return MemoryUnavailable(message, code=code, status=status)
    if status in (401, 403):
        return MemoryAuthError(message, code=code, status=status)
    if status == 404:
        return MemoryNotFound(message, code=code, status=status)
    if status == 409:
        return MemoryConflict(message, code=code, status=status)
    if status in (408, 425, 429) or status >= 500:
        return MemoryUnavailable(message, code=code, status=status)
    return MemoryRejected(message, code=code, status=status)


@dataclass(frozen=True)
class Failure:
    """What to do with a durable row after one failed delivery."""

    disposition: Disposition
    reason: str
    retry_after_s: float | None = None


def classify_failure(exc: BaseException) -> Failure:
    """Any exception → retry / needs_config / dead, with a one-line reason for the row.

    Unknown exceptions (a bug, a resolver's own error) are retried: parking them would hide
    a fault that a deploy may fix, and the attempt cap parks them eventually anyway.
    """
    if isinstance(exc, TimeoutError):
        return Failure("retry", "timeout: the call did not finish in time")
    if isinstance(exc, MemoryLayerError):
        retry_after = exc.retry_after_s if isinstance(exc, MemoryUnavailable) else None
        return Failure(exc.disposition, f"{exc.code}: {exc}"[:500], retry_after)
    return Failure("retry", f"{type(exc).__name__}: {exc}"[:500])
