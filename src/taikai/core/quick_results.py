"""The usual outcomes of a match, for entering results from slips by keyboard (2–0, 2–1, 1–2, 0–2, draw, ID).

Each outcome carries the duel record it stands for, built from the ruleset (MATCH-1: duels to win and the most
duels) and checked by ``taikai.core.match.evaluate``; an outcome the format does not allow (a draw or an
intentional draw in single elimination, MATCH-2, END-2) is left out. Keys read from A's side: ``2-1`` is
A winning two duels to one, ``1-2`` B winning.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.match import (
    Drawn,
    Duel,
    Format,
    MatchRecord,
    MatchRecordError,
    Player,
    Won,
    evaluate,
    intentional_draw_allowed,
)
from taikai.core.match_json import Report
from taikai.core.ruleset import Ruleset

DRAW = "draw"
INTENTIONAL_DRAW = "id"


@dataclass(frozen=True)
class QuickResult:
    key: str  # the form value: "2-0", "1-2", "draw", "id"
    winner: Player | None  # None: a draw
    wins_a: int
    wins_b: int
    report: Report


def quick_results(ruleset: Ruleset, fmt: Format) -> tuple[QuickResult, ...]:
    """A's wins by the widest margin first, then B's by the narrowest, then the draws the format allows."""
    to_win, most = ruleset.match.duels_to_win, ruleset.match.max_duels
    losses = range(0, min(to_win - 1, most - to_win) + 1)
    out = [_win(Player.A, to_win, k) for k in losses]
    out += [_win(Player.B, to_win, k) for k in reversed(losses)]
    if ruleset.format_rules(fmt.value).match_draws:
        out.append(_draw(ruleset, fmt))
    if intentional_draw_allowed(fmt, ruleset):
        out.append(QuickResult(INTENTIONAL_DRAW, None, 0, 0, Report((), False, "intentional-draw")))
    return tuple(r for r in out if r is not None and _valid(r, ruleset, fmt))


def _win(winner: Player, to_win: int, lost: int) -> QuickResult:
    duels: tuple[Duel, ...] = (*(Won(winner.opponent) for _ in range(lost)), *(Won(winner) for _ in range(to_win)))
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


def quick_result(ruleset: Ruleset, fmt: Format, key: str) -> QuickResult | None:
    return next((r for r in quick_results(ruleset, fmt) if r.key == key), None)
