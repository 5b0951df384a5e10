from __future__ import annotations

from taikai.core.pairing import PairingInput, PlayerState, team
from taikai.core.ruleset import builtin


def test_teams_are_paired_as_units_and_seats_face_the_same_seat() -> None:
    ruleset = builtin("dkt-2011")
    teams = (PlayerState("T1", 3), PlayerState("T2", 3), PlayerState("T3", 0), PlayerState("T4", 0))
    members = {t.id: [f"{t.id}{s}" for s in "ABC"] for t in teams}
    pairing = team.pair(PairingInput(teams, round=2, seed=1), members, ruleset)
    assert {frozenset(p) for p in pairing.teams.pairings} == {frozenset({"T1", "T2"}), frozenset({"T3", "T4"})}
    first = pairing.tables[0]
    assert [(m.seat, str(m.a)[-1], str(m.b)[-1]) for m in first.seats] == [
        ("A", "A", "A"),
        ("B", "B", "B"),
        ("C", "C", "C"),
    ]


def test_two_seat_wins_win_the_team_match() -> None:
    ruleset = builtin("dkt-2011")
    assert team.team_result(["a", "b", "a"], ruleset) == "a"
    assert team.team_result(["b", "draw", "b"], ruleset) == "b"
    assert team.team_result(["a", "b", "draw"], ruleset) == "draw"
