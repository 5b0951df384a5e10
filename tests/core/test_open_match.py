"""How a match being played ends when its player leaves the event (issue 23, finding 4; core.open_match)."""

from __future__ import annotations

import pytest

from taikai.core.match import evaluate
from taikai.core.match_record import Format, Player, Won
from taikai.core.open_match import LEAVINGS, Ruling, ended_by_leaving
from taikai.core.penalty_duels import PenaltyDuel
from taikai.core.ruleset import builtin

CS = builtin("harajuku-cs-1.2")


@pytest.mark.parametrize("ruling", LEAVINGS)
@pytest.mark.parametrize("fmt", [Format.SWISS, Format.ELIMINATION])
def test_the_opponent_wins_the_match_the_leaver_was_playing(ruling: Ruling, fmt: Format) -> None:
    # PEN-1 (a DQ), END-1 (a drop concedes), REG-2 (the right to take part lost): the opponent wins, 2–0
    state = evaluate(ended_by_leaving(ruling, fmt, Player.A, CS), CS)
    assert state.finished and state.winner is Player.B and (state.score.b, state.score.a) == (2, 0)


def test_a_duel_lost_by_penalty_keeps_its_place_when_the_other_player_drops() -> None:  # END-1, PEN-1
    # B lost duel 1 by penalty; then A drops: A concedes the match, B's penalty duel stays duel 1
    fixed = (PenaltyDuel(1, Player.B, "7"),)
    record = ended_by_leaving(Ruling.DROP_CONCESSION, Format.SWISS, Player.A, CS, fixed)
    assert record.duels[0] == Won(Player.A)
    state = evaluate(record, CS)
    assert state.winner is Player.B and (state.score.b, state.score.a) == (2, 1)


def test_a_match_loss_is_not_a_way_of_leaving() -> None:  # PEN-1
    with pytest.raises(ValueError):
        ended_by_leaving(Ruling.MATCH_LOSS, Format.SWISS, Player.A, CS)
