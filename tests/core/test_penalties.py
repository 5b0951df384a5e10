"""The penalty ladder, defaults, effects, escalation and team propagation (CS 1-2, RULES.md PEN-*, INF-*)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taikai.core import penalties as pen
from taikai.core import rungs
from taikai.core.ruleset import PenaltyRules, builtin

CS = builtin("harajuku-cs-1.2").penalties
DKT = builtin("dkt-2011").penalties


def test_ladder_has_eight_rungs_lightest_first() -> None:  # PEN-1
    assert CS.ladder[0] == rungs.CAUTION and CS.ladder[-1] == rungs.DQ_NO_PRIZE
    assert [CS.rank(r) for r in CS.ladder] == list(range(8))


def test_duel_loss_match_loss_and_dq_effects() -> None:  # PEN-1
    assert pen.effects(CS, rungs.DUEL_LOSS) == pen.Effects(duel_loss=True)
    assert pen.effects(CS, rungs.MATCH_LOSS) == pen.Effects(match_loss=True)
    assert pen.effects(CS, rungs.DQ) == pen.Effects(drop=True, forfeits_open_match=True)
    assert not pen.effects(CS, rungs.WARNING).changes_result
    assert pen.effects(CS, rungs.CAUTION) == pen.Effects()


def test_downgrade_rungs_lower_the_prize_one_step_or_more() -> None:  # PEN-2
    assert pen.effects(CS, rungs.MATCH_LOSS_DOWNGRADE) == pen.Effects(match_loss=True, downgrade_steps=1)
    dq = pen.Effects(drop=True, forfeits_open_match=True)
    assert pen.effects(CS, rungs.DQ_DOWNGRADE, downgrade_steps=3) == replace(dq, downgrade_steps=3)
    assert pen.effects(CS, rungs.DQ_NO_PRIZE) == replace(dq, prize_loss=True)
    with pytest.raises(ValueError):
        pen.effects(CS, rungs.DQ_DOWNGRADE, downgrade_steps=0)


def test_unknown_rung_is_refused() -> None:  # PEN-1
    with pytest.raises(ValueError):
        pen.effects(CS, "yellow-card")


def test_team_propagation_from_dq_in_cs_only() -> None:  # PEN-4
    assert not pen.propagates_to_team(CS, rungs.MATCH_LOSS_DOWNGRADE)
    assert all(pen.propagates_to_team(CS, r) for r in (rungs.DQ, rungs.DQ_DOWNGRADE, rungs.DQ_NO_PRIZE))
    assert not pen.propagates_to_team(DKT, rungs.DQ_NO_PRIZE)


def test_only_the_head_judge_gives_dq_or_worse() -> None:  # PEN-6
    assert not pen.needs_head_judge(CS, rungs.MATCH_LOSS_DOWNGRADE)
    assert pen.needs_head_judge(CS, rungs.DQ)
    assert pen.needs_head_judge(CS, rungs.DQ_NO_PRIZE)


def test_warnings_and_above_are_kept_in_the_database() -> None:  # PEN-5
    assert not pen.kept_in_database(CS, rungs.CAUTION)
    assert pen.kept_in_database(CS, rungs.WARNING)


def test_repeat_suggests_one_rung_heavier_than_the_heaviest_earlier() -> None:  # PEN-5
    s = pen.suggest(CS, "INF-3", [rungs.WARNING])
    assert s == pen.Suggestion(rungs.DUEL_LOSS, rungs.WARNING, True, 1)
    assert pen.suggest(CS, "INF-3", [rungs.WARNING, rungs.MATCH_LOSS]).rung == rungs.MATCH_LOSS_DOWNGRADE


def test_escalation_is_capped_at_the_top() -> None:  # PEN-5
    assert pen.suggest(CS, "INF-19", [rungs.DQ_NO_PRIZE]).rung == rungs.DQ_NO_PRIZE
    assert pen.heavier(CS, rungs.DQ_DOWNGRADE, 5) == rungs.DQ_NO_PRIZE


def test_first_offence_is_the_default_and_judges_may_change_it() -> None:  # PEN-7
    s = pen.suggest(CS, "INF-2", [])
    assert s.rung == rungs.WARNING and not s.escalated
    assert pen.suggest(DKT, "INF-2", []).rung is None  # OFF alone: the judge decides


def test_escalation_never_suggests_below_the_default() -> None:  # PEN-5, PEN-7
    assert pen.suggest(CS, "INF-14", [rungs.WARNING]).rung == rungs.DUEL_LOSS


def test_manners_escalate_within_an_event_from_caution() -> None:  # INF-21, PEN-5
    assert pen.default_rung(CS, "INF-21") == rungs.CAUTION
    assert pen.counts_for_escalation(CS, "INF-21", rungs.CAUTION, same_event=True)
    assert not pen.counts_for_escalation(CS, "INF-21", rungs.CAUTION, same_event=False)
    assert not pen.counts_for_escalation(CS, "INF-2", rungs.CAUTION, same_event=True)
    assert pen.suggest(CS, "INF-21", [rungs.CAUTION]).rung == rungs.WARNING


@pytest.mark.parametrize(
    ("infraction", "rung"),
    [
        ("INF-2", rungs.WARNING),  # CS 2.2 A
        ("INF-3", rungs.WARNING),  # CS 2.2 B
        ("INF-4", rungs.WARNING),  # CS 2.2 C
        ("INF-5", rungs.DQ_NO_PRIZE),  # CS 2.2 D
        ("INF-6", rungs.DQ_NO_PRIZE),  # CS 2.2 E
        ("INF-7", rungs.DQ_NO_PRIZE),  # CS 2.2 F
        ("INF-8", rungs.DQ_NO_PRIZE),  # CS 2.2 G
        ("INF-9", rungs.DQ_NO_PRIZE),  # CS 2.2 H
        ("INF-12", rungs.WARNING),  # CS 2.2 I
        ("INF-13", rungs.DQ_NO_PRIZE),  # CS 2.2 J
        ("INF-14", rungs.DUEL_LOSS),  # CS 2.2 K
        ("INF-17", rungs.WARNING),  # CS 2.2 L
        ("INF-19", rungs.DQ_NO_PRIZE),  # CS 2.1 A
        ("INF-20", rungs.DUEL_LOSS),  # CS 2.1 B
        ("INF-21", rungs.CAUTION),  # CS 2.3
        ("INF-22", rungs.DQ_NO_PRIZE),  # CS 4.3
    ],
)
def test_cs_default_rungs(infraction: str, rung: str) -> None:  # INF-2..INF-22 with a CS default
    # found intentional where the text says 故意に (INF-5); intent changes no other default
    assert pen.default_rung(CS, infraction, intentional=True) == rung
    if infraction != "INF-5":
        assert pen.default_rung(CS, infraction) == rung


def test_inf_5_default_is_for_an_intentional_change_only() -> None:  # INF-5 (CS 2.2 D: 故意に)
    assert pen.default_rung(CS, "INF-5", intentional=True) == rungs.DQ_NO_PRIZE
    assert pen.default_rung(CS, "INF-5") is None  # the judge decides
    assert pen.suggest(CS, "INF-5", []).rung is None


def test_inf_2_rushing_default_is_warning() -> None:  # INF-2
    assert pen.default_rung(CS, "INF-2") == rungs.WARNING


def test_inf_3_long_thinking_default_is_warning() -> None:  # INF-3
    assert pen.default_rung(CS, "INF-3") == rungs.WARNING


def test_inf_4_slow_siding_default_is_warning() -> None:  # INF-4
    assert pen.default_rung(CS, "INF-4") == rungs.WARNING


@pytest.mark.parametrize("inf", ["INF-5", "INF-6", "INF-7", "INF-8", "INF-9", "INF-13", "INF-19", "INF-22"])
def test_inf_5_6_7_8_9_13_19_22_cheating_is_dq_losing_prize(
    inf: str,
) -> None:  # INF-5 INF-6 INF-7 INF-8 INF-9 INF-13 INF-19 INF-22
    assert pen.default_rung(CS, inf, intentional=True) == rungs.DQ_NO_PRIZE  # INF-5 only when intentional
    assert pen.effects(CS, rungs.DQ_NO_PRIZE).prize_loss
    assert pen.needs_head_judge(CS, rungs.DQ_NO_PRIZE)


def test_inf_12_object_in_sleeve_is_warning_and_removal() -> None:  # INF-12
    inf = CS.infraction("INF-12")
    assert (inf.default, inf.fix) == (rungs.WARNING, "remove-object")


def test_inf_14_deck_size_is_duel_loss_and_restore() -> None:  # INF-14
    inf = CS.infraction("INF-14")
    assert (inf.default, inf.fix) == (rungs.DUEL_LOSS, "restore-deck-size")
    assert pen.effects(CS, inf.default).duel_loss


def test_inf_17_objects_on_play_area_is_warning() -> None:  # INF-17
    assert pen.default_rung(CS, "INF-17") == rungs.WARNING


def test_inf_20_slow_play_after_time_is_duel_loss() -> None:  # INF-20
    assert pen.default_rung(CS, "INF-20") == rungs.DUEL_LOSS


def test_infractions_without_a_cs_default_leave_it_to_the_judge() -> None:  # INF-1 INF-10 INF-11 INF-15 INF-16 INF-18
    for inf in ("INF-1", "INF-10", "INF-11", "INF-15", "INF-16", "INF-18"):
        assert pen.default_rung(CS, inf) is None


# --- where a duel or match loss lands (PEN-1) --------------------------------------------------------


def test_pen_1_a_dq_forfeits_the_match_being_played_and_only_that() -> None:
    # PEN-1: a DQ resolves the match being played as a loss; a finished match stays as it is
    fx = pen.effects(CS, rungs.DQ_NO_PRIZE)
    assert pen.landing(fx, open_match=True) is pen.Landing.CURRENT
    assert pen.landing(fx, open_match=False) is None
    assert pen.landings(fx, current_match=True, open_match=False) == ()


def test_pen_1_a_duel_or_match_loss_lands_on_the_match_being_played_else_the_next() -> None:
    for rung in (rungs.DUEL_LOSS, rungs.MATCH_LOSS, rungs.MATCH_LOSS_DOWNGRADE):
        fx = pen.effects(CS, rung)
        assert pen.landing(fx, open_match=True) is pen.Landing.CURRENT
        assert pen.landing(fx, open_match=False) is pen.Landing.NEXT
    assert pen.landing(pen.effects(CS, rungs.WARNING), open_match=True) is None


def test_pen_1_only_a_match_loss_may_be_chosen_for_a_finished_match() -> None:
    # The judge may put a match loss on a match already over (it replaces the result: their choice only),
    # never a duel loss (there is no duel being played there).
    both = (pen.Landing.CURRENT, pen.Landing.NEXT)
    assert pen.landings(pen.effects(CS, rungs.MATCH_LOSS), current_match=True, open_match=False) == both
    assert pen.landings(pen.effects(CS, rungs.DUEL_LOSS), current_match=True, open_match=False) == (pen.Landing.NEXT,)
    assert pen.landings(pen.effects(CS, rungs.MATCH_LOSS), current_match=False, open_match=False) == (pen.Landing.NEXT,)


def test_pen_1_a_lost_match_is_won_by_the_opponent_with_the_duels_a_match_needs() -> None:
    from taikai.core.match import evaluate
    from taikai.core.match_record import Format, Player

    ruleset = builtin("harajuku-cs-1.2")
    for fmt in Format:
        state = evaluate(pen.lost_match(fmt, Player.A, ruleset), ruleset)
        assert (state.finished, state.winner, state.score.b) == (True, Player.B, ruleset.match.duels_to_win)


# --- issue 23: OFF alone, the catalog's kinds, INF-23, INF-24, "other" ---------------------------------


def test_off_alone_reserves_no_rung_to_a_head_judge_and_keeps_no_database() -> None:  # PEN-6 PEN-5 (CS-only)
    assert not any(pen.needs_head_judge(DKT, r) for r in DKT.ladder)
    assert not pen.head_judge_required(DKT) and pen.head_judge_required(CS)
    assert not any(pen.kept_in_database(DKT, r) for r in DKT.ladder)
    # no database: an earlier warning from another event never escalates under OFF alone
    assert not pen.counts_for_escalation(DKT, "INF-3", rungs.WARNING, same_event=False)
    assert pen.effects(DKT, rungs.DQ) == pen.Effects(drop=True, forfeits_open_match=True)
    with pytest.raises(ValueError):
        pen.effects(DKT, rungs.DQ_DOWNGRADE)  # CS 1.2's rung is not on OFF's ladder


@pytest.mark.parametrize("rules", [CS, DKT], ids=["cs", "off"])
def test_inf_23_wasting_time_starts_from_caution_and_escalates_within_the_event(rules: PenaltyRules) -> None:  # INF-23
    # OFF C: 故意の有無にかかわらず…審判の判断によって「注意」から始まる罰則: intent plays no part
    assert pen.default_rung(rules, "INF-23") == rungs.CAUTION
    assert pen.default_rung(rules, "INF-23", intentional=True) == rungs.CAUTION
    assert pen.counts_for_escalation(rules, "INF-23", rungs.CAUTION, same_event=True)
    assert pen.suggest(rules, "INF-23", [rungs.CAUTION]) == pen.Suggestion(rungs.WARNING, rungs.CAUTION, True, 1)


def test_inf_24_an_id_bought_with_a_benefit_is_cs_only_and_the_judge_decides() -> None:  # INF-24 (CS 4.3)
    assert CS.infraction("INF-24").off == "CS 4.3"
    assert pen.default_rung(CS, "INF-24") is None  # CS 4.3 names no penalty for it
    assert pen.similar(CS, "INF-24", "INF-22")  # dishonest results: misreporting one is the same kind
    with pytest.raises(KeyError):
        DKT.infraction("INF-24")


@pytest.mark.parametrize("rules", [CS, DKT], ids=["cs", "off"])
def test_other_is_left_to_the_judge_and_repeats_only_by_their_reading(rules: PenaltyRules) -> None:  # PEN-5 PEN-7
    assert pen.default_rung(rules, "INF-OTHER") is None
    assert not pen.similar(rules, "INF-OTHER", "INF-OTHER")  # two "other" cases need not be alike
    assert not pen.similar(rules, "INF-OTHER", "INF-3") and not pen.similar(rules, "INF-3", "INF-OTHER")
    assert pen.suggest(rules, "INF-OTHER", []).rung is None


def test_escalation_counts_a_similar_violation_not_only_the_identical_one() -> None:  # PEN-5 (CS 1.3 同様の違反)
    # slow play in all its entries is one kind: long thinking, slow siding, after time, wasting time
    assert all(pen.similar(CS, "INF-3", other) for other in ("INF-4", "INF-20", "INF-23"))
    assert pen.counts_for_escalation(CS, "INF-4", rungs.WARNING, same_event=False, of="INF-3")
    assert pen.suggest(CS, "INF-4", [rungs.WARNING]).rung == rungs.DUEL_LOSS
    # another kind does not count: a warning for rushing the opponent is not slow play
    assert not pen.similar(CS, "INF-4", "INF-2")
    assert not pen.counts_for_escalation(CS, "INF-4", rungs.WARNING, same_event=True, of="INF-2")
    # an earlier entry this catalog does not know counts only for itself
    assert pen.similar(CS, "INF-99", "INF-99") and not pen.similar(CS, "INF-3", "INF-99")


def test_within_the_event_a_lighter_similar_penalty_counts_for_an_escalating_entry() -> None:  # PEN-5 INF-21 INF-23
    # a caution for slow play (INF-23) and then long thinking again (INF-3, warning): never below the default
    assert pen.counts_for_escalation(CS, "INF-23", rungs.CAUTION, same_event=True, of="INF-3")
    assert pen.suggest(CS, "INF-3", [rungs.WARNING]).rung == rungs.DUEL_LOSS
    assert not pen.counts_for_escalation(CS, "INF-23", rungs.CAUTION, same_event=False, of="INF-23")


def test_inf_20_exists_only_after_time_was_called() -> None:  # INF-20 (CS 2.1 B: 対戦時間終了後)
    assert pen.needs_time_called(CS, "INF-20")
    assert not any(pen.needs_time_called(CS, i.id) for i in CS.infractions if i.id != "INF-20")


def test_pen_2_cs_1_2_the_cs_ruleset_sets_no_cap_on_downgrade_steps() -> None:
    # PEN-2, CS 1.2: 受賞資格から下げられる段階数は、ジャッジが…任意で増やすことができる: no cap in the CS
    # ruleset (a penalty records up to DOWNGRADE_STEPS_RECORDED); an organizer's ruleset may set one.
    from taikai.core.ruleset import RulesetError, parse_ruleset

    assert CS.max_downgrade_steps is None
    assert pen.downgrade_steps_allowed(CS, 4) and pen.downgrade_steps_allowed(CS, 12)
    assert pen.most_downgrade_steps(CS) == pen.DOWNGRADE_STEPS_RECORDED
    assert not pen.downgrade_steps_allowed(CS, 0) and not pen.downgrade_steps_allowed(CS, 100)
    capped = parse_ruleset('[ruleset]\nextends = "harajuku-cs-1.2"\nname = "c"\n[penalties]\nmax_downgrade_steps = 2\n')
    assert capped.penalties.max_downgrade_steps == 2
    assert pen.downgrade_steps_allowed(capped.penalties, 2) and not pen.downgrade_steps_allowed(capped.penalties, 3)
    again = parse_ruleset('[ruleset]\nextends = "dkt-2011"\nname = "a"\n[penalties]\nmax_downgrade_steps = "any"\n')
    assert again.penalties.max_downgrade_steps is None
    with pytest.raises(RulesetError) as exc:
        parse_ruleset('[ruleset]\nextends = "dkt-2011"\nname = "b"\n[penalties]\nmax_downgrade_steps = 0\n')
    assert exc.value.problems[0].params["key"] == "penalties.max_downgrade_steps"
