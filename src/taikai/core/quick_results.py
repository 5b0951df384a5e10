"""The usual match outcomes as one choice each: one tap on a player's phone, one key at the scorekeeper's desk.

Each choice stands for a duel record built from the ruleset (MATCH-1: duels to win and the most duels) and
checked by ``taikai.core.match.evaluate``; a choice the format does not allow (a draw or an intentional draw
in single elimination, MATCH-2, END-2) is left out. Anything else (time during a duel, life points, a drawn
duel) goes through the duel-by-duel form.

- ``quick_outcomes``: from the view of the player holding the phone (勝ち 2–0, 2–1, 負け 1–2, 0–2, 引き分け …,
  投了: the player conceded the match, or their opponent did).
  The duels are listed in a fixed order (the match loser's duel wins first), so two players who both tap
  their side of the same outcome report the same record.
- ``quick_results``: from the result slip, read from A's side (``2-1`` is A winning two duels to one).

Both take the table's penalty duels (PEN-1, ``core.penalty_duels``): each choice keeps them at their places,
and a choice that cannot (a 2–0 for the player who lost a duel by penalty) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.match import MatchRecordError, evaluate, intentional_draw_allowed
from taikai.core.match_json import Report
from taikai.core.match_record import Drawn, Duel, Format, MatchRecord, Player, Won
from taikai.core.penalty_duels import PenaltyDuel, arranged
from taikai.core.ruleset import Ruleset

_OTHER = {Player.A: Player.B, Player.B: Player.A}


@dataclass(frozen=True)
class QuickOutcome:
    """One choice, from the view of the player holding the phone ("mine" / "theirs")."""

    code: str  # the button's value: "win-2-1", "loss-0-2", "draw-1-1", "intentional-draw", "conceded"
    result: str  # "win" | "loss" | "draw"
    mine: int  # duels won by the player holding the phone
    theirs: int
    time_between_duels: bool  # time was called between duels (TIME-S-6)
    basis: str  # match_json.BASES

    def report(self, me: Player, fixed: tuple[PenaltyDuel, ...] = ()) -> Report:
        """The record this choice stands for, with ``me`` the side of the player holding the phone, and the
        table's penalty duels at their places (an empty record when it cannot hold them)."""
        if self.result == "draw":
            order = (Player.A, Player.B)  # the same on both phones
        else:
            order = (_OTHER[me], me) if self.result == "win" else (me, _OTHER[me])  # the match loser first
        count = {me: self.mine, _OTHER[me]: self.theirs}
        if self.basis == "intentional-draw":
            return Report((), self.time_between_duels, self.basis)
        duels = arranged(count, order, fixed) or ()
        return Report(duels, self.time_between_duels, self.basis)


def _candidates(ruleset: Ruleset) -> list[QuickOutcome]:
    need = ruleset.match.duels_to_win
    wins = [QuickOutcome(f"win-{need}-{lost}", "win", need, lost, False, "played") for lost in range(need)]
    losses = [QuickOutcome(f"loss-{won}-{need}", "loss", won, need, False, "played") for won in reversed(range(need))]
    level = need - 1  # 1–1 when time is called before the deciding duel
    draws = [QuickOutcome(f"draw-{level}-{level}", "draw", level, level, True, "played")] if level > 0 else []
    return wins + losses + draws


def _finishes(outcome: QuickOutcome, fmt: Format, ruleset: Ruleset, fixed: tuple[PenaltyDuel, ...]) -> bool:
    duels = outcome.report(Player.A, fixed).duels
    if not duels:
        return False
    try:
        state = evaluate(MatchRecord(fmt, duels, outcome.time_between_duels), ruleset)
    except MatchRecordError:
        return False
    if not state.finished:
        return False
    expected = {"win": Player.A, "loss": Player.B, "draw": None}[outcome.result]
    return state.winner == expected and state.draw == (outcome.result == "draw")


def quick_outcomes(ruleset: Ruleset, fmt: Format, fixed: tuple[PenaltyDuel, ...] = ()) -> tuple[QuickOutcome, ...]:
    """The one-tap choices this format allows, in the order a phone shows them; with penalty duels, only the
    choices that keep them (PEN-1). An intentional draw leaves no duels, so it keeps none."""
    found = [o for o in _candidates(ruleset) if _finishes(o, fmt, ruleset, fixed)]
    if intentional_draw_allowed(fmt, ruleset) and not fixed:  # END-2
        found.append(QuickOutcome("intentional-draw", "draw", 0, 0, False, "intentional-draw"))
    found += [o for o in (_concession(r, ruleset, fmt, fixed) for r in ("win", "loss")) if o is not None]
    return tuple(found)


CONCEDED = {"win": "opponent-conceded", "loss": "conceded"}


def _concession(result: str, ruleset: Ruleset, fmt: Format, fixed: tuple[PenaltyDuel, ...]) -> QuickOutcome | None:
    """投了 (END-1): a player concedes the match. One tap records the match lost by the conceder, basis
    "concession-consent" (the opponent confirming it on their phone is the consent END-1 asks for): the
    opponent wins the duels to win, the conceder none (or the fewest the table's penalty duels leave, PEN-1).
    Duels the conceder had won go through the duel-by-duel form, which takes the same basis."""
    need = ruleset.match.duels_to_win
    for other in range(need):
        mine, theirs = (need, other) if result == "win" else (other, need)
        outcome = QuickOutcome(CONCEDED[result], result, mine, theirs, False, "concession-consent")
        if _finishes(outcome, fmt, ruleset, fixed):
            return outcome
    return None


def quick_outcome(code: str, ruleset: Ruleset, fmt: Format, fixed: tuple[PenaltyDuel, ...] = ()) -> QuickOutcome | None:
    return next((o for o in quick_outcomes(ruleset, fmt, fixed) if o.code == code), None)


# --- the scorekeeper's keys, read from A's side ------------------------------------------------------

DRAW = "draw"
INTENTIONAL_DRAW = "id"


@dataclass(frozen=True)
class QuickResult:
    key: str  # the form value: "2-0", "1-2", "draw", "id"
    winner: Player | None  # None: a draw
    wins_a: int
    wins_b: int
    report: Report


def quick_results(ruleset: Ruleset, fmt: Format, fixed: tuple[PenaltyDuel, ...] = ()) -> tuple[QuickResult, ...]:
    """A's wins by the widest margin first, then B's by the narrowest, then the draws the format allows;
    with penalty duels, only the keys that keep them, laid out around them (PEN-1)."""
    to_win, most = ruleset.match.duels_to_win, ruleset.match.max_duels
    losses = range(0, min(to_win - 1, most - to_win) + 1)
    out = [_win(Player.A, to_win, k, fixed) for k in losses]
    out += [_win(Player.B, to_win, k, fixed) for k in reversed(losses)]
    if ruleset.format_rules(fmt.value).match_draws and not fixed:
        out.append(_draw(ruleset, fmt))
    if intentional_draw_allowed(fmt, ruleset) and not fixed:
        out.append(QuickResult(INTENTIONAL_DRAW, None, 0, 0, Report((), False, "intentional-draw")))
    return tuple(r for r in out if r is not None and _valid(r, ruleset, fmt))


def _win(winner: Player, to_win: int, lost: int, fixed: tuple[PenaltyDuel, ...] = ()) -> QuickResult | None:
    duels = arranged({winner: to_win, winner.opponent: lost}, (winner.opponent, winner), fixed)
    if duels is None:
        return None
    a, b = (to_win, lost) if winner is Player.A else (lost, to_win)
    return QuickResult(f"{a}-{b}", winner, a, b, Report(duels))


def _draw(ruleset: Ruleset, fmt: Format) -> QuickResult:
    """The usual match draw: time called between duels with the duel score level (TIME-S-6); where the rules
    would not call that a draw, the most duels played with level wins and the rest drawn (MATCH-2)."""
    level = ruleset.match.duels_to_win - 1
    split: tuple[Duel, ...] = tuple(Won(p) for _ in range(level) for p in (Player.A, Player.B))
    at_time = Report(split, True)
    if _draws(at_time, ruleset, fmt):
        return QuickResult(DRAW, None, level, level, at_time)
    played = Report((*split, *(Drawn() for _ in range(ruleset.match.max_duels - len(split)))))
    return QuickResult(DRAW, None, level, level, played)


def _draws(report: Report, ruleset: Ruleset, fmt: Format) -> bool:
    try:
        state = evaluate(_as_record(report, fmt), ruleset)
    except MatchRecordError:
        return False
    return state.finished and state.draw


def _valid(result: QuickResult, ruleset: Ruleset, fmt: Format) -> bool:
    if result.key == INTENTIONAL_DRAW:
        return True
    try:
        state = evaluate(_as_record(result.report, fmt), ruleset)
    except MatchRecordError:
        return False
    if not state.finished:
        return False
    return state.draw if result.winner is None else state.winner is result.winner


def _as_record(report: Report, fmt: Format) -> MatchRecord:
    return MatchRecord(fmt, report.duels, report.time_called_between_duels)


def quick_result(ruleset: Ruleset, fmt: Format, key: str, fixed: tuple[PenaltyDuel, ...] = ()) -> QuickResult | None:
    return next((r for r in quick_results(ruleset, fmt, fixed) if r.key == key), None)
