"""Short, speakable renderings shared by the tools."""

from __future__ import annotations

from datetime import date


def spoken_day(day: date) -> str:
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B')}"
