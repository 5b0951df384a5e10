"""Duels a penalty decided (PEN-1: a duel loss) are facts of the match that every later report keeps.

A judge's duel loss (INF-20 and the other duel-loss rungs) is a duel won by the opponent at its place in the
match. The players' reports, the slip and a correction may say anything about the other duels, but never that
the penalty duel went otherwise: such a record is refused naming the duel (``contradiction``). The one-tap
choices and the slip's keys are laid out around the penalty duels (``arranged``), and a choice that cannot hold
them (a 2–0 win for the player who lost a duel by penalty) is not offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taikai.core.match_record import Duel, Player, Won
from taikai.core.problems import Problem


@dataclass(frozen=True)
class PenaltyDuel:
    """Duel number ``duel`` (1 = the first) was lost by ``loser`` by penalty ``penalty``."""

    duel: int
    loser: Player
    penalty: str = ""

    def stored(self) -> dict[str, Any]:
        return {"duel": self.duel, "loser": self.loser.value.lower(), "penalty": self.penalty}


def read(rows: Iterable[Mapping[str, Any]]) -> tuple[PenaltyDuel, ...]:
    """The stored form (``Match.penalty_duels``) -> PenaltyDuel, in duel order."""
    out = [PenaltyDuel(int(r["duel"]), Player(str(r["loser"]).upper()), str(r.get("penalty", ""))) for r in rows]
    return tuple(sorted(out, key=lambda p: p.duel))


def contradiction(duels: Sequence[Duel], fixed: Iterable[PenaltyDuel]) -> Problem | None:
    """The first penalty duel ``duels`` does not hold (missing, or not won by the penalised player's opponent)."""
    for p in fixed:
        held = p.duel <= len(duels) and isinstance(duels[p.duel - 1], Won)
        if not held or duels[p.duel - 1].winner is not p.loser.opponent:  # type: ignore[union-attr]
            return Problem("contradicts-penalty-duel", number=p.duel, loser=p.loser.value, penalty=p.penalty)
    return None


def arranged(
    wins: Mapping[Player, int], order: Sequence[Player], fixed: Sequence[PenaltyDuel]
) -> tuple[Duel, ...] | None:
    """The duels of an outcome given as duel wins per player, with each penalty duel at its place and the
    other duels filled in ``order`` (the one-tap order: the match loser's wins first, so both phones agree).
    None when the counts cannot hold the penalty duels."""
    left = dict(wins)
    places: dict[int, Player] = {}
    for p in fixed:
        winner = p.loser.opponent
        if left.get(winner, 0) < 1 or p.duel in places:
            return None
        places[p.duel] = winner
        left[winner] -= 1
    total = sum(wins.values())
    if places and max(places) > total:
        return None
    free = [player for player in order for _ in range(left.get(player, 0))]
    out: list[Duel] = []
    for number in range(1, total + 1):
        out.append(Won(places[number]) if number in places else Won(free.pop(0)))
    return tuple(out)
