"""Single elimination (トーナメント方式): brackets for any number of players, and the top cut.

Seeds go into the standard bracket order (1 v N, 2 v N-1, ...), arranged so that seeds 1 and 2 can
meet only in the final, 1-4 only in the semi-finals, and so on. With N not a power of two the
bracket is the next power of two and the missing seats are byes, which fall to the top seeds.

Each round comes out as a ``BracketRound`` (a ``PairingResult``) whose ``tables`` keep bracket
order, byes in place: the winners, read in table order, are the next round's input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taikai.core.pairing.types import PairingError, PairingResult, PlayerId
from taikai.core.problems import Problem
from taikai.core.rng import SeededRandom
from taikai.core.ruleset import Ruleset


@dataclass(frozen=True)
class Bracket:
    """The first-round seats in bracket order; None is a bye."""

    slots: tuple[PlayerId | None, ...]

    @property
    def rounds(self) -> int:
        return max(len(self.slots).bit_length() - 1, 0)


@dataclass(frozen=True)
class BracketRound(PairingResult):
    """A round of the bracket; ``tables`` in bracket order, a bye as (player, None)."""

    tables: tuple[tuple[PlayerId, PlayerId | None], ...] = ()


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``."""
    if size < 1 or size & (size - 1):
        raise ValueError(size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def seeded_bracket(entrants: Sequence[PlayerId]) -> Bracket:
    """Entrants in seed order (best first), e.g. the Swiss standings."""
    if len(set(entrants)) != len(entrants):
        raise PairingError(Problem("duplicate-player", player=_first_duplicate(entrants)))
    if not entrants:
        return Bracket(())
    size = 1 << (len(entrants) - 1).bit_length()
    return Bracket(tuple(entrants[s - 1] if s <= len(entrants) else None for s in bracket_order(size)))


def random_bracket(entrants: Sequence[PlayerId], seed: int | str) -> Bracket:
    """A pure elimination event: seeds drawn from the seed (byes still fall to the first drawn)."""
    drawn = list(entrants)
    SeededRandom(seed).shuffle(drawn)
    return seeded_bracket(drawn)


def top_cut(standings: Sequence[PlayerId], ruleset: Ruleset, size: int | None = None) -> Bracket:
    """The best ``size`` of the standings (eligible players, best first) seeded into a bracket; without
    ``size``, the cut the ruleset suggests for this attendance (0 = no cut: an empty bracket)."""
    size = ruleset.suggested_top_cut(len(standings)) if size is None else size
    if size > len(standings):
        raise PairingError(Problem("cut-too-large", cut=size, players=len(standings)))
    return seeded_bracket(standings[:size])


def first_round(bracket: Bracket) -> BracketRound:
    return _pair_slots(bracket.slots)


def next_round(winners: Sequence[PlayerId]) -> BracketRound:
    """Pair the winners of the previous round, given in its table order."""
    if len(winners) % 2 and len(winners) > 1:
        raise PairingError(Problem("odd-bracket", players=len(winners)))
    return _pair_slots(tuple(winners))


@dataclass(frozen=True)
class Stage:
    """What a bracket round is called (決勝 / 準決勝 / 準々決勝, and before those 決勝トーナメント N回戦):
    ``code`` is final, semifinal, quarterfinal or round; ``number`` is its place in the bracket (1 = first)."""

    code: str
    number: int


def stage(number: int, tables: int) -> Stage:
    """The stage of the bracket's ``number``-th round from its tables, byes included: every bracket round has a
    power of two of them (byes fill the first round), so 1 is the final, 2 the semifinals, 4 the quarterfinals,
    whatever the size of the cut."""
    left = max(tables, 1).bit_length()  # rounds to play, this one included
    codes = {1: "final", 2: "semifinal", 3: "quarterfinal"}
    return Stage(codes.get(left, "round"), number)


def _pair_slots(slots: tuple[PlayerId | None, ...]) -> BracketRound:
    pairings: list[tuple[PlayerId, PlayerId]] = []
    byes: list[PlayerId] = []
    tables: list[tuple[PlayerId, PlayerId | None]] = []
    for k in range(0, len(slots) - 1, 2):
        a, b = slots[k], slots[k + 1]
        if a is not None and b is not None:
            pairings.append((a, b))
            tables.append((a, b))
        elif a is not None or b is not None:
            alone = a if a is not None else b
            assert alone is not None
            byes.append(alone)
            tables.append((alone, None))
    return BracketRound(pairings=tuple(pairings), byes=tuple(byes), proof="elimination", tables=tuple(tables))


def _first_duplicate(entrants: Sequence[PlayerId]) -> PlayerId:
    seen: set[PlayerId] = set()
    for e in entrants:
        if e in seen:
            return e
        seen.add(e)
    raise AssertionError
