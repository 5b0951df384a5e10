"""What comes next: Swiss rounds, then the top cut, then the bracket until one player is left."""

from __future__ import annotations

import dataclasses

import pytest

from taikai.core.progress import EventFormat, NextAction, Progress, next_action

SWISS, CUT, ELIM = EventFormat.SWISS, EventFormat.SWISS_CUT, EventFormat.ELIMINATION


@pytest.mark.parametrize(
    "progress, expected",
    [
        (Progress(SWISS, 3, 0, 0, 0), NextAction.PAIR_SWISS),
        (Progress(SWISS, 3, 0, 2, 0), NextAction.PAIR_SWISS),
        (Progress(SWISS, 3, 0, 3, 0), NextAction.FINISHED),
        (Progress(CUT, 3, 4, 3, 0), NextAction.TOP_CUT),
        (Progress(CUT, 3, 0, 3, 0), NextAction.FINISHED),  # no cut for this attendance
        (Progress(CUT, 3, 4, 3, 1, advancing=2), NextAction.PAIR_ELIMINATION),
        (Progress(CUT, 3, 4, 3, 2, advancing=1), NextAction.FINISHED),  # the final is decided
        (Progress(ELIM, 0, 0, 0, 0), NextAction.PAIR_ELIMINATION),
        (Progress(ELIM, 0, 0, 0, 1, advancing=3), NextAction.PAIR_ELIMINATION),
        (Progress(ELIM, 0, 0, 0, 3, advancing=1), NextAction.FINISHED),
    ],
)
def test_next_action_follows_the_format(progress: Progress, expected: NextAction) -> None:
    assert next_action(progress) == expected


def test_an_open_table_must_finish_first_whatever_the_stage() -> None:
    for p in (Progress(SWISS, 3, 0, 1, 0), Progress(CUT, 3, 4, 3, 1, advancing=1), Progress(ELIM, 0, 0, 0, 1)):
        assert next_action(dataclasses.replace(p, last_round_complete=False)) == NextAction.FINISH_ROUND


def test_a_closed_event_is_finished_even_with_rounds_left() -> None:
    assert next_action(Progress(SWISS, 5, 0, 2, 0, closed=True)) == NextAction.FINISHED


def test_a_swiss_round_is_never_paired_after_the_cut() -> None:
    # Swiss rounds planned later (e.g. more players registered) do not reopen Swiss once the bracket began.
    assert next_action(Progress(CUT, 5, 4, 3, 1, advancing=2)) == NextAction.PAIR_ELIMINATION


# --- the Swiss rounds and the top cut (issue 22) --------------------------------------------------------


def test_blank_numbers_come_from_the_attendance_table() -> None:
    from taikai.core.progress import RoundPlan, round_plan
    from taikai.core.ruleset import builtin

    rules = builtin("dkt-2011")  # [[tournament.swiss_rounds]]: up to 16 -> 4, up to 32 -> 5; cut up to 32 -> 4
    assert round_plan(CUT, rules, 16, None, None) == RoundPlan(4, 4)
    assert round_plan(CUT, rules, 17, None, None) == RoundPlan(5, 4)
    assert round_plan(CUT, rules, 8, None, None) == RoundPlan(3, 0)
    assert round_plan(CUT, rules, 17, 6, 8) == RoundPlan(6, 8)  # the organizer's numbers win
    assert round_plan(SWISS, rules, 17, None, 8) == RoundPlan(5, 0)  # no cut in a Swiss event
    assert round_plan(ELIM, rules, 17, None, None) == RoundPlan(0, 0)


@pytest.mark.parametrize(
    "facts, new, code",
    [
        (Progress(CUT, 4, 4, 2, 0), (2, 4), None),  # as many rounds as paired: the last one is the last
        (Progress(CUT, 4, 4, 2, 0), (1, 4), "plan-rounds-paired"),
        (Progress(CUT, 4, 4, 4, 1), (5, 4), "plan-cut-made"),
        (Progress(CUT, 4, 4, 4, 1), (4, 8), "plan-cut-made"),
        (Progress(CUT, 4, 4, 4, 1), (4, 4), None),
        (Progress(CUT, 4, 4, 0, 0), (0, 4), "swiss-rounds-range"),
        (Progress(CUT, 4, 4, 0, 0), (31, 4), "swiss-rounds-range"),
        (Progress(CUT, 4, 4, 0, 0), (4, 1), "top-cut-range"),
        (Progress(CUT, 4, 4, 0, 0), (4, 0), None),
        (Progress(SWISS, 4, 0, 4, 0, closed=True), (5, 0), "event-finished"),
    ],
)
def test_a_change_of_plan_never_contradicts_rounds_paired(
    facts: Progress, new: tuple[int, int], code: str | None
) -> None:
    from taikai.core.progress import RoundPlan, round_plan_problem

    problem = round_plan_problem(facts, RoundPlan(*new))
    assert (problem.code if problem else None) == code
