"""The usual outcomes offered for keyboard entry are built from the ruleset and are what the rules say."""

from __future__ import annotations

from taikai.core.match import Format, MatchRecord, Player, evaluate
from taikai.core.quick_results import quick_result, quick_results
from taikai.core.ruleset import builtin


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
