"""The round clock as data: a start time, pauses and extensions, never a running process (TIME-1, TIME-4).

Times are plain seconds (e.g. a Unix timestamp) passed in by the caller; core never reads the clock.
The same stored facts give the same remaining time on every screen and after a server restart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pause:
    start: float
    end: float | None  # None while the clock is paused


@dataclass(frozen=True)
class ClockState:
    status: str  # "not-started", "running", "paused", "time"
    elapsed: float
    remaining: float
    ends_at: float | None  # wall-clock end while running; None otherwise


def paused_seconds(pauses: tuple[Pause, ...], now: float) -> float:
    return sum((p.end if p.end is not None else now) - p.start for p in pauses)


def clock_state(
    limit_seconds: float, started_at: float | None, pauses: tuple[Pause, ...], now: float, extension: float = 0
) -> ClockState:
    """Remaining time of a round (or of one table, with its judge's ``extension`` in seconds, TIME-4)."""
    total = limit_seconds + extension
    if started_at is None:
        return ClockState("not-started", 0.0, total, None)
    elapsed = max(0.0, now - started_at - paused_seconds(pauses, now))
    remaining = total - elapsed
    if pauses and pauses[-1].end is None:
        return ClockState("paused", elapsed, max(0.0, remaining), None)
    if remaining <= 0:
        return ClockState("time", elapsed, 0.0, None)
    return ClockState("running", elapsed, remaining, now + remaining)
