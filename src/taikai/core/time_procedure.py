"""The time procedure (制限時間終了時の処理) as a small state machine, one table at a time.

A judge's screen drives it: time is called during turn N of player X (``call_time``) or between duels
(``call_time_between_duels``); then each input (``duel_won``, ``duel_drawn``, ``turn_ended``,
``life_points``, ``first_player``) returns a new frozen ``TimeProcedure``. Each state says whose turn it
is, which extra turn, and which inputs it expects. Every finished duel is appended to ``record`` and the
match is judged by ``taikai.core.match.evaluate``, so the procedure and the record can never disagree.

    finish the turn -> extra turns 1..n (the first is the opponent's) -> LP entered
      -> duel decided | drawn (Swiss) | sudden death (elimination)
      -> match outcome | extra duel (first player by RPS, its own turns and LP) -> sudden death if tied
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from taikai.core.match import MatchState, Next, evaluate
from taikai.core.match_record import Drawn, Duel, LifePoints, MatchRecord, Player, TimedOut, Won
from taikai.core.problems import Problem, ProblemError
from taikai.core.ruleset import Ruleset


class Phase(StrEnum):
    FINISH_TURN = "finish_turn"  # the turn in progress when time was called is played out
    EXTRA_TURN = "extra_turn"  # エキストラターン
    LIFE_POINTS = "life_points"  # the turns are over: enter both players' LP
    SUDDEN_DEATH = "sudden_death"  # サドンデス: the duel goes on until either player's LP changes
    EXTRA_DUEL_RPS = "extra_duel_rps"  # エキストラデュエル: rock-paper-scissors decides who goes first
    EXTRA_DUEL_TURN = "extra_duel_turn"
    DONE = "done"


class Input(StrEnum):
    WIN = "win"
    DRAW = "draw"
    TURN_END = "turn_end"
    LIFE_POINTS = "life_points"
    FIRST_PLAYER = "first_player"


_EXPECTS: dict[Phase, frozenset[Input]] = {
    Phase.FINISH_TURN: frozenset({Input.WIN, Input.DRAW, Input.TURN_END}),
    Phase.EXTRA_TURN: frozenset({Input.WIN, Input.DRAW, Input.TURN_END}),
    Phase.LIFE_POINTS: frozenset({Input.LIFE_POINTS}),
    Phase.SUDDEN_DEATH: frozenset({Input.WIN}),  # the winner is whoever has more LP after the change
    Phase.EXTRA_DUEL_RPS: frozenset({Input.FIRST_PLAYER}),
    Phase.EXTRA_DUEL_TURN: frozenset({Input.WIN, Input.DRAW, Input.TURN_END}),
    Phase.DONE: frozenset(),
}


class TimeProcedureError(ProblemError):
    """An input the current state does not accept."""


@dataclass(frozen=True)
class TimeProcedure:
    ruleset: Ruleset = field(repr=False)
    record: MatchRecord  # the duels finished so far, including those decided by this procedure
    phase: Phase
    state: MatchState  # core.match's view of ``record``
    turn_player: Player | None = None
    turn: int = 0  # which extra turn (or extra-duel turn), from 1; 0 while the called turn is finished
    turns: int = 0  # how many extra turns (or extra-duel turns) there are
    lp: LifePoints | None = None  # the equal LP that sent the duel to sudden death
    in_extra_duel: bool = False

    @property
    def expects(self) -> frozenset[Input]:
        # A game that itself draws is recorded in either format: in single elimination it is taikai's reading
        # (core.match.DRAW_AFTER_TIME, DRAW_IN_EXTRA_DUEL), flagged for the judge; the judge is never stuck.
        return _EXPECTS[self.phase]

    @property
    def starting_lp(self) -> int | None:
        """The extra duel's starting LP (TIME-E-5); None outside it."""
        return self.ruleset.time.extra_duel_lp if self.in_extra_duel else None


def call_time(record: MatchRecord, ruleset: Ruleset, turn_player: Player) -> TimeProcedure:
    """Time is called during a turn of ``turn_player`` in the next duel of ``record``: finish that turn."""
    state = _open_match(record, ruleset)
    return TimeProcedure(ruleset, record, Phase.FINISH_TURN, state, turn_player=turn_player)


def call_time_between_duels(record: MatchRecord, ruleset: Ruleset) -> TimeProcedure:
    """Time is called while no duel is being played (TIME-S-6, TIME-E-4, TIME-E-5); after 1–1–1 in single
    elimination the extra duel was due already (``core.match.TIED_AFTER_MOST_DUELS``) and stays due."""
    if evaluate(record, ruleset).next is not Next.EXTRA_DUEL:
        _open_match(record, ruleset)
    timed = replace(record, time_called_between_duels=True)
    return _settled(TimeProcedure(ruleset, timed, Phase.DONE, evaluate(timed, ruleset)))


def duel_won(proc: TimeProcedure, winner: Player) -> TimeProcedure:
    """A normal win in the current turn (TIME-*-1), or the first LP change in sudden death (TIME-E-3)."""
    _expect(proc, Input.WIN)
    if proc.phase is Phase.SUDDEN_DEATH:
        assert proc.lp is not None
        return _append(proc, TimedOut(proc.lp, sudden_death=winner, extra_duel=proc.in_extra_duel))
    if proc.in_extra_duel:
        return _append(proc, Won(winner, extra_duel=True))
    return _append(proc, Won(winner, time_called=True))


def duel_drawn(proc: TimeProcedure) -> TimeProcedure:
    """The game itself ended the duel in a draw during the called turn, the extra turns or the extra duel
    (TIME-S-1; in single elimination a flagged reading: the duel score decides, a drawn extra duel is played
    again)."""
    _expect(proc, Input.DRAW)
    return _append(proc, Drawn(extra_duel=True) if proc.in_extra_duel else Drawn(time_called=True))


def turn_ended(proc: TimeProcedure) -> TimeProcedure:
    """The current turn ended with no winner: the next extra turn is the opponent's (TIME-E-1, TIME-S-1)."""
    _expect(proc, Input.TURN_END)
    player = proc.turn_player
    assert player is not None
    if proc.phase is Phase.FINISH_TURN:
        proc = replace(proc, phase=Phase.EXTRA_TURN, turns=proc.ruleset.time.extra_turns)
    if proc.turn >= proc.turns:
        return replace(proc, phase=Phase.LIFE_POINTS, turn=0)
    return replace(proc, turn=proc.turn + 1, turn_player=player.opponent)


def life_points(proc: TimeProcedure, a: int, b: int) -> TimeProcedure:
    """Both players' LP after the last turn: more LP wins; equal LP draws (Swiss) or goes to sudden death."""
    _expect(proc, Input.LIFE_POINTS)
    lp = LifePoints(a, b)
    duel = TimedOut(lp, extra_duel=proc.in_extra_duel)
    state = evaluate(_with(proc.record, duel), proc.ruleset)
    if state.next is Next.SUDDEN_DEATH:  # TIME-E-3: the duel simply goes on
        last = proc.turn_player
        return replace(proc, phase=Phase.SUDDEN_DEATH, lp=lp, turn_player=last.opponent if last else None)
    return _append(proc, duel)


def first_player(proc: TimeProcedure, player: Player) -> TimeProcedure:
    """Rock-paper-scissors chose who plays first in the extra duel (TIME-E-5)."""
    _expect(proc, Input.FIRST_PLAYER)
    turns = proc.ruleset.time.extra_duel_turns
    return replace(proc, phase=Phase.EXTRA_DUEL_TURN, in_extra_duel=True, turn=1, turns=turns, turn_player=player)


def penalty_duel_loss(proc: TimeProcedure, loser: Player) -> TimeProcedure:
    """A duel-loss penalty (PEN-1) while the procedure runs, e.g. INF-20 (CS 2.1 B: not playing faster after
    time): the duel being played goes to the opponent and keeps its time state, so the match is judged as
    after time (TIME-S-4/5, TIME-E-4/5), not as an ordinary duel. Before or during the extra duel, it is the
    extra duel that is lost (TIME-E-5)."""
    if proc.phase is Phase.DONE:
        raise TimeProcedureError(Problem("procedure-done"))
    winner = loser.opponent
    if proc.in_extra_duel or proc.phase is Phase.EXTRA_DUEL_RPS:
        return _append(proc, Won(winner, extra_duel=True))
    return _append(proc, Won(winner, time_called=True))


def _open_match(record: MatchRecord, ruleset: Ruleset) -> MatchState:
    state = evaluate(record, ruleset)
    if state.next is not Next.DUEL:
        raise TimeProcedureError(Problem("time-not-callable", duels=len(record.duels)))
    return state


def _expect(proc: TimeProcedure, given: Input) -> None:
    if given not in proc.expects:
        expected = sorted(i.value for i in proc.expects)
        raise TimeProcedureError(
            Problem("unexpected-input", input=given.value, phase=proc.phase.value, expected=expected)
        )


def _with(record: MatchRecord, duel: Duel) -> MatchRecord:
    return replace(record, duels=(*record.duels, duel))


def _append(proc: TimeProcedure, duel: Duel) -> TimeProcedure:
    record = _with(proc.record, duel)
    return _settled(replace(proc, record=record, state=evaluate(record, proc.ruleset), lp=None))


def _settled(proc: TimeProcedure) -> TimeProcedure:
    """After a duel is decided: the match is over, or an extra duel is due (TIME-E-5)."""
    if proc.state.next is Next.EXTRA_DUEL:
        return replace(proc, phase=Phase.EXTRA_DUEL_RPS, turn_player=None, turn=0, turns=0)
    return replace(proc, phase=Phase.DONE, turn_player=None, turn=0, turns=0, in_extra_duel=False)
