"""Final placings: the bracket's stages first, then Swiss order, disqualified players last (core/placings.py).

RULES.md has no ID for final placings; the DQ rule they apply is PEN-1.
"""

from __future__ import annotations

from taikai.core.placings import Stage, placings
from taikai.core.ruleset import builtin
from taikai.core.sheet import Entrant, EventFacts, RoundFacts, Table, sheet
from taikai.core.sheet import Stage as RoundStage

RULES = builtin("harajuku-cs-1.2")


def _swiss(number: int, *tables: Table) -> RoundFacts:
    return RoundFacts(number, RoundStage.SWISS, tables)


def _cut(number: int, *tables: Table) -> RoundFacts:
    return RoundFacts(number, RoundStage.ELIMINATION, tables)


def _event(players: int, *rounds: RoundFacts) -> EventFacts:
    return EventFacts(tuple(Entrant(p) for p in range(1, players + 1)), rounds)


def _order(n: int) -> list[tuple[int, int]]:
    return [(p, p) for p in range(1, n + 1)]  # Swiss standings: player p is p-th


# A top 4 after one Swiss round of 6 players: seeds 1-4 cut; 1 v 4, 2 v 3; then the final.
SWISS = _swiss(1, Table(1, 6, "a"), Table(2, 5, "a"), Table(3, 4, "a"))


def test_after_a_top_cut_the_champion_finalist_and_semifinal_losers_come_first() -> None:
    facts = _event(6, SWISS, _cut(2, Table(1, 4, "b"), Table(2, 3, "a")), _cut(3, Table(4, 2, "b")))
    got = placings(sheet(facts, RULES), _order(6))
    assert [(p.rank, p.id, p.stage, p.best) for p in got] == [
        (1, 2, Stage.CHAMPION, 1),
        (2, 4, Stage.FINALIST, 2),
        (3, 1, Stage.BEST, 4),  # both semifinal losers share 3rd, in seed order
        (3, 3, Stage.BEST, 4),
        (5, 5, Stage.SWISS, 0),
        (6, 6, Stage.SWISS, 0),
    ]


def test_while_the_bracket_is_played_its_remaining_players_lead() -> None:
    facts = _event(6, SWISS, _cut(2, Table(1, 4, "b"), Table(2, 3, "a")))
    got = placings(sheet(facts, RULES), _order(6))
    assert [(p.rank, p.id, p.stage, p.best) for p in got[:4]] == [
        (1, 2, Stage.IN_BRACKET, 2),
        (1, 4, Stage.IN_BRACKET, 2),
        (3, 1, Stage.BEST, 4),
        (3, 3, Stage.BEST, 4),
    ]


def test_a_disqualified_player_is_placed_last_and_marked() -> None:
    # PEN-1: the finalist is disqualified after the final; everyone else moves up, the bracket keeps its stages.
    facts = _event(6, SWISS, _cut(2, Table(1, 4, "b"), Table(2, 3, "a")), _cut(3, Table(4, 2, "b")))
    got = placings(sheet(facts, RULES), _order(6), disqualified={4})
    assert [(p.rank, p.id, p.disqualified) for p in got] == [
        (1, 2, False),
        (2, 1, False),
        (2, 3, False),
        (4, 5, False),
        (5, 6, False),
        (6, 4, True),
    ]
    assert got[1].stage == Stage.BEST and got[1].best == 4


def test_without_a_bracket_placings_are_the_swiss_standings_with_their_ties() -> None:
    facts = _event(4, _swiss(1, Table(1, 2, "a"), Table(3, 4, "a")))
    got = placings(sheet(facts, RULES), [(1, 1), (3, 1), (2, 3), (4, 3)])
    assert [(p.rank, p.id) for p in got] == [(1, 1), (1, 3), (3, 2), (3, 4)]
    assert {p.stage for p in got} == {Stage.SWISS}


def test_a_player_who_never_played_is_not_placed() -> None:
    facts = EventFacts(
        (Entrant(1), Entrant(2), Entrant(3, dropped_after=0)),
        (_swiss(1, Table(1, 2, "a")),),
    )
    assert [p.id for p in placings(sheet(facts, RULES), [(1, 1), (2, 2), (3, 2)])] == [1, 2]


def test_quarterfinal_losers_are_best_eight_and_a_bye_counts_as_a_round_reached() -> None:
    # A 6-player cut is a bracket of 8 with byes for seeds 1 and 2: quarterfinal losers are ベスト8.
    facts = _event(
        6,
        _cut(1, Table(1), Table(4, 5, "a"), Table(3, 6, "b"), Table(2)),
        _cut(2, Table(1, 4, "a"), Table(6, 2, "b")),
        _cut(3, Table(1, 2, "a")),
    )
    got = placings(sheet(facts, RULES), _order(6))
    assert [(p.rank, p.id, p.best) for p in got] == [(1, 1, 1), (2, 2, 2), (3, 4, 4), (3, 6, 4), (5, 3, 8), (5, 5, 8)]
