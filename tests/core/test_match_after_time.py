"""After time is called: the duel under time and the match, by the OFF C tables (RULES.md TIME-S-1..7, TIME-E-1..7)."""

from __future__ import annotations

import pytest

from taikai.core.match import (
    Chooser,
    Next,
    Score,
)
from taikai.core.match_record import Duel, Format, Player
from tests.core.duels import DRAW, DRAW_IN_TIME, A, B, elimination, extra, refused, swiss, timed, won

# --- TIME-S-1, TIME-S-2: the duel in which time was called (Swiss) ----------------------------------


def test_time_s_1_a_win_during_the_extra_turns_ends_the_duel_normally() -> None:
    state = swiss(won(A), won(B, time_called=True))
    assert (state.finished, state.draw) == (True, True)
    assert state.rules[0] == "TIME-S-1"


def test_time_s_1_a_game_draw_during_the_extra_turns_is_a_drawn_duel() -> None:
    state = swiss(won(A), DRAW_IN_TIME)
    assert (state.winner, state.score) == (A, Score(a=1, draws=1))


def test_time_s_2_more_lp_after_the_extra_turns_wins_the_duel() -> None:
    state = swiss(timed(1200, 900))
    assert (state.winner, state.score, state.rules) == (A, Score(a=1), ("TIME-S-2", "TIME-S-5"))


def test_time_s_2_equal_lp_after_the_extra_turns_is_a_drawn_duel() -> None:
    state = swiss(won(B), timed(2000, 2000))
    assert state.score == Score(b=1, draws=1)
    assert state.winner is B


def test_time_s_2_there_is_no_sudden_death_in_swiss() -> None:
    error = refused(Format.SWISS, timed(2000, 2000, sudden_death=A))
    assert error.problem.code == "sudden-death-not-allowed"
    assert error.problem.params["duel"] == 1


# --- TIME-S-3..5: the OFF tables, row by row ------------------------------------------------------

SWISS_TABLE_ROWS = [
    # TIME-S-3: time called during duel 3
    ("TIME-S-3", "2-1", (won(A), won(B), timed(3000, 2000)), A),
    ("TIME-S-3", "1 win 2 draws", (won(A), DRAW, timed(3000, 3000)), A),
    ("TIME-S-3", "1 win 2 draws, the win in extra turns", (DRAW, DRAW, won(B, time_called=True)), B),
    ("TIME-S-3", "1-1-1", (won(A), won(B), timed(1000, 1000)), None),
    ("TIME-S-3", "1-1-1, the draw first", (DRAW, won(A), timed(100, 4000)), None),
    ("TIME-S-3", "3 draws", (DRAW, DRAW, timed(500, 500)), None),
    # TIME-S-4: time called during duel 2
    ("TIME-S-4", "2-0", (won(A), timed(3000, 2000)), A),
    ("TIME-S-4", "1 win 1 draw", (won(B), timed(2000, 2000)), B),
    ("TIME-S-4", "1 win 1 draw, the draw first", (DRAW, timed(2000, 2100)), B),
    ("TIME-S-4", "1-1", (won(A), timed(2000, 2100)), None),
    ("TIME-S-4", "2 draws", (DRAW, timed(2000, 2000)), None),
    # TIME-S-5: time called during duel 1
    ("TIME-S-5", "1-0", (timed(2000, 1000),), A),
    ("TIME-S-5", "1-0 in the extra turns", (won(B, time_called=True),), B),
    ("TIME-S-5", "draw", (timed(2000, 2000),), None),
]


@pytest.mark.parametrize(
    ("rule", "row", "duels", "winner"), SWISS_TABLE_ROWS, ids=[f"{r[0]} {r[1]}" for r in SWISS_TABLE_ROWS]
)
def test_time_s_3_4_5_swiss_table_rows(rule: str, row: str, duels: tuple[Duel, ...], winner: Player | None) -> None:
    state = swiss(*duels)
    assert (state.finished, state.winner, state.draw) == (True, winner, winner is None)
    assert (state.next, state.chooser) == (None, None)
    assert state.rules[-1] == rule


def test_time_s_7_two_wins_and_a_draw_is_not_a_table_row_but_more_wins_win() -> None:
    state = swiss(won(A), DRAW, timed(3000, 2000))
    assert (state.winner, state.score, state.rules) == (A, Score(a=2, draws=1), ("TIME-S-2", "TIME-S-7"))


def test_time_s_7_the_issue_example_record() -> None:
    # The issue's example: A won duel 1, duel 2 drawn, time in duel 3 with A on more LP (A wins duel 3).
    state = swiss(won(A), DRAW, timed(3000, 2000))
    assert (state.finished, state.winner, state.draw) == (True, A, False)


# --- TIME-S-6: time called between duels -----------------------------------------------------------

SWISS_BETWEEN_ROWS = [
    ("1-0", (won(A),), A),
    ("0-1", (won(B),), B),
    ("1-1", (won(A), won(B)), None),
    ("before duel 1", (), None),
    ("a drawn duel", (DRAW,), None),
    ("1 win 1 draw: duel wins decide", (won(A), DRAW), A),
]


@pytest.mark.parametrize(("row", "duels", "winner"), SWISS_BETWEEN_ROWS, ids=[r[0] for r in SWISS_BETWEEN_ROWS])
def test_time_s_6_between_duels_the_duel_score_decides(
    row: str, duels: tuple[Duel, ...], winner: Player | None
) -> None:
    state = swiss(*duels, between=True)
    assert (state.finished, state.winner, state.draw) == (True, winner, winner is None)
    assert state.rules[-1] == "TIME-S-6"


def test_time_s_6_no_extra_duel_in_swiss() -> None:
    error = refused(Format.SWISS, won(A), won(B), extra(won(A)), between=True)
    assert error.problem.code == "duel-after-match-end"
    error = refused(Format.SWISS, won(A), extra(won(A)))
    assert error.problem.code == "extra-duel-not-allowed"


def test_time_s_7_after_time_more_duel_wins_win_the_match() -> None:
    assert swiss(won(A), timed(1, 2)).draw
    assert swiss(won(A), won(B, time_called=True)).draw
    assert swiss(DRAW, won(A, time_called=True)).winner is A


# --- TIME-E: single elimination (判定1-3) -----------------------------------------------------------


def test_time_e_1_a_win_in_the_called_turn_or_extra_turns_decides_the_duel() -> None:  # 判定1
    state = elimination(won(A), won(A, time_called=True))
    assert (state.winner, state.rules) == (A, ("TIME-E-1", "MATCH-1"))


def test_time_e_2_more_lp_after_the_extra_turns_wins_the_duel() -> None:  # 判定1-4
    state = elimination(won(A), won(B), timed(4000, 3900))
    assert (state.winner, state.score) == (A, Score(a=2, b=1))
    assert state.rules == ("TIME-E-2", "MATCH-1")


def test_time_e_3_equal_lp_goes_to_sudden_death() -> None:  # 判定1-5
    state = elimination(won(A), won(B), timed(4000, 4000))
    assert (state.finished, state.next, state.chooser) == (False, Next.SUDDEN_DEATH, None)
    assert state.rules == ("TIME-E-3",)


def test_time_e_3_the_sudden_death_winner_wins_the_duel() -> None:
    state = elimination(won(A), won(B), timed(4000, 4000, sudden_death=B))
    assert (state.winner, state.score) == (B, Score(a=1, b=2))
    assert state.rules == ("TIME-E-3", "MATCH-1")


def test_time_e_3_sudden_death_with_unequal_lp_is_refused() -> None:
    error = refused(Format.ELIMINATION, timed(4000, 3000, sudden_death=B))
    assert error.problem.code == "sudden-death-unequal-lp"
    assert error.problem.params == {"duel": 1, "a": 4000, "b": 3000}


def test_time_e_3_a_duel_after_an_unplayed_sudden_death_is_refused() -> None:
    error = refused(Format.ELIMINATION, timed(4000, 4000), won(A))
    assert (error.problem.code, error.problem.params) == ("sudden-death-missing", {"duel": 1})


def test_time_e_4_time_between_duels_at_one_win_to_none_gives_the_match() -> None:  # 判定3
    state = elimination(won(B), between=True)
    assert (state.finished, state.winner, state.rules) == (True, B, ("TIME-E-4",))


def test_time_e_4_time_in_duel_1_decided_by_lp_gives_the_match() -> None:  # 判定1 then the duel wins decide
    state = elimination(timed(100, 200))
    assert (state.finished, state.winner, state.rules) == (True, B, ("TIME-E-2", "TIME-E-4"))


def test_time_e_5_time_before_duel_1_means_an_extra_duel_chosen_by_rps() -> None:  # 判定2
    state = elimination(between=True)
    assert (state.finished, state.next, state.chooser) == (False, Next.EXTRA_DUEL, Chooser.RPS)
    assert state.rules == ("TIME-E-5",)


def test_time_e_5_time_between_duels_at_one_all_means_an_extra_duel() -> None:  # 判定2
    state = elimination(won(A), won(B), between=True)
    assert (state.next, state.chooser) == (Next.EXTRA_DUEL, Chooser.RPS)


def test_time_e_5_one_all_reached_in_the_extra_turns_means_an_extra_duel() -> None:  # 判定1 ※ -> 判定2
    assert elimination(won(A), timed(10, 20)).next is Next.EXTRA_DUEL
    assert elimination(won(A), timed(10, 10, sudden_death=B)).next is Next.EXTRA_DUEL
    assert elimination(won(A), won(B, time_called=True)).next is Next.EXTRA_DUEL


def test_time_e_5_the_extra_duel_decides_the_match() -> None:
    state = elimination(won(A), won(B), extra(won(B)), between=True)
    assert (state.finished, state.winner, state.score) == (True, B, Score(a=1, b=2))
    assert state.rules == ("TIME-E-5",)


def test_time_e_5_more_lp_after_the_extra_duel_turns_wins() -> None:
    state = elimination(won(A), timed(10, 20), extra(timed(7000, 6000)))
    assert (state.winner, state.rules) == (A, ("TIME-E-2", "TIME-E-5"))


def test_time_e_5_equal_lp_after_the_extra_duel_goes_to_sudden_death() -> None:
    state = elimination(extra(timed(8000, 8000)), between=True)
    assert (state.finished, state.next) == (False, Next.SUDDEN_DEATH)
    state = elimination(extra(timed(8000, 8000, sudden_death=A)), between=True)
    assert (state.winner, state.rules) == (A, ("TIME-E-5", "TIME-E-3"))


def test_time_e_5_an_extra_duel_that_is_not_due_is_refused() -> None:
    assert refused(Format.ELIMINATION, won(A), extra(won(A))).problem.code == "extra-duel-not-due"
    assert refused(Format.ELIMINATION, won(A), extra(won(A)), between=True).problem.code == "duel-after-match-end"
    assert refused(Format.ELIMINATION, extra(won(A)), extra(won(B)), between=True).problem.code == (
        "duel-after-match-end"
    )


@pytest.mark.parametrize(
    "duels",
    [
        (won(A), won(B)),
        (won(A), won(B), won(A)),
        (won(A), timed(1, 1, sudden_death=A)),
        (timed(5, 4),),
        (won(A), timed(10, 20), extra(timed(3, 3, sudden_death=B))),
    ],
)
def test_time_e_6_a_finished_single_elimination_match_has_a_winner(duels: tuple[Duel, ...]) -> None:
    state = elimination(*duels)
    assert not state.finished or (state.winner is not None and not state.draw)
