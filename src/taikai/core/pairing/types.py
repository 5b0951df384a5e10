"""Plain data in and out of the pairing engines (組み合わせ).

Every engine has one shape: ``pair(PairingInput) -> PairingResult``. The input holds everything a
pairing depends on (standings, history, drops, forbidden pairs, round, seed), so storing it with
the round reproduces the pairing exactly for an appeal.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core.problems import ProblemError

PlayerId = int | str


class PairingError(ProblemError):
    """A request that cannot be paired; ``problem`` carries a code and parameters, never a sentence."""


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One entrant as the pairing engine sees it (a player, or a team in team Swiss)."""

    id: PlayerId
    points: int
    opponents: tuple[PlayerId, ...] = ()
    byes: int = 0
    dropped: bool = False

    @property
    def had_bye(self) -> bool:
        return self.byes > 0


@dataclass(frozen=True)
class PairingInput:
    players: tuple[PlayerState, ...]
    round: int
    seed: int | str
    forbidden: tuple[tuple[PlayerId, PlayerId], ...] = ()


@dataclass(frozen=True)
class PairExplanation:
    """Answers "why was I paired with this player?" for one table.

    ``reason`` is ``same-points``; ``paired-down-rematch`` (every active player on the higher
    player's points had already played them or was barred); or ``paired-down-count`` (an unplayed
    opponent on the same points existed, but the groups could not all pair inside themselves
    without a worse total). ``rematch_free_alternative`` is False on a rematch: the engine only
    rematches when no rematch-free pairing of the whole round exists.
    """

    table: int
    a: PlayerId
    b: PlayerId
    point_difference: int
    rematch: bool
    rematch_free_alternative: bool
    reason: str


@dataclass(frozen=True)
class PairingResult:
    pairings: tuple[tuple[PlayerId, PlayerId], ...]
    byes: tuple[PlayerId, ...]
    explanations: tuple[PairExplanation, ...] = ()
    rematches: int = 0
    pair_downs: int = 0
    squared_point_difference: int = 0
    # how optimality was established: "lower-bound" (the sparse graph met a proven lower bound),
    # "complete-graph" (matching on every possible pair), "manual" or "elimination".
    proof: str = ""
