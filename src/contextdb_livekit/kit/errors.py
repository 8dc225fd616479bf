"""What a domain's host system raises for the kit to handle (the domain's own errors
subclass these, e.g. `CalendarUnavailable`)."""

from __future__ import annotations


class HostSystemUnavailable(Exception):
    """The system that carries out the action could not be reached, failed, or answered
    something that can't be trusted. Messages are safe to log."""


class OutcomeUnknown(HostSystemUnavailable):
    """The request may have reached the host system but no answer came back: what happened
    is looked up by the attempt's idempotency key before anything is said or retried."""
