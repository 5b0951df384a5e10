"""The usual match outcomes as one-tap choices (勝ち 2–0, 2–1, 負け 1–2, 0–2, 引き分け …) for a player's phone.

Each choice stands for a duel record; only choices the ruleset says finish a match in the given format are
offered (MATCH-1, MATCH-2, TIME-S-6, END-2). Anything else (time during a duel, life points, a drawn duel)
goes through the duel-by-duel form.

The duels of a quick choice are listed in a fixed order (the match loser's duel wins first), so two players
who both tap their side of the same outcome report the same record.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.match import Format, MatchRecord, MatchRecordError, Player, Won, evaluate, intentional_draw_allowed
from taikai.core.match_json import Report
from taikai.core.ruleset import Ruleset

_OTHER = {Player.A: Player.B, Player.B: Player.A}


@dataclass(frozen=True)
class QuickOutcome:
    """One choice, from the view of the player holding the phone ("mine" / "theirs")."""

    code: str  # the button's value: "win-2-1", "loss-0-2", "draw-1-1", "intentional-draw"
    result: str  # "win" | "loss" | "draw"
    mine: int  # duels won by the player holding the phone
    theirs: int
    time_between_duels: bool  # time was called between duels (TIME-S-6)
    basis: str  # match_json.BASES

    def report(self, me: Player) -> Report:
        """The record this choice stands for, with ``me`` the side of the player holding the phone."""
        if self.result == "draw":
            order = (Player.A, Player.B)  # the same on both phones
        else:
            order = (_OTHER[me], me) if self.result == "win" else (me, _OTHER[me])  # the match loser first
        count = {me: self.mine, _OTHER[me]: self.theirs}
        duels = tuple(Won(p) for p in order for _ in range(count[p]))
        return Report(duels, self.time_between_duels, self.basis)


def _candidates(ruleset: Ruleset) -> list[QuickOutcome]:
    need = ruleset.match.duels_to_win
    wins = [QuickOutcome(f"win-{need}-{lost}", "win", need, lost, False, "played") for lost in range(need)]
    losses = [QuickOutcome(f"loss-{won}-{need}", "loss", won, need, False, "played") for won in reversed(range(need))]
    level = need - 1  # 1–1 when time is called before the deciding duel
    draws = [QuickOutcome(f"draw-{level}-{level}", "draw", level, level, True, "played")] if level > 0 else []
    return wins + losses + draws


def _finishes(outcome: QuickOutcome, fmt: Format, ruleset: Ruleset) -> bool:
    try:
        state = evaluate(MatchRecord(fmt, outcome.report(Player.A).duels, outcome.time_between_duels), ruleset)
    except MatchRecordError:
        return False
    if not state.finished:
        return False
    expected = {"win": Player.A, "loss": Player.B, "draw": None}[outcome.result]
    return state.winner == expected and state.draw == (outcome.result == "draw")


def quick_outcomes(ruleset: Ruleset, fmt: Format) -> tuple[QuickOutcome, ...]:
    """The one-tap choices this format allows, in the order a phone shows them."""
    found = [o for o in _candidates(ruleset) if _finishes(o, fmt, ruleset)]
    if intentional_draw_allowed(fmt, ruleset):  # END-2
        found.append(QuickOutcome("intentional-draw", "draw", 0, 0, False, "intentional-draw"))
    return tuple(found)


def quick_outcome(code: str, ruleset: Ruleset, fmt: Format) -> QuickOutcome | None:
    return next((o for o in quick_outcomes(ruleset, fmt) if o.code == code), None)
