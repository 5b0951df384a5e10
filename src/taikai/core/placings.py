"""Final placings (最終順位): how far each player went, read from the event sheet.

After a top cut (or in a pure single-elimination event) the bracket decides the top: the champion (優勝), the
finalist (準優勝), both semifinal losers (ベスト4), the quarterfinal losers (ベスト8), and so on; players who lost in
the same bracket round share a place (1, 2, 3, 3, 5, 5, 5, 5, ...) and are listed in their Swiss order (their seed).
The rest follow in Swiss standings order, keeping the standings' ties. Disqualified players (PEN-1) come after
everyone, marked. A player who never played a match (no table, no bye) is not placed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from taikai.core.pairing.types import PlayerId
from taikai.core.sheet import Reached, Sheet


class Stage(StrEnum):
    CHAMPION = "champion"  # 優勝
    FINALIST = "finalist"  # 準優勝
    BEST = "best"  # ベストN: lost in the bracket round of N players (``best`` says N)
    IN_BRACKET = "in-bracket"  # still playing: the bracket has not finished
    SWISS = "swiss"  # did not reach (or there was no) bracket


@dataclass(frozen=True)
class Placing:
    rank: int
    id: PlayerId
    stage: Stage
    best: int  # the bracket round reached, as its number of players (1 = champion); 0 for Swiss only
    disqualified: bool = False


def placings(
    sheet: Sheet, swiss_order: Sequence[tuple[PlayerId, int]], disqualified: Collection[PlayerId] = ()
) -> tuple[Placing, ...]:
    """``swiss_order``: (player, standings rank) best first, as the standings give them (ties share a rank)."""
    swiss_rank = dict(swiss_order)
    seed = {pid: k for k, (pid, _) in enumerate(swiss_order)}
    barred = set(disqualified)
    lines = [ln for ln in sheet.lines if ln.opponents or ln.byes or ln.bracket_rounds]
    seeded = [ln for ln in lines if ln.bracket_rounds]
    rounds = max(len(seeded) - 1, 0).bit_length()  # rounds of a bracket of this many players (byes included)
    in_bracket = [ln for ln in seeded if ln.id not in barred]
    bracket = []
    for ln in in_bracket:
        if ln.reached == Reached.CHAMPION:
            stage, best = Stage.CHAMPION, 1
        elif ln.eliminated:
            best = 1 << (rounds - ln.bracket_rounds + 1)
            stage = Stage.FINALIST if best == 2 else Stage.BEST
        else:
            stage, best = Stage.IN_BRACKET, 1 << max(rounds - ln.bracket_rounds, 0)
        bracket.append((best, seed.get(ln.id, len(seed)), ln.id, stage))
    bracket.sort()
    out: list[Placing] = []
    for k, (best, _, pid, stage) in enumerate(bracket):
        rank = out[-1].rank if k and bracket[k - 1][0] == best else k + 1
        out.append(Placing(rank, pid, stage, best))
    placed = {p.id for p in out}
    rest = sorted(
        (ln.id for ln in lines if ln.id not in placed and ln.id not in barred),
        key=lambda pid: seed.get(pid, len(seed)),
    )
    offset = len(out)
    for k, pid in enumerate(rest):
        tied = k and swiss_rank.get(pid) == swiss_rank.get(rest[k - 1])
        out.append(Placing(out[-1].rank if tied else offset + k + 1, pid, Stage.SWISS, 0))
    gone = sorted((ln.id for ln in lines if ln.id in barred), key=lambda pid: seed.get(pid, len(seed)))
    for pid in gone:
        out.append(Placing(len(out) + 1, pid, Stage.SWISS, 0, disqualified=True))
    return tuple(out)
