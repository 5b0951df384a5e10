"""One-tap outcomes (the phone) and keyboard outcomes (the desk): only what the format allows, the same record
from both phones, and what the rules make of each record."""

from __future__ import annotations

from taikai.core.match import evaluate
from taikai.core.match_record import Format, MatchRecord, Player
from taikai.core.quick_results import quick_outcome, quick_outcomes, quick_result, quick_results
from taikai.core.ruleset import builtin

RULES = builtin("harajuku-cs-1.2")


def _codes(fmt: Format) -> list[str]:
    return [o.code for o in quick_outcomes(RULES, fmt)]


def test_swiss_offers_the_wins_the_losses_a_time_draw_and_an_intentional_draw() -> None:
    # MATCH-1, TIME-S-6 (1–1 when time is called between duels is a match draw), END-2
    assert _codes(Format.SWISS) == [
        *("win-2-0", "win-2-1", "loss-1-2", "loss-0-2", "draw-1-1", "intentional-draw"),
        *("opponent-conceded", "conceded"),  # END-1: 投了, in every format
    ]


def test_single_elimination_offers_no_draw() -> None:
    # MATCH-2, TIME-E-5 (1–1 at time goes to an extra duel, not a draw), END-2 (no ID in elimination)
    assert _codes(Format.ELIMINATION) == ["win-2-0", "win-2-1", "loss-1-2", "loss-0-2", "opponent-conceded", "conceded"]
    assert quick_outcome("draw-1-1", RULES, Format.ELIMINATION) is None


def test_end_1_a_conceded_match_is_lost_by_the_conceder_two_nil_with_the_concession_as_its_basis() -> None:
    # END-1: 投了 with both players' consent (the opponent confirms it); no shipped tiebreaker reads duel wins
    for fmt in (Format.SWISS, Format.ELIMINATION):
        conceded, theirs = quick_outcome("conceded", RULES, fmt), quick_outcome("opponent-conceded", RULES, fmt)
        assert conceded is not None and theirs is not None
        report = conceded.report(Player.A)
        assert report.basis == "concession-consent" and report == theirs.report(Player.B)  # END-4: both phones agree
        state = evaluate(MatchRecord(fmt, report.duels, report.time_called_between_duels), RULES)
        assert state.finished and state.winner == Player.B and (state.score.a, state.score.b) == (0, 2)


def test_end_1_a_concession_keeps_the_tables_penalty_duel() -> None:
    # END-1, PEN-1: A lost duel 1 by penalty and B concedes: A wins 2–1, the penalty duel at its place
    from taikai.core.match_record import Won
    from taikai.core.penalty_duels import PenaltyDuel

    fixed = (PenaltyDuel(1, Player.A, "7"),)
    outcome = quick_outcome("opponent-conceded", RULES, Format.SWISS, fixed)
    assert outcome is not None and (outcome.mine, outcome.theirs) == (2, 1)
    assert outcome.report(Player.A, fixed).duels[0] == Won(Player.B)


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


# The scorekeeper's keys (A's side)


def test_swiss_offers_two_nil_two_one_both_ways_a_draw_and_an_intentional_draw() -> None:
    # MATCH-1 (first to two of at most three), MATCH-2 (match draws in Swiss), END-2 (ID in Swiss only).
    keys = [r.key for r in quick_results(builtin("harajuku-cs-1.2"), Format.SWISS)]
    assert keys == ["2-0", "2-1", "1-2", "0-2", "draw", "id"]


def test_elimination_offers_no_draw_and_no_intentional_draw() -> None:
    # MATCH-2: no match draws in single elimination; END-2: no intentional draw there.
    keys = [r.key for r in quick_results(builtin("harajuku-cs-1.2"), Format.ELIMINATION)]
    assert keys == ["2-0", "2-1", "1-2", "0-2"]


def test_each_outcome_is_what_the_match_rules_make_of_its_record() -> None:
    ruleset = builtin("harajuku-cs-1.2")
    for r in quick_results(ruleset, Format.SWISS):
        if r.key == "id":
            continue
        state = evaluate(MatchRecord(Format.SWISS, r.report.duels, r.report.time_called_between_duels), ruleset)
        assert state.finished
        assert (state.score.a, state.score.b) == (r.wins_a, r.wins_b)
        assert state.draw if r.winner is None else state.winner is r.winner
    one_two = quick_result(ruleset, Format.SWISS, "1-2")
    assert one_two is not None and one_two.winner is Player.B
    assert quick_result(ruleset, Format.ELIMINATION, "draw") is None
