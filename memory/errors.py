"""Typed memory-layer errors shared by both backends.

The worker branches on these, never on a backend's own exception types, so the Cloud
and local engine paths stay interchangeable.
"""

from __future__ import annotations


class MemoryLayerError(Exception):
    """Base class: something the memory layer could not do."""

    code: str = "memory_error"
    default_status: int = 500

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.status = status if status is not None else self.default_status


class MemoryUnavailable(MemoryLayerError):
    """Transient: network, timeout, 429 or 5xx. Safe to retry with the same idempotency key."""

    code = "memory_unavailable"
    default_status = 503

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
    """Permanent: bad credentials or a request the backend refuses. Retrying cannot help."""

    code = "rejected"
    default_status = 422


def error_for_status(status: int, code: str, message: str) -> MemoryLayerError:
    """One mapping from an HTTP status to the memory layer's error types."""
    if status == 404:
        return MemoryNotFound(message, code=code, status=status)
    if status == 409:
        return MemoryConflict(message, code=code, status=status)
    if status in (408, 425, 429) or status >= 500:
        return MemoryUnavailable(message, code=code, status=status)
    return MemoryRejected(message, code=code, status=status)
