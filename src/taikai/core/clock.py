"""The round clock as data: a start time, pauses and extensions, never a running process (TIME-1, TIME-4).

Times are plain seconds (e.g. a Unix timestamp) passed in by the caller; core never reads the clock.
The same stored facts give the same remaining time on every screen and after a server restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.problems import Problem
from taikai.core.ruleset import TimeRules


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


def round_change_problem(time: TimeRules, seconds: int, remaining: float) -> Problem | None:
    """None: the whole round's clock may move by ``seconds`` (added, or taken away when negative) with
    ``remaining`` seconds left (TIME-1). It must move, by at most the ruleset's ``round_change_max_minutes``,
    and cannot go below nothing left."""
    if seconds == 0 or abs(seconds) > time.round_change_max_minutes * 60 or remaining + seconds < 0:
        return Problem("bad-time-change", minutes=round(abs(seconds) / 60), most=time.round_change_max_minutes)
    return None


def remaining_problem(time: TimeRules, seconds: int) -> Problem | None:
    """None: the round's clock may be set to show ``seconds`` remaining, from none to the ruleset's
    ``round_change_max_minutes`` (TIME-1)."""
    if not 0 <= seconds <= time.round_change_max_minutes * 60:
        return Problem("bad-time-change", minutes=round(seconds / 60), most=time.round_change_max_minutes)
    return None
