"""One-tap outcomes: only what the format allows, and the same record from both phones."""

from __future__ import annotations

from taikai.core.match import Format, MatchRecord, Player, evaluate
from taikai.core.quick_results import quick_outcome, quick_outcomes
from taikai.core.ruleset import builtin

RULES = builtin("harajuku-cs-1.2")


def _codes(fmt: Format) -> list[str]:
    return [o.code for o in quick_outcomes(RULES, fmt)]


def test_swiss_offers_the_wins_the_losses_a_time_draw_and_an_intentional_draw() -> None:
    # MATCH-1, TIME-S-6 (1–1 when time is called between duels is a match draw), END-2
    assert _codes(Format.SWISS) == ["win-2-0", "win-2-1", "loss-1-2", "loss-0-2", "draw-1-1", "intentional-draw"]


def test_single_elimination_offers_no_draw() -> None:
    # MATCH-2, TIME-E-5 (1–1 at time goes to an extra duel, not a draw), END-2 (no ID in elimination)
    assert _codes(Format.ELIMINATION) == ["win-2-0", "win-2-1", "loss-1-2", "loss-0-2"]
    assert quick_outcome("draw-1-1", RULES, Format.ELIMINATION) is None


def test_both_players_tapping_their_side_report_the_same_record() -> None:  # END-4
    for mine, theirs in (("win-2-1", "loss-1-2"), ("win-2-0", "loss-0-2"), ("draw-1-1", "draw-1-1")):
        a = quick_outcome(mine, RULES, Format.SWISS)
        b = quick_outcome(theirs, RULES, Format.SWISS)
        assert a is not None and b is not None
        assert a.report(Player.A) == b.report(Player.B)


def test_a_tapped_two_one_is_a_two_one_match_win() -> None:  # MATCH-1
    outcome = quick_outcome("win-2-1", RULES, Format.SWISS)
    assert outcome is not None
    report = outcome.report(Player.B)
    state = evaluate(MatchRecord(Format.SWISS, report.duels, report.time_called_between_duels), RULES)
    assert state.finished and state.winner == Player.B and (state.score.b, state.score.a) == (2, 1)
