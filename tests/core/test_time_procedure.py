"""The time procedure state machine (OFF C 判定1-3, スイスドロー [1][2]), step by step; its properties against
core.match are in test_time_procedure_properties.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taikai.core import time_procedure as tp
from taikai.core.match import DRAW_AFTER_TIME, DRAW_IN_EXTRA_DUEL, Chooser, MatchRecordError, Next, Score, evaluate
from taikai.core.match_record import Drawn, Duel, Format, LifePoints, MatchRecord, Player, TimedOut, Won
from taikai.core.ruleset import builtin, parse_ruleset
from taikai.core.time_procedure import Input, Phase, TimeProcedureError

DKT = builtin("dkt-2011")
A, B = Player.A, Player.B


def record(fmt: Format, *duels: Duel) -> MatchRecord:
    return MatchRecord(fmt, duels)


def play_extra_turns(proc: tp.TimeProcedure) -> tp.TimeProcedure:
    while proc.phase is Phase.EXTRA_TURN:
        proc = tp.turn_ended(proc)
    return proc


# --- TIME-E-1 / TIME-S-1: finish the turn, then extra turns from the opponent's -------------------


@pytest.mark.parametrize("fmt", list(Format))
def test_time_e_1_and_time_s_1_the_called_turn_is_finished_first(fmt: Format) -> None:
    proc = tp.call_time(record(fmt, Won(A)), DKT, turn_player=A)
    assert (proc.phase, proc.turn_player, proc.turn) == (Phase.FINISH_TURN, A, 0)
    assert proc.expects >= {Input.WIN, Input.TURN_END}


@pytest.mark.parametrize("fmt", list(Format))
def test_time_e_1_and_time_s_1_extra_turn_1_is_the_opponents(fmt: Format) -> None:
    proc = tp.turn_ended(tp.call_time(record(fmt), DKT, turn_player=A))
    seen = []
    while proc.phase is Phase.EXTRA_TURN:
        seen.append((proc.turn, proc.turn_player))
        proc = tp.turn_ended(proc)
    assert seen == [(1, B), (2, A), (3, B)]
    assert proc.phase is Phase.LIFE_POINTS
    assert proc.expects == {Input.LIFE_POINTS}


def test_time_e_1_the_number_of_extra_turns_comes_from_the_ruleset() -> None:
    five = parse_ruleset('[ruleset]\nextends = "dkt-2011"\nname = "five"\n[time]\nextra_turns = 5\n')
    proc = tp.turn_ended(tp.call_time(record(Format.ELIMINATION), five, turn_player=B))
    assert proc.turns == five.time.extra_turns
    turns = 0
    while proc.phase is Phase.EXTRA_TURN:
        turns += 1
        proc = tp.turn_ended(proc)
    assert turns == five.time.extra_turns


def test_time_e_1_a_win_in_the_called_turn_ends_the_duel_normally() -> None:
    proc = tp.duel_won(tp.call_time(record(Format.ELIMINATION, Won(A)), DKT, turn_player=A), A)
    assert proc.phase is Phase.DONE
    assert proc.record.duels[-1] == Won(A, time_called=True)
    assert (proc.state.winner, proc.state.rules) == (A, ("TIME-E-1", "MATCH-1"))


@pytest.mark.parametrize("fmt", list(Format))
def test_time_e_2_and_time_s_1_a_win_in_an_extra_turn_ends_the_duel(fmt: Format) -> None:
    proc = tp.turn_ended(tp.turn_ended(tp.call_time(record(fmt), DKT, turn_player=A)))
    assert (proc.turn, proc.turn_player) == (2, A)
    proc = tp.duel_won(proc, A)
    assert (proc.phase, proc.state.winner) == (Phase.DONE, A)


def test_time_s_1_a_game_draw_in_an_extra_turn_is_a_drawn_duel() -> None:
    proc = tp.duel_drawn(tp.turn_ended(tp.call_time(record(Format.SWISS, Won(B)), DKT, turn_player=A)))
    assert proc.record.duels[-1] == Drawn(time_called=True)
    assert proc.state.winner is B


def test_time_e_7_a_game_draw_in_the_extra_turns_is_recorded_as_a_flagged_reading() -> None:
    # TIME-E-1/2 are silent on a game that itself draws: the judge records it (never stuck), flagged; the duel
    # score decides (TIME-E-7): 1–0 up, the match is won; 0–0 goes to the extra duel.
    ahead = tp.duel_drawn(tp.turn_ended(tp.call_time(record(Format.ELIMINATION, Won(A)), DKT, turn_player=B)))
    assert ahead.record.duels[-1] == Drawn(time_called=True)
    assert (ahead.phase, ahead.state.winner, ahead.state.judge_flag) == (Phase.DONE, A, True)
    assert ahead.state.readings == (DRAW_AFTER_TIME,)
    level = tp.duel_drawn(tp.call_time(record(Format.ELIMINATION), DKT, turn_player=A))
    assert level.phase is Phase.EXTRA_DUEL_RPS


def test_time_e_6_a_game_draw_in_the_extra_duel_plays_it_again() -> None:
    proc = tp.first_player(tp.call_time_between_duels(record(Format.ELIMINATION), DKT), A)
    again = tp.duel_drawn(proc)
    assert again.record.duels[-1] == Drawn(extra_duel=True)
    assert (again.phase, again.state.readings) == (Phase.EXTRA_DUEL_RPS, (DRAW_IN_EXTRA_DUEL,))
    done = tp.duel_won(tp.first_player(again, B), B)
    assert (done.phase, done.state.winner, done.state.judge_flag) == (Phase.DONE, B, True)


# --- TIME-E-2 / TIME-S-2: the LP decide ------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(Format))
def test_time_e_2_and_time_s_2_more_lp_wins_the_duel(fmt: Format) -> None:
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(fmt, Won(B), Won(A)), DKT, turn_player=B)))
    proc = tp.life_points(proc, 1500, 1400)
    assert (proc.phase, proc.state.winner, proc.state.score) == (Phase.DONE, A, Score(a=2, b=1))


def test_time_s_2_equal_lp_draw_the_duel_and_the_table_decides() -> None:  # TIME-S-3 row 1-1-1
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.SWISS, Won(B), Won(A)), DKT, turn_player=B)))
    proc = tp.life_points(proc, 1500, 1500)
    assert (proc.phase, proc.state.draw, proc.state.rules) == (Phase.DONE, True, ("TIME-S-2", "TIME-S-3"))


def test_time_e_3_equal_lp_continue_into_sudden_death() -> None:
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.ELIMINATION), DKT, turn_player=A)))
    proc = tp.life_points(proc, 3000, 3000)
    # The third extra turn was B's; the duel simply goes on with A's turn.
    assert (proc.phase, proc.turn_player, proc.expects) == (Phase.SUDDEN_DEATH, A, frozenset({Input.WIN}))
    proc = tp.duel_won(proc, B)  # e.g. A paid LP as a cost: B now has more LP
    assert proc.record.duels[-1] == TimedOut(LifePoints(3000, 3000), sudden_death=B)
    assert (proc.phase, proc.state.winner, proc.state.rules) == (Phase.DONE, B, ("TIME-E-3", "TIME-E-4"))


def test_negative_lp_are_refused_by_the_match_rules() -> None:
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.SWISS), DKT, turn_player=A)))
    with pytest.raises(MatchRecordError) as caught:
        tp.life_points(proc, -1, 3000)
    assert caught.value.problem.code == "lp-not-positive"


# --- TIME-E-4, TIME-E-5, TIME-S-6: time between duels, the extra duel ------------------------------


def test_time_e_4_time_between_duels_at_one_win_ends_the_match() -> None:  # 判定3
    proc = tp.call_time_between_duels(record(Format.ELIMINATION, Won(A)), DKT)
    assert (proc.phase, proc.state.winner, proc.state.rules) == (Phase.DONE, A, ("TIME-E-4",))


def test_time_s_6_time_between_duels_in_swiss_ends_the_match() -> None:
    proc = tp.call_time_between_duels(record(Format.SWISS, Won(A), Won(B)), DKT)
    assert (proc.phase, proc.state.draw, proc.record.time_called_between_duels) == (Phase.DONE, True, True)


def test_time_e_5_the_extra_duel_rps_then_its_turns_and_lp_from_the_ruleset() -> None:  # 判定2
    proc = tp.call_time_between_duels(record(Format.ELIMINATION, Won(A), Won(B)), DKT)
    assert (proc.phase, proc.state.chooser, proc.expects) == (
        Phase.EXTRA_DUEL_RPS,
        Chooser.RPS,
        frozenset({Input.FIRST_PLAYER}),
    )
    proc = tp.first_player(proc, B)
    assert (proc.phase, proc.turn, proc.turn_player) == (Phase.EXTRA_DUEL_TURN, 1, B)
    assert (proc.turns, proc.starting_lp) == (DKT.time.extra_duel_turns, DKT.time.extra_duel_lp)
    players = []
    while proc.phase is Phase.EXTRA_DUEL_TURN:
        players.append(proc.turn_player)
        proc = tp.turn_ended(proc)
    assert players == [B, A] * (DKT.time.extra_duel_turns // 2)
    proc = tp.life_points(proc, 6000, 7000)
    assert (proc.phase, proc.state.winner, proc.state.score) == (Phase.DONE, B, Score(a=1, b=2))
    assert proc.record.duels[-1] == TimedOut(LifePoints(6000, 7000), extra_duel=True)


def test_time_e_5_one_all_after_the_extra_turns_leads_to_the_extra_duel() -> None:  # 判定1 ※ -> 判定2
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.ELIMINATION, Won(A)), DKT, turn_player=A)))
    proc = tp.life_points(proc, 100, 200)
    assert (proc.phase, proc.state.next) == (Phase.EXTRA_DUEL_RPS, Next.EXTRA_DUEL)
    proc = tp.duel_won(tp.first_player(proc, A), A)
    assert (proc.phase, proc.state.winner) == (Phase.DONE, A)


def test_time_e_5_a_tied_extra_duel_goes_to_sudden_death() -> None:
    proc = tp.first_player(tp.call_time_between_duels(record(Format.ELIMINATION), DKT), A)
    while proc.phase is Phase.EXTRA_DUEL_TURN:
        proc = tp.turn_ended(proc)
    proc = tp.duel_won(tp.life_points(proc, 8000, 8000), A)
    assert proc.record.duels == (TimedOut(LifePoints(8000, 8000), sudden_death=A, extra_duel=True),)
    assert (proc.state.winner, proc.state.rules) == (A, ("TIME-E-5", "TIME-E-3"))


def test_time_cannot_be_called_in_a_finished_match() -> None:
    with pytest.raises(TimeProcedureError) as caught:
        tp.call_time(record(Format.SWISS, Won(A), Won(A)), DKT, turn_player=A)
    assert caught.value.problem.code == "time-not-callable"


def test_inputs_the_state_does_not_expect_are_refused() -> None:
    proc = tp.call_time(record(Format.SWISS), DKT, turn_player=A)
    with pytest.raises(TimeProcedureError) as caught:
        tp.life_points(proc, 1, 2)
    assert caught.value.problem.params["expected"] == ["draw", "turn_end", "win"]


# --- INF-20 after time (CS 2.1 B): a penalty's duel loss keeps the time state --------------------------


def test_inf_20_time_s_5_a_penalty_in_the_duel_under_time_in_duel_1_gives_the_opponent_the_match() -> None:
    # TIME-S-5: the old penalty duel was an ordinary win, and the match waited for duel 2
    proc = tp.turn_ended(tp.call_time(record(Format.SWISS), DKT, turn_player=A))
    done = tp.penalty_duel_loss(proc, A)
    assert (done.phase, done.state.winner, done.record.duels) == (Phase.DONE, B, (Won(B, time_called=True),))
    assert "TIME-S-5" in done.state.rules


def test_inf_20_time_s_4_one_nil_up_and_penalised_in_duel_2_under_time_is_a_match_draw() -> None:
    # TIME-S-4 (1-1 after time in duel 2): not an ordinary duel 3
    proc = tp.call_time(record(Format.SWISS, Won(A)), DKT, turn_player=B)
    done = tp.penalty_duel_loss(proc, A)
    assert (done.phase, done.state.finished, done.state.draw) == (Phase.DONE, True, True)
    assert "TIME-S-4" in done.state.rules


def test_inf_20_time_e_5_one_nil_up_and_penalised_under_time_in_elimination_is_an_extra_duel() -> None:
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.ELIMINATION, Won(A)), DKT, turn_player=A)))
    tied = tp.penalty_duel_loss(proc, A)  # penalised while the LP were being counted
    assert (tied.phase, tied.state.next) == (Phase.EXTRA_DUEL_RPS, Next.EXTRA_DUEL)
    # A penalty before or during the extra duel loses the extra duel (TIME-E-5)
    done = tp.penalty_duel_loss(tp.first_player(tied, B), B)
    assert (done.phase, done.state.winner, done.record.duels[-1]) == (Phase.DONE, A, Won(A, extra_duel=True))
    with pytest.raises(TimeProcedureError) as caught:
        tp.penalty_duel_loss(done, A)
    assert caught.value.problem.code == "procedure-done"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(Format)), st.sampled_from([(), (Won(A),), (Won(A), Won(B))]), st.data())
def test_inf_20_a_penalty_at_any_step_of_the_procedure_gives_a_record_core_accepts(
    fmt: Format, before: tuple[Duel, ...], data: st.DataObject
) -> None:
    # PEN-1: the penalty duel goes to the opponent; the record stays one the rules can produce
    proc = tp.call_time(record(fmt, *before), DKT, data.draw(st.sampled_from(list(Player))))
    for _ in range(data.draw(st.integers(min_value=0, max_value=8))):
        if proc.phase is Phase.DONE:
            break
        step = data.draw(st.sampled_from(sorted(proc.expects)))
        if step is Input.WIN:
            proc = tp.duel_won(proc, data.draw(st.sampled_from(list(Player))))
        elif step is Input.DRAW:
            proc = tp.duel_drawn(proc)
        elif step is Input.TURN_END:
            proc = tp.turn_ended(proc)
        elif step is Input.LIFE_POINTS:
            proc = tp.life_points(proc, 1000, 1000)
        else:
            proc = tp.first_player(proc, A)
    if proc.phase is Phase.DONE:
        return
    loser = data.draw(st.sampled_from(list(Player)))
    after = tp.penalty_duel_loss(proc, loser)
    last = after.record.duels[-1]
    assert isinstance(last, Won) and last.winner is loser.opponent
    assert evaluate(after.record, DKT) == after.state


def test_time_e_7_time_in_duel_1_won_on_lp_is_a_one_nil_match_win() -> None:
    # TIME-E-7: each duel is decided by the steps above, then the match goes to the player with more duel wins
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.ELIMINATION), DKT, turn_player=B)))
    proc = tp.life_points(proc, 4000, 2500)
    assert (proc.phase, proc.state.winner, proc.state.score) == (Phase.DONE, A, Score(a=1, b=0))


def test_time_e_7_one_all_after_time_goes_to_the_extra_duel() -> None:
    # TIME-E-7 with TIME-E-5: 1–1 after the duel under time is decided goes to the extra duel
    proc = play_extra_turns(tp.turn_ended(tp.call_time(record(Format.ELIMINATION, Won(A)), DKT, turn_player=A)))
    proc = tp.life_points(proc, 1000, 3000)
    assert (proc.phase.value, proc.state.next.value, proc.state.winner) == ("extra_duel_rps", "extra_duel", None)
