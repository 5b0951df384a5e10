"""The round clock: 40 minutes of the ruleset, pauses, and per-table extensions."""

from __future__ import annotations

from taikai.core.clock import Pause, clock_state
from taikai.core.ruleset import builtin

LIMIT = builtin("dkt-2011").time.match_minutes * 60


def test_match_time_limit_comes_from_the_ruleset() -> None:  # TIME-1
    assert clock_state(LIMIT, None, (), now=0).remaining == 40 * 60


def test_running_clock_counts_down_and_calls_time() -> None:  # TIME-1
    assert clock_state(LIMIT, 1000, (), now=1600).remaining == LIMIT - 600
    state = clock_state(LIMIT, 1000, (), now=1000 + LIMIT + 5)
    assert state.status == "time" and state.remaining == 0


def test_paused_time_does_not_count() -> None:
    pauses = (Pause(1100, 1400),)
    assert clock_state(LIMIT, 1000, pauses, now=1600).remaining == LIMIT - 300
    paused = clock_state(LIMIT, 1000, (Pause(1100, None),), now=5000)
    assert paused.status == "paused" and paused.remaining == LIMIT - 100


def test_a_judge_extension_adds_time_to_one_table() -> None:  # TIME-4
    state = clock_state(LIMIT, 0, (), now=LIMIT + 30, extension=120)
    assert state.status == "running" and state.remaining == 90


def test_same_facts_give_the_same_end_on_every_screen() -> None:
    a = clock_state(LIMIT, 1000, (Pause(1100, 1200),), now=1500)
    b = clock_state(LIMIT, 1000, (Pause(1100, 1200),), now=1700)
    assert a.ends_at == b.ends_at
