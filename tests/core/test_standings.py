"""Standings: match points, OMW%, OOMW%, the seeded draw and the KTS code."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from taikai.core import sheet, standings, tiebreakers
from taikai.core.ruleset import builtin
from taikai.core.standings import MatchRecord as M

RULES = builtin("dkt-2011")


def _by_id(table: tuple[standings.Standing, ...]) -> dict[object, standings.Standing]:
    return {s.id: s for s in table}


def test_win_draw_loss_and_bye_score_from_the_ruleset() -> None:
    rounds = [[M("a", "b", "a"), M("c", None, "bye")], [M("a", "c", "draw"), M("b", None, "bye")]]
    t = _by_id(standings.compute(["a", "b", "c"], rounds, RULES))
    assert (t["a"].points, t["a"].wins, t["a"].draws) == (4, 1, 1)
    assert (t["c"].points, t["c"].wins, t["c"].byes) == (4, 1, 1)  # a bye counts as a win
    assert (t["b"].points, t["b"].losses) == (3, 1)


def test_omw_excludes_byes_as_opponents_but_counts_them_as_matches_played() -> None:
    # b: a loss to a, then a bye -> 3 points over 2 matches = 1/2; a's only real opponent is b
    rounds = [[M("a", "b", "a")], [M("b", None, "bye")]]
    t = _by_id(standings.compute(["a", "b"], rounds, RULES))
    assert t["a"].omw == Fraction(1, 2)
    assert t["b"].omw == Fraction(1, 1)
    assert t["a"].oomw == Fraction(1, 1)


def test_omw_floor_is_a_ruleset_parameter() -> None:
    floored = dataclasses.replace(RULES, standings=dataclasses.replace(RULES.standings, omw_floor=Fraction(1, 3)))
    rounds = [[M("a", "b", "a")]]
    assert _by_id(standings.compute(["a", "b"], rounds, RULES))["a"].omw == 0
    assert _by_id(standings.compute(["a", "b"], rounds, floored))["a"].omw == Fraction(1, 3)


def test_ties_are_broken_by_a_seeded_draw_not_by_id() -> None:
    ids = [f"p{k}" for k in range(12)]
    orders = {tuple(s.id for s in standings.compute(ids, [], RULES, seed)) for seed in range(6)}
    assert len(orders) > 1
    table = standings.compute(ids, [], RULES, 3)
    assert table == standings.compute(ids, [], RULES, 3)
    assert [s.rank for s in table] == list(range(1, 13))
    assert sorted(s.draw for s in table) == list(range(1, 13))


def test_kts_code_truncates_points_omw_and_oomw() -> None:
    assert standings.code(9, Fraction(2, 3), Fraction(1, 2), RULES) == "09666500"
    assert standings.code(12, Fraction(1), Fraction(0), RULES) == "12999000"


def test_ranking_order_is_points_then_omw_then_oomw() -> None:
    rounds = [
        [M("a", "x", "a"), M("b", "y", "b"), M("c", "d", "a")],
        [M("a", "c", "b"), M("x", "y", "a"), M("b", "d", "a")],
    ]
    table = standings.compute(["a", "b", "c", "d", "x", "y"], rounds, RULES, 1)
    points = [s.points for s in table]
    assert points == sorted(points, reverse=True)
    same = [s for s in table if s.points == 3]
    assert [s.omw for s in same] == sorted((s.omw for s in same), reverse=True)


def test_dropped_players_keep_their_record() -> None:
    rounds = [[M("a", "b", "b")], [M("a", "c", "a")]]  # b dropped after round 1
    t = _by_id(standings.compute(["a", "b", "c"], rounds, RULES))
    assert t["b"].points == 3 and t["a"].omw == Fraction(1, 2)


def test_team_standings_use_team_match_results() -> None:
    from taikai.core.pairing.team import team_result

    rounds = [[M("T1", "T2", team_result(["a", "a", "b"], RULES))]]
    t = _by_id(standings.compute(["T1", "T2"], rounds, RULES))
    assert t["T1"].points == 3 and t["T2"].points == 0


def test_a_late_entry_counts_the_missed_rounds_as_losses() -> None:
    from taikai.core.standings import compute

    r = builtin("dkt-2011")
    rounds = [[M("p1", "p2", "a"), M("late", None, "missed")], [M("p1", "late", "b"), M("p2", None, "bye")]]
    table = {s.id: s for s in compute(["p1", "p2", "late"], rounds, r, seed=1)}
    assert (table["late"].wins, table["late"].losses, table["late"].points) == (1, 1, 3)
    assert table["late"].byes == 0


def test_a_tiebreaker_reads_each_entrant_as_a_record() -> None:
    records = tiebreakers.Records([6, 3, 0], [2, 2, 2], [(1, 2), (0,), (0,)])
    assert len(records) == 3 and records[1] == tiebreakers.Record(3, 2, (0,))
    assert list(records) == [records[0], records[1], records[2]] and records[1:] == [records[1], records[2]]
    as_list = list(records)  # what a tiebreaker of its own may hand on: the built-in ones give the same values
    for name in ("match_points", "omw", "oomw"):
        assert tiebreakers.TIEBREAKERS[name].compute(as_list, RULES, 0) == tiebreakers.TIEBREAKERS[name].compute(
            records, RULES, 0
        )


def test_a_played_record_is_the_sheets_table_and_a_bye_a_table_without_result() -> None:
    played, bye = M("a", "b", "draw"), M("c", None, "bye")
    facts = standings.facts_of(["a", "b", "c"], [[played, bye]])
    (table_ab, table_c) = facts.rounds[0].tables
    assert table_ab is played and (table_c.a, table_c.b, table_c.result) == ("c", None, "")
    odd = standings.facts_of(["a", "b", "c"], [[M("a", "b", "a"), M("c", "a", "bye")]])  # a bye naming a "b"
    assert odd.rounds[0].tables[1] == sheet.Table("c")
