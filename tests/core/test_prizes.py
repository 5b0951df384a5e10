"""Final prizes: downgrades, eligibility losses, promotion and playoffs (CS 1.2, RULES.md PEN-2, PEN-3)."""

from __future__ import annotations

import pytest

from taikai.core.prizes import Awards, Playoff, PrizeRank, PrizeRankError, Sanction, award, check_ranks, playoff_pairs

RANKS = (PrizeRank("1st", 1, 1), PrizeRank("2nd", 2, 2), PrizeRank("3rd-4th", 3, 4), PrizeRank("5th-8th", 5, 8))
SWISS = [["p1"], ["p2"], ["p3"], ["p4"], ["p5"], ["p6"], ["p7"], ["p8"], ["p9"]]
TOP4 = [["p1"], ["p2"], ["p3", "p4"], ["p5", "p6", "p7", "p8"], ["p9"]]  # semifinal losers tie


def holders(a: Awards) -> list[tuple[str, ...]]:
    return [r.entrants for r in a.ranks]


def test_no_sanctions_gives_prizes_by_place() -> None:
    a = award(RANKS, SWISS)
    assert holders(a) == [("p1",), ("p2",), ("p3", "p4"), ("p5", "p6", "p7", "p8")]
    assert not a.playoff_needed


def test_losing_eligibility_promotes_everyone_below() -> None:  # PEN-3
    a = award(RANKS, SWISS, {"p2": Sanction(ineligible=True)})
    assert holders(a) == [("p1",), ("p3",), ("p4", "p5"), ("p6", "p7", "p8", "p9")]
    assert a.no_prize == ("p2",)


def test_one_step_downgrade_and_promotion() -> None:  # PEN-2, PEN-3
    a = award(RANKS, SWISS, {"p2": Sanction(downgrade_steps=1)})
    assert holders(a) == [("p1",), ("p3",), ("p2", "p4"), ("p5", "p6", "p7", "p8")]
    assert a.ranks[2].downgraded == ("p2",)


def test_judge_may_downgrade_more_steps() -> None:  # PEN-2
    a = award(RANKS, SWISS, {"p1": Sanction(downgrade_steps=2)})
    assert holders(a) == [("p2",), ("p3",), ("p1", "p4"), ("p5", "p6", "p7", "p8")]


def test_downgrade_below_the_last_rank_means_no_prize() -> None:  # PEN-2
    a = award(RANKS, SWISS, {"p6": Sanction(downgrade_steps=1)})
    assert a.no_prize == ("p6",)
    assert holders(a)[3] == ("p5", "p7", "p8", "p9")


def test_dq_of_second_with_tied_semifinal_losers_needs_a_playoff() -> None:  # PEN-3
    a = award(RANKS, TOP4, {"p2": Sanction(ineligible=True)})
    assert a.playoff_needed
    assert a.playoffs[0] == Playoff(1, 1, ("p3", "p4"))  # 3rd and 4th play for 2nd
    assert a.ranks[1].entrants == () and a.ranks[2].from_playoff_above == 1  # its loser keeps 3rd-4th
    # the quarterfinal losers then tie for the one free place of 3rd-4th: a second playoff
    assert a.playoffs[1] == Playoff(2, 1, ("p5", "p6", "p7", "p8"))
    assert a.ranks[3].from_playoff_above == 3 and a.ranks[3].entrants == ("p9",)


def test_tied_group_that_fits_needs_no_playoff() -> None:  # PEN-3
    a = award(RANKS, TOP4)
    assert not a.playoff_needed
    assert holders(a)[2] == ("p3", "p4")


def test_prize_of() -> None:
    a = award(RANKS, SWISS, {"p2": Sanction(downgrade_steps=1)})
    assert a.prize_of("p2") == 2 and a.prize_of("p9") is None


def test_ranks_must_start_at_one_and_not_overlap() -> None:
    check_ranks(RANKS)
    with pytest.raises(PrizeRankError):
        check_ranks([PrizeRank("2nd", 2, 2)])
    with pytest.raises(PrizeRankError):
        check_ranks([PrizeRank("1st", 1, 2), PrizeRank("2nd", 2, 3)])


def test_playoff_pairs_best_against_worst() -> None:  # PEN-3
    assert playoff_pairs(["a", "b", "c"]) == [("a", "c"), ("b", None)]
    assert playoff_pairs(["a", "b"]) == [("a", "b")]
