"""Final prizes (受賞資格): prize ranks, downgrades, eligibility losses, promotion and playoffs (PEN-2, PEN-3).

The organizer defines prize ranks over final places (1st, 2nd, 3rd-4th, 5th-8th ...). ``award`` takes the
final order as groups of tied entrants (players or teams), best first, and each entrant's sanction:

- an eligibility loss (受賞資格を失う失格) removes the entrant; everyone below moves up (CS 1.2);
- a downgrade of n steps gives the entrant the prize n ranks below the one their place earned, and the
  prize they vacate is filled by promoting the next entrants (CS 1.2, PEN-2);
- a disqualification starts from the place the entrant had secured when disqualified (``Sanction.decided_place``,
  CS 1.2 A: その時点で決まっていた受賞資格; ``taikai.core.placings.secured_places``), not from the final order,
  which it leaves: with nothing secured yet (Swiss not over) there is no prize; a DQ with downgrade lowers the
  secured prize by its steps, and a plain 失格 by one step, as rung 5 at the same moment would (PEN-8), so a
  heavier rung never leaves an entrant better off (CS 1.3: 右側ほど重い). Players and teams alike (CS 1.1, 1.2);
- when the entrants who would move into a rank are tied and outnumber its free places, the rank needs a
  playoff between them (CS 1.2: 追加のラウンド, PEN-3); the playoff's losers take the next rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PrizeRank:
    label: str
    first: int  # first final place of this rank, 1-based
    last: int  # last final place, inclusive

    @property
    def places(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Sanction:
    downgrade_steps: int = 0
    ineligible: bool = False
    decided_place: int | None = None  # CS 1.2 A: the place secured at the time of a DQ (None: nothing yet)
    disqualified: bool = False  # PEN-1: out of the event; the prize is the one decided at the DQ


def penalty_sanction(*, drop: bool, downgrade_steps: int, prize_loss: bool, decided_place: int | None) -> Sanction:
    """One penalty's mark on the prize (PEN-2, PEN-8). A plain 失格 (a DQ without downgrade steps) lowers the
    prize decided at that point by one step: rung 5 (受賞資格を一段階下げるマッチの敗北) at the same moment
    would lose the match and then one step, and a heavier rung is never better (CS 1.3)."""
    steps = max(downgrade_steps, 1) if drop else downgrade_steps
    return Sanction(steps, prize_loss, decided_place if drop else None, drop)


def combined(marks: Iterable[Sanction]) -> Sanction:
    """All the standing penalties of one entrant: steps add up; a DQ's decided place is its own."""
    out = Sanction()
    for m in marks:
        place = out.decided_place if out.disqualified else m.decided_place
        out = Sanction(
            out.downgrade_steps + m.downgrade_steps,
            out.ineligible or m.ineligible,
            place,
            out.disqualified or m.disqualified,
        )
    return out


@dataclass(frozen=True)
class Playoff:
    """``slots`` places of ``rank`` go to the winners of a playoff between ``candidates``."""

    rank: int  # index into the prize ranks
    slots: int
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class RankAward:
    rank: PrizeRank
    entrants: tuple[str, ...] = ()  # certain holders of this prize
    downgraded: tuple[str, ...] = ()  # those of ``entrants`` placed here by a downgrade
    playoff: Playoff | None = None
    from_playoff_above: int = 0  # places here taken by the losers of the playoff of the rank above


@dataclass(frozen=True)
class Awards:
    ranks: tuple[RankAward, ...]
    no_prize: tuple[str, ...] = ()  # sanctioned entrants left without a prize
    playoffs: tuple[Playoff, ...] = field(default=())

    @property
    def playoff_needed(self) -> bool:
        return bool(self.playoffs)

    def prize_of(self, entrant: str) -> int | None:
        """The index of the prize rank ``entrant`` certainly holds; None if none (or decided by playoff)."""
        for i, award in enumerate(self.ranks):
            if entrant in award.entrants:
                return i
        return None


class PrizeRankError(ValueError):
    pass


def check_ranks(ranks: Sequence[PrizeRank]) -> None:
    """Ranks must start at 1st place and follow on without gaps or overlaps."""
    expected = 1
    for rank in ranks:
        if rank.first != expected or rank.last < rank.first:
            raise PrizeRankError(f"{rank.label}: places {rank.first}-{rank.last}, expected to start at {expected}")
        expected = rank.last + 1


def _rank_at(ranks: Sequence[PrizeRank], place: int) -> int:
    for i, rank in enumerate(ranks):
        if rank.first <= place <= rank.last:
            return i
    return len(ranks)


def _reserved(
    ranks: Sequence[PrizeRank], groups: list[list[str]], sanctions: Mapping[str, Sanction]
) -> tuple[dict[int, list[str]], list[list[str]]]:
    """The ranks sanctioned entrants are placed at, and the tied groups left to fill the rest in order.

    A disqualified entrant's prize is the one decided at the DQ, lowered (PEN-2, PEN-8); the final order no
    longer places them, and with nothing decided yet there is no prize. Any other downgraded entrant's
    target: the rank their (compacted) place earned, n steps lower."""
    reserved: dict[int, list[str]] = {}
    frozen = {e: s for e, s in sanctions.items() if s.disqualified and not s.ineligible}
    for entrant, s in sorted(frozen.items(), key=lambda item: item[1].decided_place or 0):
        if s.decided_place is not None:
            reserved.setdefault(_rank_at(ranks, s.decided_place) + max(s.downgrade_steps, 1), []).append(entrant)
    place = 1
    queue: list[list[str]] = []
    for group in [g for g in groups if g]:
        rest = []
        for entrant in group:
            steps = sanctions.get(entrant, Sanction()).downgrade_steps
            if steps > 0:
                reserved.setdefault(_rank_at(ranks, place) + steps, []).append(entrant)
            else:
                rest.append(entrant)
        place += len(group)
        if rest:
            queue.append(rest)
    return reserved, queue


def award(
    ranks: Sequence[PrizeRank],
    order: Sequence[Sequence[str]],
    sanctions: Mapping[str, Sanction] | None = None,
) -> Awards:
    """Prizes for the final ``order`` (tied groups, best first) under ``sanctions`` (PEN-2, PEN-3)."""
    check_ranks(ranks)
    sanctions = sanctions or {}
    # Eligibility losses leave the order; everyone below moves up (CS 1.2 繰り上げ).
    groups = [[e for e in g if not sanctions.get(e, Sanction()).ineligible] for g in order]
    lost = tuple(e for g in order for e in g if sanctions.get(e, Sanction()).ineligible)
    frozen = {e: s for e, s in sanctions.items() if s.disqualified and not s.ineligible}
    unplaced = tuple(e for e, s in frozen.items() if s.decided_place is None)
    reserved, queue = _reserved(ranks, [[e for e in g if e not in frozen] for g in groups if g], sanctions)

    awards: list[RankAward] = []
    playoffs: list[Playoff] = []
    carried: list[str] = []  # downgraded entrants pushed down because their target rank was full
    losers_above = 0  # playoff losers of the rank above, still to be placed
    for index, rank in enumerate(ranks):
        # the disqualified first: their prize depends on nothing played after the DQ
        wanted = sorted(carried + reserved.get(index, []), key=lambda e: e not in frozen)
        down, carried = wanted[: rank.places], wanted[rank.places :]
        free = rank.places - len(down)
        from_above = min(free, losers_above)
        free -= from_above
        losers_above -= from_above
        taken: list[str] = []
        playoff = None
        while free > 0 and queue and losers_above == 0:
            group = queue[0]
            if len(group) <= free:
                taken += queue.pop(0)
                free -= len(group)
                continue
            playoff = Playoff(index, free, tuple(group))
            playoffs.append(playoff)
            losers_above = len(group) - free
            queue.pop(0)
            free = 0
        awards.append(RankAward(rank, tuple(down + taken), tuple(down), playoff, from_above))
    beyond = [e for i, es in reserved.items() if i >= len(ranks) for e in es]
    return Awards(tuple(awards), lost + unplaced + tuple(carried) + tuple(beyond), tuple(playoffs))


def playoff_pairs(candidates: Sequence[str]) -> list[tuple[str, str | None]]:
    """A simple playoff pairing: the best-placed candidate against the worst, and so on; odd one gets a bye."""
    items = list(candidates)
    pairs: list[tuple[str, str | None]] = []
    while len(items) > 1:
        pairs.append((items.pop(0), items.pop()))
    if items:
        pairs.append((items[0], None))
    return pairs
