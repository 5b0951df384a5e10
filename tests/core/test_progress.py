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
