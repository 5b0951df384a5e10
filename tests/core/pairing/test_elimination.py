from __future__ import annotations

import pytest

from taikai.core.pairing import PairingError, elimination
from taikai.core.ruleset import builtin


def test_bracket_order_keeps_one_and_two_apart_until_the_final() -> None:
    order = elimination.bracket_order(8)
    assert order == [1, 8, 4, 5, 2, 7, 3, 6]
    assert order.index(1) < 4 <= order.index(2)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 9, 13, 16, 33])
def test_any_number_of_players_byes_to_the_top_seeds(n: int) -> None:
    seeds = [f"s{k}" for k in range(1, n + 1)]
    r1 = elimination.first_round(elimination.seeded_bracket(seeds))
    size = 1 << (n - 1).bit_length()
    assert set(r1.byes) == set(seeds[: size - n])
    assert sorted([x for p in r1.pairings for x in p] + list(r1.byes)) == sorted(seeds)


def test_first_round_is_one_v_n_then_two_v_n_minus_one() -> None:
    r1 = elimination.first_round(elimination.seeded_bracket(list(range(1, 9))))
    assert r1.pairings == ((1, 8), (4, 5), (2, 7), (3, 6))
    r2 = elimination.next_round([1, 4, 2, 3])
    assert r2.pairings == ((1, 4), (2, 3))


def test_random_bracket_is_reproducible_from_the_seed() -> None:
    players = list(range(12))
    a = elimination.random_bracket(players, seed=3)
    assert a == elimination.random_bracket(players, seed=3)
    assert a != elimination.random_bracket(players, seed=4)


@pytest.mark.parametrize("attendance, cut", [(8, 0), (9, 4), (32, 4), (33, 8), (128, 8), (129, 16), (2049, 64)])
def test_top_cut_follows_the_attendance_table(attendance: int, cut: int) -> None:
    bracket = elimination.top_cut(list(range(attendance)), builtin("dkt-2011"))
    assert len([s for s in bracket.slots if s is not None]) == cut


def test_a_rounds_tables_keep_bracket_order_with_byes_in_place() -> None:
    r1 = elimination.first_round(elimination.seeded_bracket([1, 2, 3, 4, 5, 6]))
    assert r1.tables == ((1, None), (4, 5), (2, None), (3, 6))  # 1 and 2 meet only in the final
    assert r1.pairings == ((4, 5), (3, 6)) and r1.byes == (1, 2)
    assert elimination.next_round([1, 5, 2, 3]).tables == ((1, 5), (2, 3))


def test_a_top_cut_of_a_chosen_size_takes_the_best_of_the_standings() -> None:
    bracket = elimination.top_cut(list(range(10)), builtin("dkt-2011"), size=4)
    assert elimination.first_round(bracket).tables == ((0, 3), (1, 2))
    with pytest.raises(PairingError) as caught:
        elimination.top_cut(list(range(3)), builtin("dkt-2011"), size=4)
    assert caught.value.problem.code == "cut-too-large"
