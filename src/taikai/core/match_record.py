"""A match record (マッチの記録): the players, the format, and the duels in the order played.

Plain data, the vocabulary every reader of a match shares: ``match.evaluate`` judges a record, ``match_json``
reads and writes it, the time procedure and penalty duels add to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Player(StrEnum):
    A = "A"
    B = "B"

    @property
    def opponent(self) -> Player:
        return Player.B if self is Player.A else Player.A


class Format(StrEnum):
    SWISS = "swiss"  # スイスドロー方式
    ELIMINATION = "elimination"  # トーナメント方式


def leader_of(a: int, b: int) -> Player | None:
    """Who has more (life points, duel wins); None when level."""
    if a == b:
        return None
    return Player.A if a > b else Player.B


@dataclass(frozen=True)
class LifePoints:
    a: int
    b: int

    def of(self, player: Player) -> int:
        return self.a if player is Player.A else self.b

    @property
    def leader(self) -> Player | None:
        return leader_of(self.a, self.b)


@dataclass(frozen=True)
class Won:
    """A duel won normally (a concession or a penalty duel loss counts as this)."""

    winner: Player
    time_called: bool = False  # time was called during this duel; the win came in its (extra) turns
    extra_duel: bool = False


@dataclass(frozen=True)
class Drawn:
    """A duel the game itself ended in a draw."""

    time_called: bool = False
    extra_duel: bool = False


@dataclass(frozen=True)
class TimedOut:
    """Time was called and the extra turns (or the extra duel's turns) ended with no normal win."""

    lp: LifePoints
    sudden_death: Player | None = None  # who won the sudden death, when the LP were equal
    extra_duel: bool = False


Duel = Won | Drawn | TimedOut


@dataclass(frozen=True)
class Opening:
    """MATCH-3: duel 1's rock-paper-scissors (じゃんけん) — who won it, and who went first by their choice."""

    rps_winner: Player
    first: Player

    @property
    def chose_first(self) -> bool:
        return self.first is self.rps_winner


@dataclass(frozen=True)
class MatchRecord:
    format: Format
    duels: tuple[Duel, ...] = ()
    time_called_between_duels: bool = False  # after the last regular duel listed
    opening: Opening | None = None  # MATCH-3, recorded when known; it decides nothing
