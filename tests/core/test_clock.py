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


def test_time_1_the_round_clock_moves_within_the_rulesets_bound() -> None:  # TIME-1
    from dataclasses import replace

    from taikai.core.clock import remaining_problem, round_change_problem

    time = builtin("dkt-2011").time
    most = time.round_change_max_minutes * 60
    assert time.round_change_max_minutes == 180
    assert round_change_problem(time, most, remaining=600) is None
    assert round_change_problem(time, -600, remaining=600) is None  # down to nothing left
    for seconds, remaining in ((0, 600), (most + 1, 600), (-601, 600)):
        problem = round_change_problem(time, seconds, remaining=remaining)
        assert problem is not None and problem.code == "bad-time-change", (seconds, remaining)
        assert problem.params["most"] == 180
    assert remaining_problem(time, 0) is None and remaining_problem(time, most) is None
    assert remaining_problem(time, most + 1) is not None and remaining_problem(time, -1) is not None
    short = replace(time, round_change_max_minutes=30)
    assert round_change_problem(short, 31 * 60, remaining=600) is not None
    assert remaining_problem(short, 31 * 60) is not None and remaining_problem(short, 30 * 60) is None
